// A language model's output as text: the vLLM worker's batches (streamed, and aggregated as the final output)
// and the OpenAI-compatible shapes; anything else is not text (it stays JSON in the panel).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { llmText, streamChunkText } from '../../../src/core/outputs/llmText';
import { parseOutputs } from '../../../src/core/outputs/outputs';

describe('llmText', () => {
  test('the vLLM worker\'s aggregated output (a list of batches) is the joined text of their tokens', () => {
    const output = [
      { choices: [{ tokens: [' You', ' asked'] }], usage: { input: 3, output: 2 } },
      { choices: [{ tokens: [':', ' hi', '.'] }], usage: { input: 3, output: 5 } },
    ];
    assert.equal(llmText(output), ' You asked: hi.');
  });

  test('OpenAI-compatible shapes: text, message.content, delta.content', () => {
    assert.equal(llmText({ choices: [{ text: 'plain completion' }] }), 'plain completion');
    assert.equal(llmText({ choices: [{ message: { role: 'assistant', content: 'chat answer' } }] }), 'chat answer');
    assert.equal(llmText([{ choices: [{ delta: { content: 'Hel' } }] }, { choices: [{ delta: { content: 'lo' } }] }]), 'Hello');
  });

  test('anything without choices is not text: it stays JSON', () => {
    for (const output of ['a bare string', { text: 'x' }, [{ image_url: 'https://x' }], [], 42, null, { choices: 'nope' }]) {
      assert.equal(llmText(output), undefined, JSON.stringify(output));
    }
  });

  test('a streamed item is an LLM batch or a plain string a generator yielded', () => {
    assert.equal(streamChunkText('word '), 'word ');
    assert.equal(streamChunkText({ choices: [{ tokens: ['a', 'b'] }] }), 'ab');
    assert.equal(streamChunkText([{ image_url: 'data:...' }]), undefined);
  });

  test('parseOutputs turns an LLM output into one text part', () => {
    assert.deepEqual(parseOutputs([{ choices: [{ tokens: ['Hi', '!'] }] }]), [{ kind: 'text', field: 'output', text: 'Hi!' }]);
  });
});
