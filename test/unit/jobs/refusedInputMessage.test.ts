// The notification of a run refused for a bad input file (src/jobs/refusedInputMessage.ts): the position is
// said once, by describeError. It used to be put after the file name by hand as well, so a JSON syntax error
// (whose text already names it) showed it twice.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BadInputError } from '../../../src/core/http/errors';
import { parseInputFile } from '../../../src/core/input/inputFile';
import { refusedInputMessage } from '../../../src/jobs/refusedInputMessage';

function problemOf(text: string): BadInputError {
  try {
    parseInputFile(text);
  } catch (err) {
    assert.ok(err instanceof BadInputError);
    return err;
  }
  assert.fail('the text parsed');
}

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

describe('a refused input file', () => {
  test('a JSON syntax error names its position once', () => {
    const problem = problemOf('{\n  "prompt": "a cat",\n}\n');
    assert.equal(problem.line, 3, 'the Diagnostic still gets the line');
    assert.equal(problem.column, 1);
    const message = refusedInputMessage('inputs/cat.input.json', problem, []);
    assert.match(message, /^Not sent: inputs\/cat\.input\.json: The input file is not valid JSON/);
    assert.equal(occurrences(message, '(line 3, column 1)'), 1, message);
  });

  test('a problem whose text does not name its position gets it once, from describeError', () => {
    const problem = problemOf('[1, 2]');
    const message = refusedInputMessage('list.json', problem, []);
    assert.match(message, /^Not sent: list\.json: The input file must hold a JSON object/);
    assert.equal(occurrences(message, '(line 1, column 1)'), 1, message);
  });

  test('a key quoted in the problem is scrubbed', () => {
    const message = refusedInputMessage('a.json', new BadInputError('"apiKey": "sk-live-123456" does not belong in an input file', 2, 3), ['sk-live-123456']);
    assert.ok(!message.includes('sk-live-123456'), message);
    assert.match(message, /\[REDACTED\]/);
  });
});
