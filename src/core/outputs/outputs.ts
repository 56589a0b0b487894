// Job outputs (SPEC 2.8) turned into typed parts the editor can show and save. The output is whatever a
// worker returned, so it is treated as hostile: embedded media must be an accepted format by its own magic
// bytes and under a size cap (./embedded.ts), a URL must be https without the API key in it (http only for this
// computer, so the emulator works: ./mediaUrl.ts), and anything else is rejected with a reason a user can read,
// never rendered or fetched. The shapes real workers return (docs/emulator.md has the table):
// - dedicated image endpoint, as specified: [{image_url: "data:image/png;base64,...", seed}], or {image_url | images, seed}
// - public endpoint: {image_url | video_url | audio_url: "https://...", cost}
// - ComfyUI worker: {images | videos: [{filename, type: "base64" | "s3_url", data}]}: saved under the worker's filename
// - Automatic1111 worker: {images: ["<bare base64>"], parameters, info}
// - hand-written handlers: bare base64 as the whole output, {image | image_base64 | data_url | audio | audio_base64 | video ...}
// - speech-to-text (faster-whisper): {transcription, segments, detected_language} (./transcript.ts)
// - a language model's answer (vLLM / OpenAI-shaped `choices`): its text (./llmText.ts)
// - anything else: kept as JSON. Media is looked for anywhere in the output, to a depth of MAX_DEPTH.
import { abbreviate, checkBareBase64, checkDataUri, NOT_MEDIA, type CheckedEmbedded } from './embedded';
import { llmText } from './llmText';
import type { MediaFormat, MediaKind } from './mediaFormat';
import { checkMediaUrl, kindFromPath } from './mediaUrl';
import { readTranscript, type TranscriptSegment } from './transcript';

export type { MediaKind } from './mediaFormat';
export { isAcceptedMediaUrl, isLoopbackHost } from './mediaUrl';
export { outputCost } from './outputCost';

/** Media carried in the output itself (data URI or bare base64), checked but not yet decoded. */
export interface EmbeddedPart extends CheckedEmbedded {
  kind: 'embedded';
  /** Where in the output it came from, e.g. "output.images[0].data". */
  field: string;
  seed?: number;
  /** The name the worker gave the file (ComfyUI's `filename`), unchecked: saveJobOutputs makes it safe. */
  fileName?: string;
}
export interface UrlPart {
  kind: MediaKind;
  field: string;
  /** An https URL, or http on a loopback host. */
  url: string;
  seed?: number;
  fileName?: string;
}
export interface JsonPart { kind: 'json'; field: string; value: unknown }
export interface RejectedPart {
  kind: 'rejected';
  field: string;
  /** Why it was not accepted, in words for the user. */
  reason: string;
}
/** A language model's answer as text (./llmText.ts): shown as words and saved as output.txt. */
export interface TextPart { kind: 'text'; field: string; text: string }
/** A speech-to-text answer: its words and timed segments, saved as transcript.txt. */
export interface TranscriptPart { kind: 'transcript'; field: string; text: string; segments: TranscriptSegment[]; language?: string }
export type OutputPart = EmbeddedPart | UrlPart | JsonPart | TextPart | TranscriptPart | RejectedPart;

export interface ParseOutputsOptions {
  /** Largest decoded embedded file accepted, in bytes. Default 50 MiB. */
  maxImageBytes?: number;
  /** Strings a URL must not contain (the API key): such a link is never opened. */
  secrets?: readonly string[];
}
export const DEFAULT_MAX_IMAGE_BYTES = 50 * 1024 * 1024;
/** How deep into the output media is looked for; deeper values stay in the JSON. */
export const MAX_DEPTH = 8;
/** How many media files one job may give; the rest is refused with a reason (and kept in job.json). */
export const MAX_MEDIA = 64;

// Maps and Sets, not object literals: a worker's keys such as "constructor" or "__proto__" must not find inherited members.
/** Keys whose string value is said to be media of a kind: bytes of another kind are then refused. */
const KIND_OF_KEY = new Map<string, MediaKind>([
  ...['image', 'images', 'image_url', 'image_urls', 'image_base64', 'images_base64', 'b64_json', 'png', 'jpg', 'jpeg', 'webp', 'gif'].map((k) => [k, 'image'] as const),
  ...['video', 'videos', 'video_url', 'video_urls', 'video_base64', 'mp4', 'webm'].map((k) => [k, 'video'] as const),
  ...['audio', 'audios', 'audio_url', 'audio_urls', 'audio_base64', 'wav', 'mp3', 'ogg', 'flac'].map((k) => [k, 'audio'] as const),
]);
/**
 * Keys that say "media" without saying which kind. Not `url` or `file`: those name documents, models and pages
 * as often; a link there counts when its path names a media file, base64 there when its bytes are media.
 */
