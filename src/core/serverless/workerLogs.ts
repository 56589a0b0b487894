// Following a hosted worker's logs (issue 28): GET /v2/serverless/{id}/workers/{workerId}/logs, Server-Sent
// Events whose `data` is {source, line, ts} and whose `id` is that `ts` (the REST v2 reference, getWorkerLogs).
// The stream is read as it arrives (the HTTP transport reads whole bodies, so this is its own small reader on
// the same rules: the key only to the configured billing origin, no redirects followed, typed errors). A
// connection lost mid-stream is resumed with Last-Event-ID, so no line is shown twice or lost; the stream's
// normal end (the worker is gone) or the caller's signal ends the follow. No `vscode` import.
import { NetworkError } from '../http/errors';
import { errorFromResponse } from '../http/responseError';
import { parseRateLimitHeaders } from '../http/rateLimit';
import { joinUrl } from '../http/url';
import type { ConnectionSettings } from '../http/connectionSettings';
import { WorkerLogEvent, type LogSource } from './resourceSchemas';
import { serverlessRoutes } from './schemas';

export interface WorkerLogQuery {
  /** container (what the worker printed) or system (the host's lines); both when omitted. */
  source?: LogSource;
  /** Lines of backfill, 0..5000 (the service's default: 100). */
  tail?: number;
  /** RFC 3339: resume from this instant (tail is then ignored). */
  since?: string;
  /** Resume just after this event (an `id` this stream sent); wins over since and tail. */
  lastEventId?: string;
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** The text/event-stream format (WHATWG HTML, "Server-sent events"), fed chunk by chunk. */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private id: string | undefined;
  private event: string | undefined;

  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const out: SseEvent[] = [];
    for (let nl = this.buffer.search(/\r\n|\r|\n/); nl >= 0; nl = this.buffer.search(/\r\n|\r|\n/)) {
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for the next one.
      if (nl === this.buffer.length - 1 && this.buffer.endsWith('\r')) break;
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + (this.buffer.startsWith('\r\n', nl) ? 2 : 1));
      if (line === '') {
        if (this.data.length) out.push({ ...(this.id !== undefined ? { id: this.id } : {}), ...(this.event ? { event: this.event } : {}), data: this.data.join('\n') });
        this.data = [];
        this.event = undefined;
        continue;
      }
      if (line.startsWith(':')) continue; // a comment: the keep-alive
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') this.data.push(value);
      else if (field === 'id' && !value.includes('\0')) this.id = value;
      else if (field === 'event') this.event = value;
    }
    return out;
  }
}

export interface FollowOptions {
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** How many times a lost connection is resumed (default 3). */
  maxReconnects?: number;
}

/**
 * Calls `onLine` with each log event as it arrives until the stream ends by itself ('ended': the worker is gone)
 * or `signal` aborts ('cancelled'). A 4xx/5xx throws the typed error of the HTTP layer.
 */
export async function followWorkerLogs(
  settings: Readonly<ConnectionSettings>, endpointId: string, workerId: string, query: WorkerLogQuery,
  onLine: (e: WorkerLogEvent) => void, options: FollowOptions = {},
): Promise<{ end: 'ended' | 'cancelled'; lastEventId?: string }> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const url = joinUrl(settings.billingBaseUrl, serverlessRoutes.workerLogs(endpointId, workerId));
  if (query.source) url.searchParams.set('source', query.source);
  if (query.tail !== undefined) url.searchParams.set('tail', String(query.tail));
  if (query.since) url.searchParams.set('since', query.since);
  let lastEventId = query.lastEventId;
  let reconnects = 0;
  for (;;) {
    if (options.signal?.aborted) return { end: 'cancelled', ...(lastEventId ? { lastEventId } : {}) };
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
    if (lastEventId) headers['last-event-id'] = lastEventId;
    let response: Response;
    try {
      response = await doFetch(url, { headers, redirect: 'manual', ...(options.signal ? { signal: options.signal } : {}) });
    } catch (e) {
      if (options.signal?.aborted) return { end: 'cancelled', ...(lastEventId ? { lastEventId } : {}) };
      if (reconnects++ < (options.maxReconnects ?? 3)) continue;
      throw new NetworkError(url.host, e instanceof Error ? e.message : String(e));
    }
    if (response.status !== 200) {
      const body = await response.text().catch(() => '');
      const receivedAt = Date.now();
      throw errorFromResponse({ status: response.status, headers: response.headers, body, rateLimits: parseRateLimitHeaders(response.headers, receivedAt), receivedAt });
    }
    const parser = new SseParser();
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        for (const ev of parser.push(decoder.decode(chunk, { stream: true }))) {
          const parsed = WorkerLogEvent.safeParse(safeJson(ev.data));
          if (ev.id) lastEventId = ev.id;
          if (parsed.success) onLine(parsed.data);
        }
      }
      return { end: 'ended', ...(lastEventId ? { lastEventId } : {}) };
    } catch (e) {
      if (options.signal?.aborted) return { end: 'cancelled', ...(lastEventId ? { lastEventId } : {}) };
      if (reconnects++ >= (options.maxReconnects ?? 3)) throw new NetworkError(url.host, e instanceof Error ? e.message : String(e));
      // Resumed just after the last event seen.
    }
  }
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
