// A Structured Field List (RFC 9651 §4.2.1, which obsoletes RFC 8941): what the service's `RateLimit` and
// `RateLimit-Policy` headers are (SPEC 8.2, 8.3). Our own parser rather than the `structured-headers` package
// because dist/extension.js must stay under its 200 KiB budget (issue 28) and the package's parser was 6 KiB of
// it; the emulator still serializes with the package, and test/unit/http/structuredList.test.ts checks this
// parser against the package's on generated headers, well-formed and broken. Every bare item type is parsed,
// so one we never use (a date, a byte sequence) cannot make us misread the members around it. A header that is
// not a valid List throws a SyntaxError: the caller ignores the whole header, as the RFC asks (§4.2).

/** A Token (RFC 9651 §3.3.4), told apart from a String. */
export class Token {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}
/** A Display String (RFC 9651 §3.3.8), told apart from a String. */
export class DisplayString {
  constructor(readonly value: string) {}
}
export type BareItem = number | string | boolean | Token | DisplayString | Uint8Array | Date;
export type Parameters = Map<string, BareItem>;
export type Item = [BareItem, Parameters];
export type InnerList = [Item[], Parameters];
export type List = Array<Item | InnerList>;

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/;
const KEY_FIRST = /[a-z*]/;
const KEY_CHAR = /[a-z0-9_\-.*]/;

/** The members of a List; throws a SyntaxError naming the offset of the first thing that is not valid. */
export function parseList(input: string): List {
  let pos = 0;
  const fail = (why: string): never => {
    throw new SyntaxError(`not a structured field list: ${why} at offset ${pos}`);
  };
  const peek = (): string | undefined => input[pos];
  const spaces = (): void => {
    while (input[pos] === ' ') pos++;
  };
  const ows = (): void => {
    while (input[pos] === ' ' || input[pos] === '\t') pos++;
  };
  const expect = (c: string): void => {
    if (input[pos] !== c) fail(`expected ${c}`);
    pos++;
  };

  const digits = (max: number): string => {
    const start = pos;
    while (pos < input.length && input[pos]! >= '0' && input[pos]! <= '9') pos++;
    if (pos === start) fail('expected a digit');
    if (pos - start > max) fail('too many digits');
    return input.slice(start, pos);
  };
  const number = (): number => {
    const sign = input[pos] === '-' ? (pos++, -1) : 1;
    const whole = digits(15);
    if (input[pos] !== '.') return sign * Number(whole);
    if (whole.length > 12) fail('too many digits before the decimal point');
    pos++;
    return sign * Number(`${whole}.${digits(3)}`);
  };
  const string = (): string => {
    expect('"');
    let out = '';
    while (pos < input.length) {
      const c = input[pos++]!;
      if (c === '"') return out;
      if (c === '\\') {
        const next = input[pos++];
        if (next !== '"' && next !== '\\') fail('a backslash escapes only " and \\');
        out += next;
      } else if (c < ' ' || c > '~') fail('a string holds printable ASCII only');
      else out += c;
    }
    return fail('unterminated string');
  };
  const token = (): Token => {
    const start = pos++;
    while (pos < input.length && TCHAR.test(input[pos]!)) pos++;
    return new Token(input.slice(start, pos));
  };
  const bytes = (): Uint8Array => {
    expect(':');
    const end = input.indexOf(':', pos);
    if (end < 0) fail('unterminated byte sequence');
    const b64 = input.slice(pos, end);
    pos = end + 1;
    // Padding only at the end of whole quartets, as atob (and the package) read it.
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1 || (b64.includes('=') && b64.length % 4 !== 0)) fail('not base64');
    return new Uint8Array(Buffer.from(b64, 'base64'));
  };
  const displayString = (): DisplayString => {
    expect('%');
    expect('"');
    const out: number[] = [];
    while (pos < input.length) {
      const c = input[pos++]!;
      if (c < ' ' || c > '~') fail('a display string holds printable ASCII only');
      if (c === '"') {
        try {
          return new DisplayString(new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(out)));
        } catch {
          fail('a display string is not UTF-8');
        }
      }
      if (c === '%') {
        const hex = input.slice(pos, pos + 2);
        if (!/^[0-9a-f]{2}$/.test(hex)) fail('% takes two lowercase hex digits');
        out.push(parseInt(hex, 16));
        pos += 2;
      } else out.push(c.charCodeAt(0));
    }
    return fail('unterminated display string');
  };
  const bareItem = (): BareItem => {
    const c = peek();
    if (c === undefined) return fail('expected an item');
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    if (c === '"') return string();
    if (c === '*' || /[A-Za-z]/.test(c)) return token();
    if (c === ':') return bytes();
    if (c === '%') return displayString();
    if (c === '?') {
      pos++;
      const b = input[pos++];
      return b === '1' ? true : b === '0' ? false : fail('a boolean is ?0 or ?1');
    }
    if (c === '@') {
      pos++;
      const sign = input[pos] === '-' ? (pos++, -1) : 1;
      return new Date(sign * Number(digits(15)) * 1000);
    }
    return fail(`unexpected ${JSON.stringify(c)}`);
  };
  const parameters = (): Parameters => {
    const params: Parameters = new Map();
    while (input[pos] === ';') {
      pos++;
      spaces();
      if (!KEY_FIRST.test(peek() ?? '')) fail('expected a key');
      const start = pos;
      while (pos < input.length && KEY_CHAR.test(input[pos]!)) pos++;
      const key = input.slice(start, pos);
      let value: BareItem = true;
      if (input[pos] === '=') {
        pos++;
        value = bareItem();
      }
      // A repeated key keeps its first place and its last value (RFC 9651 §4.2.3.2).
      params.set(key, value);
    }
    return params;
  };
  const member = (): Item | InnerList => {
    if (input[pos] !== '(') return [bareItem(), parameters()];
    pos++;
    const items: Item[] = [];
    for (;;) {
      spaces();
      if (input[pos] === ')') {
        pos++;
        return [items, parameters()];
      }
      if (pos >= input.length) fail('unterminated inner list');
      items.push([bareItem(), parameters()]);
      if (input[pos] !== ' ' && input[pos] !== ')') fail('expected a space or ) after an item of an inner list');
    }
  };

  const list: List = [];
  spaces();
  while (pos < input.length) {
    list.push(member());
    ows();
    if (pos >= input.length) break;
    expect(',');
    ows();
    if (pos >= input.length) fail('a list does not end with a comma');
  }
  return list;
}
