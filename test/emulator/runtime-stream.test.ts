// Issue 9 "A streaming text endpoint kind, llm" and GET /stream/<job>: `{status, stream: [{output}]}` (the
// shape runpod-sdk and runpod-python read), batches of the vLLM worker (`{choices: [{tokens}], usage}`, three
// tokens per 100 ms of emulator time), handed out once each, then the terminal status; the final output is the
// list of every batch. Other kinds stream their whole output once, when they complete.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertProblem } from './assertions';
import { RT, useRuntimeEmulator } from './runtimeFixtures';

const rt = useRuntimeEmulator();
const api = rt.api;

const advance = rt.advance;
type Batch = { choices: Array<{ tokens: string[] }>; usage: { input: number; output: number } };
const textOf = (batches: Batch[]) => batches.map((b) => b.choices[0]!.tokens.join('')).join('');

describe('llm: streaming while it runs', () => {
  test('batches arrive as the clock moves, each handed out once, then COMPLETED with the whole answer as output', async () => {
    const input = { prompt: 'Tell me about lighthouses', sampling_params: { max_tokens: 30 } };
    const id = await api.submit(RT.llm, input);
    await advance(1000); // the hand-off: it starts now
    await advance(350);
    const first = await api.stream(RT.llm, id);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(Object.keys(first.json).sort(), ['status', 'stream']);
    assert.equal(first.json.status, 'IN_PROGRESS');
    // Three 100 ms batches after 350 ms (a fourth if the machine let 50 ms of real time pass meanwhile).
    const n1 = first.json.stream.length;
    assert.ok(n1 === 3 || n1 === 4, `batches after 350 ms: ${first.text}`);
    for (const item of first.json.stream) {
      assert.deepEqual(Object.keys(item), ['output']);
      assert.equal(item.output.choices[0].tokens.length, 3);
    }
    assert.deepEqual(first.json.stream.map((i: { output: Batch }) => i.output.usage.output), [3, 6, 9, 12].slice(0, n1), 'usage.output counts the tokens so far');

    await advance(300);
    const second = await api.stream(RT.llm, id);
    assert.ok(second.json.stream.length >= 2, second.text);
    assert.equal(second.json.stream[0].output.usage.output, 3 * n1 + 3, 'only the batches since the last call');

    await advance(5000);
    const last = await api.stream(RT.llm, id);
    assert.equal(last.json.status, 'COMPLETED');
    assert.equal(n1 + second.json.stream.length + last.json.stream.length, 10, 'the 30 tokens come in 10 batches in all');
    const again = await api.stream(RT.llm, id);
    assert.deepEqual(again.json, { status: 'COMPLETED', stream: [] }, 'nothing twice');

    const done = (await api.status(RT.llm, id)).json;
    assert.equal(done.status, 'COMPLETED');
    assert.equal(done.executionTime, 1000, '30 tokens at 3 per 100 ms');
    const streamed = [...first.json.stream, ...second.json.stream, ...last.json.stream].map((i: { output: Batch }) => i.output);
    assert.deepEqual(done.output, streamed, 'the final output is every batch, as the worker aggregates its stream');
    assert.equal(done.output.at(-1).usage.output, 30);
    assert.match(textOf(done.output), /^ You asked: Tell me about lighthouses\./);
  });

  test('the same prompt gives the same text; another prompt another', async () => {
    const run = async (prompt: string) => {
      const id = await api.submit(RT.llm, { prompt });
      await advance(20_000);
      return textOf((await api.status(RT.llm, id)).json.output);
    };
    const a = await run('hello there');
    assert.equal(await run('hello there'), a);
    assert.notEqual(await run('something else entirely'), a);
    assert.ok(a.split(' ').length > 20, `a natural answer is 40 tokens or more: ${a}`);
  });

  test('messages work as the prompt; an input the worker cannot use ends FAILED with the field named', async () => {
    const ok = await api.submit(RT.llm, { messages: [{ role: 'user', content: 'Hi' }] });
    const bad = await api.submit(RT.llm, { prompt: 42 });
    const badMax = await api.submit(RT.llm, { prompt: 'x', sampling_params: { max_tokens: 0 } });
    await advance(20_000);
    assert.equal((await api.status(RT.llm, ok)).json.status, 'COMPLETED');
    assert.match((await api.status(RT.llm, bad)).json.error, /input\.prompt/);
    assert.match((await api.status(RT.llm, badMax)).json.error, /max_tokens/);
  });

  test('a held /stream answers as soon as the next batch exists (a clock move), without waiting out its hold', async () => {
    const id = await api.submit(RT.llm, { prompt: 'hold on' });
    await advance(1000);
    await api.stream(RT.llm, id); // drain whatever exists
    const t0 = Date.now();
    const pending = api.stream(RT.llm, id);
    await advance(100);
    const r = await pending;
    assert.ok(r.json.stream.length >= 1, r.text);
    assert.ok(Date.now() - t0 < 2500, 'answered before the 3 s hold ran out');
  });

  test('a cancelled llm job keeps what it wrote; the stream ends with CANCELLED', async () => {
    const id = await api.submit(RT.llm, { prompt: 'stop me', sampling_params: { max_tokens: 60 } });
    await advance(1000 + 500);
    await api.cancel(RT.llm, id);
    const r = await api.stream(RT.llm, id);
    assert.equal(r.json.status, 'CANCELLED');
    assert.ok(r.json.stream.length === 5 || r.json.stream.length === 6, `what it wrote in the 500 ms it ran: ${r.text}`);
    await advance(5000);
    assert.deepEqual((await api.stream(RT.llm, id)).json, { status: 'CANCELLED', stream: [] }, 'nothing more after the cancel');
  });
});

describe('/stream of other kinds and of unknown jobs', () => {
  test('a non-streaming worker yields its whole output once, when it completes', async () => {
    const id = await api.submit(RT.echo, { hello: 'world' });
    await advance(2000);
    const running = await api.stream(RT.echo, id); // held up to 3 s, then empty
    assert.deepEqual(running.json, { status: 'IN_PROGRESS', stream: [] });
    await advance(10_000);
    assert.deepEqual((await api.stream(RT.echo, id)).json, { status: 'COMPLETED', stream: [{ output: { hello: 'world' } }] });
    assert.deepEqual((await api.stream(RT.echo, id)).json, { status: 'COMPLETED', stream: [] });
  });

  test('an unknown job is 404; a query parameter is 400', async () => {
    assertProblem(await api.stream(RT.llm, 'nope'), 404);
    const id = await api.submit(RT.echo);
    assertProblem(await api.call('GET', `/v2/${RT.echo}/stream/${id}?x=1`), 400);
  });
});
