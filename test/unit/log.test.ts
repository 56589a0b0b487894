import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRedactingLogger, redact, REDACTED, silentLogger, type Logger, type LogLevel } from '../../src/core/log';

const KEY = 'rpa_SECRETKEY1234567890abcdef';

function recordingSink(): Logger & { lines: { level: LogLevel; text: string; args: unknown[] }[] } {
  const lines: { level: LogLevel; text: string; args: unknown[] }[] = [];
  const at = (level: LogLevel) => (text: unknown, ...args: unknown[]) => { lines.push({ level, text: String(text), args }); };
  return { lines, trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

describe('redact', () => {
  test('removes the value of an Authorization header in header dumps and JSON', () => {
    assert.equal(redact('Authorization: Bearer abc.def-ghi'), `Authorization: ${REDACTED}`);
    assert.equal(redact('{"authorization":"Bearer abc","x":1}'), `{"authorization":"${REDACTED}","x":1}`);
    assert.equal(redact("headers: { Authorization: 'Bearer abc' }"), `headers: { Authorization: '${REDACTED}' }`);
  });

  test('removes a bearer token wherever it appears', () => {
    assert.equal(redact('curl -H "x: Bearer tok_123=="'), `curl -H "x: Bearer ${REDACTED}"`);
  });

  test('removes every registered secret, also URL-encoded and JSON-escaped', () => {
    const key = 'my key/with"odd+chars';
    const text = `raw ${key} url ${encodeURIComponent(key)} json ${JSON.stringify(key)}`;
    const out = redact(text, [key]);
    assert.ok(!out.includes(key) && !out.includes(encodeURIComponent(key)) && !out.includes(JSON.stringify(key).slice(1, -1)), out);
    assert.match(out, /raw \[REDACTED\] url \[REDACTED\] json "\[REDACTED\]"/);
  });

  test('leaves text without secrets untouched', () => {
    assert.equal(redact('GET /v2/billing/serverless -> 200', [KEY]), 'GET /v2/billing/serverless -> 200');
  });
});

describe('createRedactingLogger', () => {
  test('never hands the key to the sink, whatever is logged', () => {
    const sink = recordingSink();
    const log = createRedactingLogger(sink, () => [KEY]);
    const headers = new Headers({ authorization: `Bearer ${KEY}`, accept: 'application/json' });
    log.info('request', { url: `https://x.test/?k=${KEY}`, headers });
    log.debug(`sending with ${KEY}`);
    log.error(new Error(`failed for ${KEY}`), new Error('outer', { cause: new Error(KEY) }));
    log.warn('settings', { apiKey: KEY, nested: { deeper: [KEY] } }, new Map([['k', KEY]]));
    log.trace('headers', headers);
    assert.equal(sink.lines.length, 5);
    for (const line of sink.lines) {
      assert.ok(!line.text.includes(KEY), line.text);
      assert.equal(line.args.length, 0, 'the sink receives one redacted string, never raw arguments');
    }
    assert.deepEqual(sink.lines.map((l) => l.level), ['info', 'debug', 'error', 'warn', 'trace']);
    assert.match(sink.lines[0]!.text, /"accept":"application\/json"/);
  });

  test('a key set after the logger was made is redacted too', () => {
    const sink = recordingSink();
    let key: string | undefined;
    const log = createRedactingLogger(sink, () => [key]);
    log.info('before');
    key = 'later-set-key-999';
    log.info(`after ${key}`);
    assert.equal(sink.lines[1]!.text, `after ${REDACTED}`);
  });

  test('a throwing sink or secrets provider does not break the caller', () => {
    const log = createRedactingLogger({ ...recordingSink(), info: () => { throw new Error('disposed'); } }, () => { throw new Error('no store'); });
    assert.doesNotThrow(() => log.info('x'));
  });

  test('a level the sink would drop is dropped before anything is formatted or the secrets are asked for', () => {
    const sink = recordingSink();
    let formatted = 0;
    let asked = 0;
    const expensive = { toJSON: () => String(++formatted) };
    const log = createRedactingLogger({ ...sink, enabled: (level) => level !== 'debug' && level !== 'trace' }, () => (asked++, [KEY]));
    log.debug('dropped', expensive);
    log.trace('dropped', expensive);
    assert.equal(formatted + asked, 0, 'nothing done for a dropped line');
    assert.equal(log.enabled?.('debug'), false, 'the wrapper says so to whoever wraps it');
    log.info(`kept ${KEY}`, expensive);
    assert.deepEqual(sink.lines.map((l) => l.text), [`kept ${REDACTED} "1"`]);
    assert.equal(createRedactingLogger(silentLogger, () => [KEY]).enabled?.('error'), false);
  });

  test('circular objects are logged without throwing', () => {
    const sink = recordingSink();
    const a: Record<string, unknown> = { name: 'a' };
    a['self'] = a;
    createRedactingLogger(sink, () => []).info('obj', a);
    assert.match(sink.lines[0]!.text, /\[Circular\]/);
  });
});
