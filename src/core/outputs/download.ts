// Downloads one output URL to a file, as a stranger would: plain fetch with no Authorization header, no
// cookies, nothing of the user's (the API key is only ever sent to the configured service). Redirects are
// followed by hand so every hop obeys the same rule as the output URL itself (https, or http on loopback).
// The size cap is enforced while streaming, so a huge or endless body never fills the disk or memory. What
// the file is comes from its first bytes, not from the server's Content-Type or the URL: a body that is not an
// accepted image, video or sound (an HTML error page, an SVG) is deleted and refused.
import { open, rename, rm } from 'node:fs/promises';
import { describeUnknownBytes, type MediaFormat, SNIFF_BYTES, sniffMediaFormat } from './mediaFormat';
import { isAcceptedMediaUrl } from './mediaUrl';

export interface DownloadOptions {
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface Downloaded {
  /** The final path: `pathWithoutExtension` plus the extension of the format its bytes are. */
  path: string;
  bytes: number;
  format: MediaFormat;
  contentType?: string;
}

/** Why a download failed, in words for the user (it goes into job.json and the UI). */
export class DownloadFailed extends Error {}

const MAX_REDIRECTS = 5;

export async function downloadToFile(url: string, pathWithoutExtension: string, options: DownloadOptions): Promise<Downloaded> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const explain = (e: unknown): DownloadFailed => {
    if (e instanceof DownloadFailed) return e;
    if (options.signal?.aborted) return new DownloadFailed('cancelled before the download finished.');
    if (timeout.aborted) return new DownloadFailed(`no complete answer within ${Math.round(options.timeoutMs / 1000)} s.`);
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return new DownloadFailed(`could not download: ${cause?.code ?? cause?.message ?? (e as Error).message}.`);
  };

  let response!: Response;
  let current = new URL(url);
  try {
    for (let hop = 0; ; hop++) {
      if (!isAcceptedMediaUrl(current)) {
        throw new DownloadFailed(`${hop > 0 ? 'redirected to' : 'refused'} ${current.protocol}//${current.host}: only https (or http on this computer) is downloaded.`);
      }
      response = await fetch(current, { redirect: 'manual', credentials: 'omit', signal });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw new DownloadFailed(`more than ${MAX_REDIRECTS} redirects.`);
        current = new URL(location, current);
        continue;
      }
      break;
    }
  } catch (e) {
    throw explain(e);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new DownloadFailed(`the server answered ${response.status}${response.status === 403 || response.status === 404 ? ' (output links expire after 7 days, SPEC 8.7)' : ''}.`);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new DownloadFailed(`the file is ${declared} bytes, over the limit of ${options.maxBytes} bytes.`);
  }
  const contentType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() || undefined;
  const partial = `${pathWithoutExtension}.part`;
  const file = await open(partial, 'w');
  let bytes = 0;
  let head = new Uint8Array(0);
  let path: string;
  let format: MediaFormat | undefined;
  try {
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.byteLength;
        if (bytes > options.maxBytes) throw new DownloadFailed(`the file is larger than the limit of ${options.maxBytes} bytes.`);
        if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
        await file.write(chunk);
      }
    }
    await file.close();
    format = sniffMediaFormat(head);
    if (!format) throw new DownloadFailed(`the file is ${describeUnknownBytes(head)}, so it was not kept.`);
    path = `${pathWithoutExtension}.${format.ext}`;
    await rename(partial, path);
  } catch (e) {
    await file.close().catch(() => undefined);
    await rm(partial, { force: true });
    // Leaving the loop early cancels the body; an exceeded cap is ours, anything else is explained.
    throw explain(e);
  }
  return { path, bytes, format, ...(contentType ? { contentType } : {}) };
}
