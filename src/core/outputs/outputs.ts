// Job outputs (SPEC 2.8) turned into typed parts the editor can show and save. The output is whatever a
// worker returned, so it is treated as hostile: a data URI must really be a PNG under a size cap, a URL must
// be https (http only for this computer, so the emulator works), and anything else is rejected with a
// reason a user can read, never rendered or fetched.
//
// Shapes met in practice:
// - dedicated image endpoint, as specified: [{image_url: "data:image/png;base64,...", seed}]
// - dedicated image endpoint, as also seen: {image_url | images: [...], seed}
// - public endpoint: {image_url | video_url | audio_url: "https://...", cost}
// - a language model's answer (vLLM / OpenAI-shaped `choices`): its text (./llmText.ts)
// - anything else a custom worker returns: kept as JSON.

import { llmText } from './llmText';

export type MediaKind = 'image' | 'video' | 'audio';

export interface PngPart {
  kind: 'png';
  /** Where in the output it came from, e.g. "output[0].image_url". */
  field: string;
  /**
   * The image as checked base64 (no whitespace), decoded only when it is written (pngBytes): decoding every
   * image of a job up front held them all at once beside the job's own text (issue 11).
   */
  base64: string;
  /** The decoded size in bytes. */
  byteLength: number;
  width: number;
  height: number;
  seed?: number;
}
export interface UrlPart {
  kind: MediaKind;
  field: string;
  /** An https URL, or http on a loopback host. */
  url: string;
  seed?: number;
}
export interface JsonPart {
  kind: 'json';
  field: string;
  value: unknown;
}
export interface RejectedPart {
  kind: 'rejected';
  field: string;
  /** Why it was not accepted, in words for the user. */
  reason: string;
}
/** A language model's answer as text (./llmText.ts): shown as words and saved as output.txt. */
export interface TextPart {
  kind: 'text';
  field: string;
  text: string;
}
export type OutputPart = PngPart | UrlPart | JsonPart | TextPart | RejectedPart;

export interface ParseOutputsOptions {
  /** Largest decoded PNG accepted from a data URI, in bytes. Default 50 MiB. */
  maxImageBytes?: number;
}
export const DEFAULT_MAX_IMAGE_BYTES = 50 * 1024 * 1024;

// Maps, not object literals: a worker's keys such as "constructor" or "__proto__" must not find inherited members.
const MEDIA_FIELDS = new Map<string, MediaKind>([['image_url', 'image'], ['video_url', 'video'], ['audio_url', 'audio']]);
/** Fields that describe the output rather than being one: not repeated as JSON. */
const META_FIELDS = new Set(['seed', 'cost']);

/** Every part of a job's `output`, in the order they appear. An absent output gives no parts. */
export function parseOutputs(output: unknown, options: ParseOutputsOptions = {}): OutputPart[] {
  const maxBytes = options.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  const parts: OutputPart[] = [];
  if (output === undefined || output === null) return parts;
  const text = llmText(output);
  if (text !== undefined) return [{ kind: 'text', field: 'output', text }];
  if (Array.isArray(output)) {
    output.forEach((item, i) => parseItem(item, `output[${i}]`, maxBytes, parts));
  } else {
    parseItem(output, 'output', maxBytes, parts);
  }
  return parts;
}

/** The `cost` of a public endpoint's job (SPEC 2.8), in USD, where the output carries one. */
export function outputCost(output: unknown): number | undefined {
  if (!isPlainObject(output)) return undefined;
  const cost = output['cost'];
  return typeof cost === 'number' && Number.isFinite(cost) ? cost : undefined;
}

function parseItem(item: unknown, field: string, maxBytes: number, parts: OutputPart[]): void {
  if (typeof item === 'string') {
    // A bare string is only treated as media when it plainly is a link or a data URI; otherwise it is text.
    if (/^(data|https?):/i.test(item)) parts.push(classifyMedia(item, field, undefined, undefined, maxBytes));
    else parts.push({ kind: 'json', field, value: item });
    return;
  }
  if (!isPlainObject(item)) {
    parts.push({ kind: 'json', field, value: item });
    return;
  }
  const seedValue = item['seed'];
  const seed = typeof seedValue === 'number' && Number.isSafeInteger(seedValue) ? seedValue : undefined;
  const rest: Array<[string, unknown]> = [];
  let media = 0;
  for (const [key, value] of Object.entries(item)) {
    const kind = MEDIA_FIELDS.get(key);
    if (kind !== undefined) {
      media++;
      parts.push(typeof value === 'string'
        ? classifyMedia(value, `${field}.${key}`, kind, seed, maxBytes)
        : { kind: 'rejected', field: `${field}.${key}`, reason: `${key} should be a URL, not ${describe(value)}.` });
    } else if (key === 'images' && Array.isArray(value)) {
      media++;
      value.forEach((image, i) => {
        const f = `${field}.images[${i}]`;
        if (typeof image === 'string') parts.push(classifyMedia(image, f, 'image', seed, maxBytes));
        else if (isPlainObject(image)) parseItem(image, f, maxBytes, parts);
        else parts.push({ kind: 'rejected', field: f, reason: `an image should be a URL, not ${describe(image)}.` });
      });
    } else if (!META_FIELDS.has(key)) {
      rest.push([key, value]);
    }
  }
  if (media === 0) parts.push({ kind: 'json', field, value: item });
  // fromEntries defines own properties, so a "__proto__" key stays data instead of becoming a prototype.
  else if (rest.length > 0) parts.push({ kind: 'json', field, value: Object.fromEntries(rest) });
}

