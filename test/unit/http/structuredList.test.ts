import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as sh from 'structured-headers';
import { DisplayString, parseList, Token, type BareItem, type List } from '../../../src/core/http/structuredList';

// Our List parser against the `structured-headers` package (the emulator's serializer, the reference here) on
// generated headers: the same members for every header the package reads, and a refusal for every one it
// refuses. One difference is known and on purpose: the package's date (`@123`) reads to the end of the header
// and refuses anything after it, where RFC 9651 §4.2.9 reads a date like an integer; headers with `@` are
// compared only where the package reads them.

/** The package's result in our shapes (its Token, DisplayString, ArrayBuffer become ours). */
function fromPackage(list: sh.List): List {
  const bare = (v: unknown): BareItem => {
    if (v instanceof sh.Token) return new Token(v.toString());
    if (v instanceof sh.DisplayString) return new DisplayString(v.toString());
    if (v instanceof ArrayBuffer) return new Uint8Array(v);
    return v as BareItem;
  };
  const params = (p: sh.Parameters) => new Map([...p].map(([k, v]) => [k, bare(v)]));
  return list.map((m) => (Array.isArray(m[0])
    ? [(m[0] as sh.Item[]).map((i) => [bare(i[0]), params(i[1])]), params(m[1])]
    : [bare(m[0]), params(m[1])])) as List;
}

function ours(input: string): List | 'refused' {
  try {
    return parseList(input);
  } catch (e) {
    assert.ok(e instanceof SyntaxError, `${JSON.stringify(input)}: ${String(e)}`);
    return 'refused';
  }
}
function theirs(input: string): List | 'refused' {
  try {
    return fromPackage(sh.parseList(input));
  } catch {
    return 'refused';
  }
}

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  'minute', 'hour', 'day', '"minute"', '"a\\"b"', '"\\\\"', '"', '\\', ';', ';r=', ';t=', 'r', 't', '=', '5', '30', '-1', '0', '1.5', '1.', '.5', '12.345', '1.2345',
  '1234567890123456', '123456789012345', '1234567890123.4', ',', ', ', ' ', '\t', '(', ')', '( a b )', '?1', '?0', '?2', ':aGk=:', ':aGk:', ':ab=:', ':a:', '::', ':',
  '%"caf%c3%a9"', '%"%ff"', '%"%C3"', '*', 'a*b', 'x/y:z', 'A', 'q=60', 'w=60', ';*k=1', ';K=1', '@1', '@-1', '\u00e9', '\u0001', '{', '"x\u00e9"', '"\u0001"', '"\u007f"',
];

describe('structured field lists (RFC 9651) against the structured-headers package', () => {
  test('the RateLimit headers the service sends read the same', () => {
    for (const h of ['minute;r=5;t=30, hour;r=100;t=1800, day;r=0;t=40000', '"minute";r=1;t=2, second;r=1;t=1, (a b);r=1;t=1', 'minute;q=60;w=60', '', '   ']) {
      assert.deepEqual(ours(h), theirs(h), h);
    }
    assert.deepEqual(parseList('minute;r=5;t=30'), [[new Token('minute'), new Map([['r', 5], ['t', 30]])]]);
  });

  test('every bare item type, parameters and inner lists, as the package serializes them', () => {
    const next = random(7);
    const item = (): sh.BareItem => {
      const pick = Math.floor(next() * 8);
      if (pick === 0) return Math.floor((next() - 0.5) * 1e12);
      if (pick === 1) return Math.round((next() - 0.5) * 1e6) / 1000;
      if (pick === 2) return `s "${Math.floor(next() * 100)}" \\ x`;
      if (pick === 3) return new sh.Token(`t${Math.floor(next() * 100)}/x:y`);
      if (pick === 4) return next() < 0.5;
      if (pick === 5) return new Uint8Array([1, 2, 3, Math.floor(next() * 256)]).buffer;
      if (pick === 6) return new sh.DisplayString(`caf\u00e9 ${Math.floor(next() * 10)}`);
      return new sh.Token('*');
    };
    const params = (): sh.Parameters => new Map(Array.from({ length: Math.floor(next() * 3) }, (_, i) => [`k${i}`, item()]));
    for (let n = 0; n < 500; n++) {
      const list: sh.List = Array.from({ length: 1 + Math.floor(next() * 4) }, () => (next() < 0.2
        ? [Array.from({ length: Math.floor(next() * 3) }, () => [item(), params()] as sh.Item), params()]
        : [item(), params()]));
      const text = sh.serializeList(list);
      assert.deepEqual(ours(text), theirs(text), text);
    }
  });

  test('generated headers, well-formed or broken: read alike, refused alike', () => {
    const next = random(42);
    let read = 0;
    let refused = 0;
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 8) }, () => PIECES[Math.floor(next() * PIECES.length)]).join('');
      const mine = ours(text);
      const package_ = theirs(text);
      if (text.includes('@') && package_ === 'refused') continue; // the package's date: see the top of this file
      assert.deepEqual(mine, package_, JSON.stringify(text));
      if (mine === 'refused') refused++;
      else read++;
    }
    // Both kinds were really tried.
    assert.ok(read > 1000 && refused > 1000, `read ${read}, refused ${refused}`);
  });
});