const ANY_MEDIA_KEYS = new Set(['data_url', 'data_uri', 'base64', 'b64']);
/** Keys whose value must be a URL (or a data URI): anything else there is refused rather than kept as JSON. */
const URL_KEYS = new Set(['image_url', 'video_url', 'audio_url']);
/** Fields that describe the output rather than being one: not repeated as JSON beside the media. */
const META_FIELDS = new Set(['seed', 'cost']);
/** A ComfyUI worker's file entry: {filename, type: "base64" | "s3_url", data} (runpod-workers/worker-comfyui, handler.py). */
const COMFY_TYPES = new Set(['base64', 's3_url']);
const COMFY_KEYS = new Set(['filename', 'type', 'data', 'subfolder']);

interface Hint { kind?: MediaKind; claimed: boolean; urlOnly: boolean }
const NO_HINT: Hint = { claimed: false, urlOnly: false };
const CONSUMED = Symbol('consumed');
type Rest = unknown | typeof CONSUMED;

interface Walk { maxBytes: number; secrets: readonly string[]; parts: OutputPart[]; media: number }

/** Every part of a job's `output`, in the order they appear. An absent output gives no parts. */
export function parseOutputs(output: unknown, options: ParseOutputsOptions = {}): OutputPart[] {
  const walk: Walk = { maxBytes: options.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES, secrets: options.secrets ?? [], parts: [], media: 0 };
  if (output === undefined || output === null) return walk.parts;
  const text = llmText(output);
  if (text !== undefined) return [{ kind: 'text', field: 'output', text }];
  const items: Array<[unknown, string]> = Array.isArray(output) ? output.map((item, i) => [item, `output[${i}]`]) : [[output, 'output']];
  for (const [item, field] of items) {
    // A bare link or data URI as an item is media; any other top-level string is sniffed and otherwise text.
    const hint = typeof item === 'string' && /^(data|https?):/i.test(item) ? { claimed: true, urlOnly: true } : NO_HINT;
    const before = walk.parts.length;
    const rest = visit(item, field, hint, undefined, 0, walk);
    if (rest === CONSUMED) continue;
    if (walk.parts.length === before) walk.parts.push({ kind: 'json', field, value: item });
    else if (!isEmptyRest(rest)) walk.parts.push({ kind: 'json', field, value: rest });
  }
  return walk.parts;
}

/** An embedded part's bytes, decoded now: callers write them and let them go before decoding the next file. */
export function embeddedBytes(part: EmbeddedPart): Buffer {
  return Buffer.from(part.base64, 'base64');
}

/** Media found in `value` is pushed as parts; what remains (for the JSON beside them) is returned. */
function visit(value: unknown, field: string, hint: Hint, seed: number | undefined, depth: number, walk: Walk): Rest {
  if (depth > MAX_DEPTH) return value;
  if (typeof value === 'string') return visitString(value, field, hint, seed, undefined, walk);
  if (Array.isArray(value)) return visitArray(value, field, hint, () => seed, depth, walk);
  if (hint.urlOnly) return reject(walk, field, `${lastKey(field)} should be a URL, not ${describe(value)}.`);
  if (!isPlainObject(value)) return value;
  const ownSeed = value['seed'];
  const seedHere = typeof ownSeed === 'number' && Number.isSafeInteger(ownSeed) ? ownSeed : seed;
  const comfy = comfyEntry(value);
  if (comfy) {
    const claimed: Hint = { ...(hint.kind ? { kind: hint.kind } : {}), claimed: true, urlOnly: comfy.type === 's3_url' };
    visitString(comfy.data, `${field}.data`, claimed, seedHere, comfy.filename, walk);
    const rest = Object.entries(value).filter(([k]) => !COMFY_KEYS.has(k));
    return rest.length === 0 ? CONSUMED : Object.fromEntries(rest);
  }
  const consumed = new Set<string>();
  const transcript = readTranscript(value);
  if (transcript) {
    walk.parts.push({ kind: 'transcript', field, text: transcript.text, segments: transcript.segments, ...(transcript.language ? { language: transcript.language } : {}) });
    for (const k of transcript.consumed) consumed.add(k);
  }
  const seeds = a1111Seeds(value);
  const before = walk.parts.length;
  const rest: Array<[string, unknown]> = [];
  for (const [key, v] of Object.entries(value)) {
    if (consumed.has(key)) continue;
    const lower = key.toLowerCase();
    const kind = KIND_OF_KEY.get(lower);
    const keyHint: Hint = kind || ANY_MEDIA_KEYS.has(lower) ? { ...(kind ? { kind } : {}), claimed: true, urlOnly: URL_KEYS.has(lower) } : NO_HINT;
    const r = key === 'images' && seeds && Array.isArray(v)
      ? visitArray(v, `${field}.${key}`, keyHint, (i) => seeds[i], depth + 1, walk)
      : visit(v, `${field}.${key}`, keyHint, seedHere, depth + 1, walk);
    if (r !== CONSUMED) rest.push([key, r]);
  }
  const found = walk.parts.length > before || transcript !== undefined;
  // fromEntries defines own properties, so a "__proto__" key stays data instead of becoming a prototype.
  const kept = found ? rest.filter(([k]) => !META_FIELDS.has(k)) : rest;
  if (found && kept.length === 0) return CONSUMED;
  return Object.fromEntries(kept);
}

