// Media embedded in a job's output as base64: a data URI ("data:image/jpeg;base64,...") or bare base64 (the
// ComfyUI and Automatic1111 workers, most hand-written handlers). Checked without decoding the whole payload:
// its size from its length, its format from the magic of its first bytes (./mediaFormat.ts). The payload is
// decoded only when it is written, one file at a time (issue 11).
import { describeUnknownBytes, imageSize, type MediaFormat, sniffMediaFormat } from './mediaFormat';

export interface CheckedEmbedded {
  /** The payload as checked base64 (no whitespace). */
  base64: string;
  /** Its decoded size in bytes. */
  byteLength: number;
  format: MediaFormat;
  width?: number;
  height?: number;
}

/** The answer for a string that is plainly not embedded media (ordinary text): left in the JSON. */
export const NOT_MEDIA = Symbol('not media');

/** Characters of base64 that decode to the first SNIFF_BYTES (a multiple of 4). */
const HEAD_CHARS = 88;
/** Bare base64 shorter than this is taken for text: no real image or sound is under ~48 bytes. */
const MIN_BARE_CHARS = 64;
const MIN_CLAIMED_CHARS = 16;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64_URL = /^[A-Za-z0-9_-]*={0,2}$/;

/**
 * A data URI's media, or the reason it is refused. The declared type only has to be a media type: the bytes'
 * own magic decides what the file is, so "data:image/png" holding a JPEG is saved as the JPEG it is, and an
 * SVG or HTML payload is refused whatever it claims.
 */
export function checkDataUri(value: string, maxBytes: number): CheckedEmbedded | string {
  const comma = value.indexOf(',');
  if (comma < 0) return 'a data URI without a comma is malformed.';
  const params = value.slice(5, comma).toLowerCase().split(';').map((p) => p.trim());
  const mediaType = params[0] || 'text/plain';
  if (mediaType.includes('svg')) return 'embedded SVG is not accepted (it can carry script).';
  if (!/^(image|video|audio)\/[a-z0-9.+-]+$/.test(mediaType) && mediaType !== 'application/octet-stream') {
    return `embedded data of type ${abbreviate(mediaType)} is not accepted; only base64 images, video and audio are.`;
  }
  if (!params.includes('base64')) return 'embedded media must be base64-encoded.';
  const checked = checkBase64(value.slice(comma + 1), maxBytes, true);
  return checked === NOT_MEDIA ? 'the embedded data is not valid base64.' : checked;
}

/**
 * Bare base64 as media: NOT_MEDIA when the string is not base64 at all, or decodes to none of the accepted
 * formats and nothing said it should be media; a reason when it is refused. `claimed` is set when the key or
 * the worker's own "type" said the string is media: then bytes of another kind are refused, with why.
 */
export function checkBareBase64(value: string, maxBytes: number, claimed: boolean): CheckedEmbedded | string | typeof NOT_MEDIA {
  // Under a media key a short word ("none", "pending") is a word too: no media file is under 12 bytes.
  if (value.length < (claimed ? MIN_CLAIMED_CHARS : MIN_BARE_CHARS)) return NOT_MEDIA;
  return checkBase64(value, maxBytes, claimed);
}

function checkBase64(raw: string, maxBytes: number, claimed: boolean): CheckedEmbedded | string | typeof NOT_MEDIA {
  // Whitespace is tolerated (line-wrapped base64); anything else outside the alphabet is not base64, where
  // Buffer.from would silently skip it.
  let payload = /\s/.test(raw) ? raw.replace(/\s+/g, '') : raw;
  if (payload.length === 0) return claimed ? 'the embedded data is empty.' : NOT_MEDIA;
  // The head first: a long text that is not base64 is told apart without scanning it whole.
  // Text that is not base64 at all ("cat.png", a sentence) is no attempt at embedded media, even under a media key: it stays JSON.
  if (!BASE64.test(payload.slice(0, HEAD_CHARS)) && !BASE64_URL.test(payload.slice(0, HEAD_CHARS))) return NOT_MEDIA;
  const head = Buffer.from(payload.slice(0, HEAD_CHARS), 'base64');
  const format = sniffMediaFormat(head);
  if (!format) return claimed ? `the embedded data is ${describeUnknownBytes(head)}.` : NOT_MEDIA;
  // A bare MPEG audio frame is told by 11 bits only: one random blob (a token, packed floats) in a few
  // thousand starts like one. Outside a media key, MP3 needs its ID3 tag.
  if (!claimed && format.ext === 'mp3' && head[0] !== 0x49) return NOT_MEDIA;
  const estimated = Math.floor((payload.length * 3) / 4);
  if (estimated > maxBytes + 2) return `the embedded ${format.ext.toUpperCase()} is about ${formatBytes(estimated)}, over the limit of ${formatBytes(maxBytes)}.`;
  if ((!BASE64.test(payload) && !BASE64_URL.test(payload)) || payload.length % 4 === 1) return `the embedded ${format.ext.toUpperCase()} is not valid base64.`;
  // URL-safe base64 (some Python handlers use urlsafe_b64encode) is stored as standard base64.
  if (/[-_]/.test(payload)) payload = payload.replace(/-/g, '+').replace(/_/g, '/');
  // What Buffer.from(payload, 'base64') would give, without decoding it: 3 bytes per 4 characters, less the padding.
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  const byteLength = Math.floor(((payload.length - padding) * 3) / 4);
  if (byteLength > maxBytes) return `the embedded ${format.ext.toUpperCase()} is ${formatBytes(byteLength)}, over the limit of ${formatBytes(maxBytes)}.`;
  if (format.ext === 'png') {
    const size = imageSize(head, format);
    if (!size) return 'the embedded PNG is damaged (no image header).';
    return { base64: payload, byteLength, format, ...size };
  }
  return { base64: payload, byteLength, format, ...imageSize(head, format) };
}

export function abbreviate(s: string, max = 60): string {
  return s.length <= max ? s : `${s.slice(0, max)}…`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
