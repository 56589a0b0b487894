import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BadInputError } from '../../../src/core/http/errors';
import { parseInputFile, writeSeedIntoInputText } from '../../../src/core/input/inputFile';
import { lineColumnAt, scanJson } from '../../../src/core/input/jsonLocator';

function badInput(text: string): BadInputError {
  try {
    parseInputFile(text);
  } catch (e) {
    assert.ok(e instanceof BadInputError, `expected BadInputError, got ${String(e)}`);
    return e;
  }
  assert.fail(`expected ${JSON.stringify(text)} to be refused`);
}

describe('parseInputFile: shapes', () => {
  test('a bare input object is the input', () => {
    assert.deepEqual(parseInputFile('{"prompt": "a cat", "width": 512}'), { input: { prompt: 'a cat', width: 512 }, wrapped: false });
  });

  test('{"input": {...}} is unwrapped and remembered as wrapped', () => {
    assert.deepEqual(parseInputFile('{\n  "input": {"prompt": "a cat"}\n}\n'), { input: { prompt: 'a cat' }, wrapped: true });
  });

  test('a BOM at the start is ignored', () => {
    assert.deepEqual(parseInputFile('\uFEFF{"a": 1}'), { input: { a: 1 }, wrapped: false });
  });

  test('an empty object is a valid (bare) input', () => {
    assert.deepEqual(parseInputFile('{}'), { input: {}, wrapped: false });
  });

  for (const [text, what] of [['[1, 2]', 'an array'], ['"hello"', 'a string'], ['null', 'null'], ['42', 'a number'], ['true', 'true']] as const) {
    test(`a top-level ${what} is refused, naming it, at line 1 column 1`, () => {
      const e = badInput(text);
      assert.match(e.message, new RegExp(`not ${what}`));
      assert.equal(e.line, 1);
      assert.equal(e.column, 1);
    });
  }

  test('"input" that is not an object is refused with the position of its value', () => {
    const e = badInput('{\n  "input": [1, 2]\n}');
    assert.match(e.message, /"input" must be a JSON object, not an array/);
    assert.deepEqual([e.line, e.column], [2, 12]);
    const n = badInput('{"input": null}');
    assert.match(n.message, /not null/);
    assert.deepEqual([n.line, n.column], [1, 11]);
  });

  test('top-level properties beside "input" other than the request options are refused, naming them, at the first one', () => {
    const e = badInput('{\n  "input": {"prompt": "x"},\n  "webhook": "https://x",\n  "callback": 1,\n  "priority": {}\n}');
    assert.match(e.message, /"callback", "priority"/);
    assert.match(e.message, /only "webhook", "policy" and "s3Config"/);
    assert.deepEqual([e.line, e.column], [4, 3]);
  });

  test('webhook, policy and s3Config beside "input" are the request options, kept as given (issue 10)', () => {
    const text = JSON.stringify({
      input: { prompt: 'x' },
      webhook: 'https://example.com/hook',
      policy: { executionTimeout: 6000, ttl: 60_000, lowPriority: true },
      s3Config: { accessId: 'a', accessSecret: 's', bucketName: 'b', endpointUrl: 'https://s3.example.com' },
    });
    assert.deepEqual(parseInputFile(text), {
      input: { prompt: 'x' },
      wrapped: true,
      request: {
        webhook: 'https://example.com/hook',
        policy: { executionTimeout: 6000, ttl: 60_000, lowPriority: true },
        s3Config: { accessId: 'a', accessSecret: 's', bucketName: 'b', endpointUrl: 'https://s3.example.com' },
      },
    });
  });

  test('a request option of the wrong shape is refused at its value, naming the field', () => {
    const e = badInput('{\n  "input": {},\n  "policy": {"executionTimeout": "10s"}\n}');
    assert.match(e.message, /"policy\.executionTimeout"/);
    assert.deepEqual([e.line, e.column], [3, 13]);
    const typo = badInput('{"input": {}, "policy": {"exectionTimeout": 6000}}');
    assert.match(typo.message, /exectionTimeout/);
  });

  test('a bare input keeps a "policy" property as part of the input (only the wrapper has request options)', () => {
    assert.deepEqual(parseInputFile('{"policy": "strict"}'), { input: { policy: 'strict' }, wrapped: false });
  });

  test('"Run again with this seed" keeps the request options of the file', () => {
    const out = writeSeedIntoInputText('{\n  "input": {"prompt": "x"},\n  "policy": {"ttl": 60000}\n}\n', 9);
    assert.deepEqual(JSON.parse(out), { input: { prompt: 'x', seed: 9 }, policy: { ttl: 60000 } });
  });

  test('an extra property before "input" is found too', () => {
    const e = badInput('{"seed": 1, "input": {}}');
    assert.match(e.message, /"seed"/);
    assert.deepEqual([e.line, e.column], [1, 2]);
  });
});