function visitArray(value: unknown[], field: string, hint: Hint, seedAt: (i: number) => number | undefined, depth: number, walk: Walk): Rest {
  const kept = value.map((v, i) => visit(v, `${field}[${i}]`, hint, seedAt(i), depth + 1, walk)).filter((v) => v !== CONSUMED);
  return kept.length === 0 && value.length > 0 ? CONSUMED : kept;
}

/**
 * An Automatic1111 answer's seed per image: its `info` is a JSON string whose `all_seeds` lists them. Only
 * when there is exactly one per image (with a grid image first they would not line up, so none is claimed).
 */
function a1111Seeds(value: Record<string, unknown>): number[] | undefined {
  const { info, images } = value;
  if (typeof info !== 'string' || info.length > 1_000_000 || !Array.isArray(images)) return undefined;
  try {
    const seeds = (JSON.parse(info) as { all_seeds?: unknown } | null)?.all_seeds;
    return Array.isArray(seeds) && seeds.length === images.length && seeds.every((s) => Number.isSafeInteger(s)) ? (seeds as number[]) : undefined;
  } catch {
    return undefined;
  }
}

function visitString(value: string, field: string, hint: Hint, seed: number | undefined, fileName: string | undefined, walk: Walk): Rest {
  const extra = { ...(seed !== undefined ? { seed } : {}), ...(fileName !== undefined ? { fileName } : {}) };
  if (/^data:/i.test(value)) {
    const checked = checkDataUri(value, walk.maxBytes);
    if (typeof checked === 'string') return reject(walk, field, checked);
    return addMedia(walk, field, () => ({ kind: 'embedded', field, ...checked, ...extra }));
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) {
    // A link outside a media key is media only when its path names a media file ("…/out.png"); under a media
    // key any scheme is checked, so a javascript: or file: link is refused with a reason rather than kept.
    if (!hint.claimed && !(/^https?:/i.test(value) && urlNamesMedia(value))) return value;
    const url = checkMediaUrl(value, walk.secrets);
    if (typeof url === 'string') return reject(walk, field, url);
    const kind = hint.kind ?? kindFromPath(url.pathname) ?? 'image';
    return addMedia(walk, field, () => ({ kind, field, url: url.href, ...extra }));
  }
  // Bare base64: media only if its own bytes say so; under a media key, refused when they do not.
  const checked = checkBareBase64(value, walk.maxBytes, hint.claimed);
  if (checked === NOT_MEDIA || typeof checked === 'string') {
    if (hint.urlOnly) return reject(walk, field, `"${abbreviate(value)}" is not a URL.`);
    return checked === NOT_MEDIA ? value : reject(walk, field, checked);
  }
  return addMedia(walk, field, () => ({ kind: 'embedded', field, ...checked, ...extra }));
}

function addMedia(walk: Walk, field: string, part: () => OutputPart): typeof CONSUMED {
  if (++walk.media > MAX_MEDIA) return reject(walk, field, `more than ${MAX_MEDIA} media files in one output: this one is kept in job.json only.`);
  walk.parts.push(part());
  return CONSUMED;
}

function reject(walk: Walk, field: string, reason: string): typeof CONSUMED {
  walk.parts.push({ kind: 'rejected', field, reason });
  return CONSUMED;
}

function comfyEntry(value: Record<string, unknown>): { data: string; type: string; filename?: string } | undefined {
  const { data, type, filename } = value;
  if (typeof data !== 'string' || typeof type !== 'string' || !COMFY_TYPES.has(type)) return undefined;
  return { data, type, ...(typeof filename === 'string' ? { filename } : {}) };
}

/** A link outside a media key is media only when its path names a media file ("…/out.png"). */
function urlNamesMedia(value: string): boolean {
  try {
    return kindFromPath(new URL(value).pathname) !== undefined;
  } catch {
    return false;
  }
}

function isEmptyRest(rest: unknown): boolean {
  return isPlainObject(rest) ? Object.keys(rest).length === 0 : Array.isArray(rest) && rest.length === 0;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function lastKey(field: string): string {
  return /([^.[\]]+)\]?$/.exec(field)?.[1] ?? field;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

export type { MediaFormat };
