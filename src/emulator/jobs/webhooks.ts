// Webhook deliveries (docs "Send API requests", Webhook notifications): when a job ends, POST the same JSON as
// its /status to the request's `webhook`. An answer other than 2xx, or no answer, is retried up to 2 more
// times, 10 s apart. The 10 s are emulator time, so a test moves the admin clock instead of waiting. Only
// loopback URLs get here (runBody.ts refuses others with a 400).
import http from 'node:http';
import https from 'node:https';
import type { EmulatorClock } from '../clock';

export const WEBHOOK_ATTEMPTS = 3;
export const WEBHOOK_RETRY_DELAY_MS = 10_000;
/** Real time an attempt may take before it counts as failed. */
const ATTEMPT_TIMEOUT_MS = 10_000;

interface Delivery {
  url: string;
  body: string;
  attempt: number;
  dueAtMs: number;
}

export class WebhookSender {
  private pending: Delivery[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly offClock: () => void;

  constructor(private readonly clock: EmulatorClock, private readonly log?: (line: string) => void) {
    this.offClock = clock.onChange(() => this.arm());
  }

  /** Sends `job` to `url` now, retrying as the platform does. */
  send(url: string, job: unknown): void {
    this.pending.push({ url, body: JSON.stringify(job), attempt: 1, dueAtMs: this.clock.now() });
    this.arm();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.offClock();
  }

  private arm(): void {
    clearTimeout(this.timer);
    if (this.closed || this.pending.length === 0) return;
    const due = Math.min(...this.pending.map((d) => d.dueAtMs));
    this.timer = setTimeout(() => this.fire(), Math.min(2_147_483_647, Math.max(0, due - this.clock.now())));
    this.timer.unref();
  }

  private fire(): void {
    const now = this.clock.now();
    const due = this.pending.filter((d) => d.dueAtMs <= now);
    this.pending = this.pending.filter((d) => d.dueAtMs > now);
    for (const d of due) {
      void post(d.url, d.body).then((ok) => {
        this.log?.(`webhook ${d.url} attempt ${d.attempt}: ${ok ? 'delivered' : 'failed'}`);
        if (!ok && d.attempt < WEBHOOK_ATTEMPTS && !this.closed) {
          this.pending.push({ ...d, attempt: d.attempt + 1, dueAtMs: this.clock.now() + WEBHOOK_RETRY_DELAY_MS });
          this.arm();
        }
      });
    }
    this.arm();
  }
}

/** One POST; true on a 2xx answer. */
function post(url: string, body: string): Promise<boolean> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const send = u.protocol === 'https:' ? https.request : http.request;
    const req = send(u, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300));
      res.on('error', () => resolve(false));
    });
    req.setTimeout(ATTEMPT_TIMEOUT_MS, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(false));
    req.end(body);
  });
}
