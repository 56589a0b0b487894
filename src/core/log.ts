// The one logger of the core, and the redaction that guarantees it can never print the API key.
// The shape of `Logger` is the shape of VS Code's LogOutputChannel (trace/debug/info/warn/error with a
// message and extra arguments), so the editor layer passes its channel as the sink unchanged and log
// levels follow VS Code's own setting. No `vscode` import here.

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error'];

export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string | Error, ...args: unknown[]): void;
  /**
   * Whether a message at `level` would be written; absent means always. A wrapper asks before it formats, so a
   * debug line per request costs nothing at the default Info level (issue 30: the client's redacting wrapper
   * formatted and redacted every request's debug lines that the channel then dropped).
   */
  enabled?(level: LogLevel): boolean;
}

/** A logger that drops everything: the default where the caller gives none. */
export const silentLogger: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  enabled: () => false,
};

export const REDACTED = '[REDACTED]';

// Secrets shorter than this are not searched for: redacting every "a" would make logs unreadable, and no
// real API key is that short.
const MIN_SECRET_LENGTH = 6;

// `Authorization: Bearer xyz`, `"authorization":"Bearer xyz"`, `authorization=xyz` (header dumps, JSON,
// form-like text), whatever the scheme: the value is dropped up to the end of the quoted string or line.
const AUTH_HEADER_QUOTED = /(["']?authorization["']?\s*[:=]\s*)(["'])(?:\\.|(?!\2)[^\\])*\2/gi;
const AUTH_HEADER_BARE = /(["']?authorization["']?\s*[:=])(?!\s*["'])(\s*)[^\r\n,;}\]]+/gi;
// A bearer token anywhere else (a curl line, an error message quoting a request).
const BEARER_TOKEN = /\b(Bearer\s+)[A-Za-z0-9\-._~+/]+=*/gi;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The forms in which a secret can appear in text we log: as is, URL-encoded, JSON-escaped. */
function secretForms(secret: string): readonly string[] {
  const known = formsOf.get(secret);
  if (known) return known;
  const forms = [...new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])].filter((f) => f.length >= MIN_SECRET_LENGTH);
  // Every body and log line is scrubbed of the same key or two: their forms are worked out once (issue 30).
  if (formsOf.size >= FORMS_KEPT) formsOf.clear();
  formsOf.set(secret, forms);
  return forms;
}
const FORMS_KEPT = 16;
const formsOf = new Map<string, readonly string[]>();

/** Removes the value of any Authorization header, any bearer token, and every given secret from `text`. */
export function redact(text: string, secrets: readonly string[] = []): string {
  const out = text
    .replace(AUTH_HEADER_QUOTED, (_m, prefix: string, quote: string) => `${prefix}${quote}${REDACTED}${quote}`)
    .replace(AUTH_HEADER_BARE, (_m, prefix: string, space: string) => `${prefix}${space}${REDACTED}`)
    .replace(BEARER_TOKEN, (_m, prefix: string) => `${prefix}${REDACTED}`);
  return scrubSecrets(out, secrets);
}

/**
 * Replaces every given secret in `text` by value (as is, URL-encoded, JSON-escaped) with `[REDACTED]`, and
 * nothing else: unlike `redact`, it leaves "Bearer …" words alone, so a worker's own text is not rewritten.
 * Returns `text` itself (no copy) when no secret occurs in it: the transport runs this on every body, 30 MB
 * billing answers included. The replacement keeps JSON valid: it only ever replaces whole escaped forms.
 */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  const forms = secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH).flatMap(secretForms);
  // Longest first, so a secret that contains another is removed whole.
  forms.sort((a, b) => b.length - a.length);
  let out = text;
  for (const form of forms) {
    if (out.includes(form)) out = out.replace(new RegExp(escapeRegExp(form), 'g'), REDACTED);
  }
  return out;
}

// In JSON text, `\u0041` is `A`: a body could spell the key with escapes no by-value search finds. Escapes of
// printable ASCII are turned back into their characters first (`"` and `\\` into their short escapes, which is
// the JSON-escaped form searched for). The pattern takes `\\` as one unit, so an escaped backslash followed by
// "u0041" is left as it is.
const JSON_ESCAPE = /\\(u[0-9a-fA-F]{4}|[^])/g;

/** `text` with needless `\uXXXX` escapes of printable ASCII spelled out; `text` itself when it has none. */
export function unescapePrintableAscii(text: string): string {
  if (!text.includes('\\u')) return text;
  return text.replace(JSON_ESCAPE, (escape: string, what: string) => {
    if (what.length !== 5) return escape;
    const code = parseInt(what.slice(1), 16);
    if (code === 0x22 || code === 0x5c) return `\\${String.fromCharCode(code)}`;
    return code >= 0x20 && code < 0x7f ? String.fromCharCode(code) : escape;
  });
}

/** Turns any logged value into text. Objects become JSON (Headers and Maps as plain objects); never throws. */
export function formatLogValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) {
    const cause = (value as { cause?: unknown }).cause;
    const causeText = cause === undefined ? '' : ` (cause: ${formatLogValue(cause)})`;
    return `${value.name}: ${value.message}${causeText}`;
  }
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return String(value);
  try {
    const seen = new WeakSet<object>();
    const json = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'bigint') return v.toString();
      if (typeof Headers !== 'undefined' && v instanceof Headers) return Object.fromEntries(v.entries());
      if (v instanceof Map) return Object.fromEntries(v);
      if (v instanceof Error) return formatLogValue(v);
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[Circular]';
        seen.add(v);
      }
      return v;
    });
    return json ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/**
 * A logger that formats the message and its arguments into ONE string, redacts it, and only then hands it
 * to `sink`. Because the sink never sees the raw arguments (a Headers object, an Error quoting a request,
 * the settings object), nothing it does with them can leak the key. `secrets` is asked on every call, so a
 * key set or changed later is covered at once.
 */
export function createRedactingLogger(sink: Logger, secrets: () => readonly (string | undefined)[]): Logger {
  const enabled = (level: LogLevel): boolean => sink.enabled?.(level) ?? true;
  const write = (level: LogLevel, message: unknown, args: unknown[]): void => {
    if (!enabled(level)) return;
    let known: string[];
    try {
      known = secrets().filter((s): s is string => typeof s === 'string' && s.length > 0);
    } catch {
      known = [];
    }
    const text = [message, ...args].map(formatLogValue).join(' ');
    try {
      sink[level](redact(text, known));
    } catch {
      // A broken sink (a disposed output channel) must never break the request that logged.
    }
  };
  return {
    trace: (m, ...a) => write('trace', m, a),
    debug: (m, ...a) => write('debug', m, a),
    info: (m, ...a) => write('info', m, a),
    warn: (m, ...a) => write('warn', m, a),
    error: (m, ...a) => write('error', m, a),
    enabled,
  };
}