function classifyMedia(value: string, field: string, kind: MediaKind | undefined, seed: number | undefined, maxBytes: number): OutputPart {
  const reject = (reason: string): RejectedPart => ({ kind: 'rejected', field, reason });
  if (/^data:/i.test(value)) {
    if (kind !== undefined && kind !== 'image') return reject(`a ${kind} must be an https URL; embedded data is only accepted for PNG images.`);
    const png = decodePngDataUri(value, maxBytes);
    if (typeof png === 'string') return reject(png);
    return { kind: 'png', field, ...png, ...(seed !== undefined ? { seed } : {}) };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return reject(`"${abbreviate(value)}" is not a URL.`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return reject(`plain http is only accepted from this computer (the emulator); ${url.host} must use https.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return reject(`${url.protocol} links are not opened or downloaded: only https URLs are accepted (http only on this computer).`);
  }
  const k = kind ?? guessKind(url.pathname);
  return { kind: k, field, url: url.href, ...(seed !== undefined ? { seed } : {}) };
}

/** A PNG part's bytes, decoded now: callers write them and let them go before decoding the next image. */
export function pngBytes(part: PngPart): Buffer {
  return Buffer.from(part.base64, 'base64');
}

/** The checked PNG of a data URI (its size read from the header alone), or the reason it is refused. */
function decodePngDataUri(value: string, maxBytes: number): { base64: string; byteLength: number; width: number; height: number } | string {
  const comma = value.indexOf(',');
  if (comma < 0) return 'a data URI without a comma is malformed.';
  const params = value.slice(5, comma).toLowerCase().split(';').map((p) => p.trim());
  const mediaType = params[0] || 'text/plain';
  if (mediaType !== 'image/png') return `embedded data of type ${abbreviate(mediaType)} is not accepted; only base64 PNG images are.`;
  if (!params.includes('base64')) return 'an embedded PNG must be base64-encoded.';
  // Whitespace is tolerated (line-wrapped base64); anything else outside the alphabet is an error, where
  // Buffer.from would silently skip it.
  let payload = value.slice(comma + 1);
  if (/\s/.test(payload)) payload = payload.replace(/\s+/g, '');
  const estimated = Math.floor((payload.length * 3) / 4);
  if (estimated > maxBytes + 2) {
    return `the embedded PNG is about ${formatBytes(estimated)}, over the limit of ${formatBytes(maxBytes)}.`;
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload) || payload.length % 4 === 1) return 'the embedded PNG is not valid base64.';
  // What Buffer.from(payload, 'base64') would give, without decoding it: 3 bytes per 4 characters, less the padding.
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  const byteLength = Math.floor(((payload.length - padding) * 3) / 4);
  if (byteLength > maxBytes) return `the embedded PNG is ${formatBytes(byteLength)}, over the limit of ${formatBytes(maxBytes)}.`;
  // The signature and the image header are in the first 33 bytes: 44 characters of base64.
  const size = readPngSize(Buffer.from(payload.slice(0, PNG_HEADER_BASE64_CHARS), 'base64'));
  if (typeof size === 'string') return size;
  return { base64: payload, byteLength, ...size };
}

const PNG_HEADER_BASE64_CHARS = 44;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from the IHDR chunk, which must come first (PNG spec, 5.6). */
export function readPngSize(bytes: Uint8Array): { width: number; height: number } | string {
  if (bytes.length < 33 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return 'the embedded data claims to be a PNG but is not one.';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ihdr = String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
  if (view.getUint32(8) !== 13 || ihdr !== 'IHDR') return 'the embedded PNG is damaged (no image header).';
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) return 'the embedded PNG has an impossible size.';
  return { width, height };
}

/** http is allowed only to this computer: 127.0.0.0/8, localhost, [::1] (URL.hostname keeps the brackets). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Whether `url` may be shown or downloaded: the same rule as for output URLs. */
export function isAcceptedMediaUrl(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

function guessKind(pathname: string): MediaKind {
  const ext = /\.([a-z0-9]+)$/i.exec(pathname)?.[1]?.toLowerCase() ?? '';
  if (['mp4', 'webm', 'mov', 'mkv', 'avi', 'm4v'].includes(ext)) return 'video';
  if (['mp3', 'wav', 'ogg', 'flac', 'm4a', 'aac', 'opus'].includes(ext)) return 'audio';
  return 'image';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function abbreviate(s: string, max = 60): string {
  return s.length <= max ? s : `${s.slice(0, max)}…`;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
