// Where in a JSON text a problem is: the offset of the first syntax error (for the messages of JSON.parse that
// carry no position, such as "Unexpected token"), the offsets of the top-level keys (so an error about a
// property can point at it), and offset -> 1-based line and column as an editor shows them.
// A small hand-written scanner: it runs only on files the user wrote, and only to explain a problem.

export interface SyntaxProblem {
  /** 0-based offset into the text (UTF-16 code units, as JavaScript strings and editors count). */
  offset: number;
  /** What is wrong, in words, without the file's content. */
  message: string;
}

export interface LineColumn {
  line: number;
  column: number;
}

/** 1-based line and column of `offset`. \r\n, \n and a lone \r each end a line, as in VS Code. */
export function lineColumnAt(text: string, offset: number): LineColumn {
  const end = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 /* \n */) {
      line++;
      lineStart = i + 1;
    } else if (c === 13 /* \r */) {
      if (text.charCodeAt(i + 1) === 10 && i + 1 < end) i++;
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

class Stop extends Error {
  constructor(readonly problem: SyntaxProblem) { super(problem.message); }
}

/**
 * Scans `text` as JSON (RFC 8259, as JSON.parse reads it). Returns the first problem, or undefined when the
 * text is valid. `onTopLevelKey` sees each key of a top-level object with the offset of its opening quote
 * and the offset where its value starts.
 */
export function scanJson(
  text: string,
  onTopLevelKey?: (key: string, keyOffset: number, valueOffset: number) => void,
): SyntaxProblem | undefined {
  let i = 0;
  const n = text.length;
  const fail = (message: string, at = i): never => { throw new Stop({ offset: at, message }); };
  const describe = (at: number): string =>
    at >= n ? 'the file ends too early' : `unexpected ${JSON.stringify(text[at])}`;
  const skipWs = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else return;
    }
  };
  const str = (): string => {
    const start = i;
    i++; // opening quote
    let out = '';
    let runStart = i;
    for (;;) {
      if (i >= n) fail('a string is not closed (missing ")', start);
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(runStart, i);
        i++;
        return out;
      }
      if (c < 32) fail('a line break or control character inside a string (escape it, e.g. \\n)');
      if (c === 92) {
        out += text.slice(runStart, i);
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('a \\u escape needs four hex digits');
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          out += JSON.parse(`"\\${e}"`) as string;
          i += 2;
        } else {
          fail(e === undefined ? 'the file ends too early' : `\\${e} is not a valid escape in a string`);
        }
        runStart = i;
        continue;
      }
      i++;
    }
  };
  const num = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '-') fail('a number is malformed');
    i += m![0].length;
    if (/[0-9.eE]/.test(text[i] ?? '')) fail('a number is malformed (leading zero or stray character)');
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`${describe(i)} (did you mean ${word}?)`);
  };
  const value = (depth: number): void => {
    skipWs();
    // Recursion per level: stop well before the stack does (JSON.parse itself goes deeper, so a valid but
    // absurdly deep file only loses the positions of what follows).
    if (depth > 1_000) fail('nesting is too deep (over 1000 levels)');
    const c = text[i];
    if (c === '{') {
      i++;
      skipWs();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        skipWs();
        if (text[i] !== '"') {
          fail(text[i] === '}' ? 'a comma before } (trailing commas are not allowed in JSON)'
            : text[i] === "'" ? 'property names need double quotes, not single quotes'
            : i >= n ? 'the file ends too early (missing })'
            : `expected a property name in double quotes, found ${JSON.stringify(text[i])}`);
        }
        const keyOffset = i;
        const key = str();
        skipWs();
        if (text[i] !== ':') fail(i >= n ? 'the file ends too early' : `expected : after the property name "${key}"`);
        i++;
        skipWs();
        if (depth === 0 && onTopLevelKey) onTopLevelKey(key, keyOffset, i);
        value(depth + 1);
        skipWs();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return; }
        fail(i >= n ? 'the file ends too early (missing })' : `expected , or } after a property value, found ${JSON.stringify(text[i])}`);
      }
    }
    if (c === '[') {
      i++;
      skipWs();
      if (text[i] === ']') { i++; return; }
      for (;;) {
        skipWs();
        if (text[i] === ']') fail('a comma before ] (trailing commas are not allowed in JSON)');
        value(depth + 1);
        skipWs();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return; }
        fail(i >= n ? 'the file ends too early (missing ])' : `expected , or ] after an array element, found ${JSON.stringify(text[i])}`);
      }
    }
    if (c === '"') { str(); return; }
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) { num(); return; }
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === "'") fail('strings need double quotes, not single quotes');
    fail(i >= n ? 'the file ends too early' : `${describe(i)} where a value was expected`);
  };
  try {
    skipWs();
    if (i >= n) fail('the file is empty');
    value(0);
    skipWs();
    if (i < n) fail(`${describe(i)} after the end of the JSON value`);
    return undefined;
  } catch (e) {
    if (e instanceof Stop) return e.problem;
    if (e instanceof RangeError) return { offset: i, message: 'nesting is too deep' };
    throw e;
  }
}