describe('parseInputFile: invalid JSON gives line and column', () => {
  const cases: Array<[string, string, number, number, RegExp]> = [
    ['trailing comma', '{\n  "a": 1,\n}', 3, 1, /trailing comma/],
    ['missing comma', '{\n  "a": 1\n  "b": 2\n}', 3, 3, /expected , or \}/],
    ['unexpected end', '{\n  "a": 1', 2, 9, /ends too early/],
    ['empty file', '', 1, 1, /empty/],
    ['whitespace only', '  \n  ', 2, 3, /empty/],
    ['bad literal (no position in V8 message)', '{\n  "a": tru\n}', 2, 8, /did you mean true/],
    ['single-quoted key', "{\n 'a': 1}", 2, 2, /double quotes/],
    ['raw line break in a string', '{"a": "x\ny"}', 1, 9, /line break/],
    ['garbage after the object', '{"a": 1}\n}', 2, 1, /after the end/],
    ['leading zero', '{"a": 01}', 1, 8, /malformed/],
    ['CRLF line endings', '{\r\n  "a": 1,\r\n  "b": x\r\n}', 3, 8, /unexpected "x"/],
    ['unterminated string', '{"a": "abc', 1, 7, /not closed/],
    ['bad escape', '{"a": "\\q"}', 1, 8, /not a valid escape/],
  ];
  for (const [name, text, line, column, message] of cases) {
    test(`${name}: line ${line}, column ${column}`, () => {
      const e = badInput(text);
      assert.equal(e.kind, 'badInput');
      assert.equal(e.line, line, e.message);
      assert.equal(e.column, column, e.message);
      assert.match(e.message, message);
      assert.match(e.message, new RegExp(`line ${line}, column ${column}`));
    });
  }

  test('a deeply nested file gives an error or a result, never a crash', () => {
    const deep = `{"input": ${'['.repeat(5000)}${']'.repeat(5000)}, "x": 1}`;
    const e = badInput(deep);
    assert.match(e.message, /"x"/);
    const broken = `{"a": ${'['.repeat(5000)}}`;
    assert.equal(badInput(broken).kind, 'badInput');
  });

  test('positions do not count a BOM', () => {
    const e = badInput('\uFEFF{"a": 1,}');
    assert.deepEqual([e.line, e.column], [1, 9]);
  });

  test('the scanner agrees with JSON.parse on what is valid JSON', () => {
    const jsonish = fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', ' ', '\n', 'a', '1', '0', '-', '.', 'e', 't', 'r', 'u', 'n', 'l', '\\', 'f', 's'), maxLength: 20 });
    const valid = fc.json();
    fc.assert(fc.property(fc.oneof(jsonish, valid), (text) => {
      let ok = true;
      try { JSON.parse(text); } catch { ok = false; }
      assert.equal(scanJson(text) === undefined, ok, JSON.stringify(text));
    }), { numRuns: 3000 });
  });
});

describe('lineColumnAt', () => {
  test('counts \\n, \\r\\n and lone \\r as line ends', () => {
    assert.deepEqual(lineColumnAt('ab\ncd', 4), { line: 2, column: 2 });
    assert.deepEqual(lineColumnAt('ab\r\ncd', 5), { line: 2, column: 2 });
    assert.deepEqual(lineColumnAt('ab\rcd', 3), { line: 2, column: 1 });
  });
});

describe('writeSeedIntoInputText', () => {
  test('keeps the wrapper and the indentation and sets the seed', () => {
    const text = '{\n    "input": {\n        "prompt": "a cat",\n        "seed": 1\n    }\n}\n';
    const out = writeSeedIntoInputText(text, 424242);
    assert.equal(out, '{\n    "input": {\n        "prompt": "a cat",\n        "seed": 424242\n    }\n}\n');
    assert.deepEqual(parseInputFile(out), { input: { prompt: 'a cat', seed: 424242 }, wrapped: true });
  });

  test('keeps CRLF line endings and a BOM', () => {
    const out = writeSeedIntoInputText('\uFEFF{\r\n  "prompt": "x"\r\n}\r\n', 5);
    assert.equal(out, '\uFEFF{\r\n  "prompt": "x",\r\n  "seed": 5\r\n}\r\n');
  });

  test('a bare input stays bare and gains a seed', () => {
    const out = writeSeedIntoInputText('{"prompt": "a cat"}', 7);
    assert.deepEqual(parseInputFile(out), { input: { prompt: 'a cat', seed: 7 }, wrapped: false });
    assert.ok(!out.endsWith('\n'));
  });

  test('does not change the original text and refuses a bad file', () => {
    const text = '{"input": {"seed": 3}}';
    writeSeedIntoInputText(text, 9);
    assert.equal(text, '{"input": {"seed": 3}}');
    assert.throws(() => writeSeedIntoInputText('{"input": 3}', 1), BadInputError);
  });
});
