// What a file is, read from its first bytes (its "magic"), never from a name, a key or a Content-Type that a
// worker chose: only these formats are saved, shown or played. Markup (SVG, HTML, XML) is named so that the
// refusal can say why: an SVG can carry script, and a webview must never be handed one as an "image".
export type MediaKind = 'image' | 'video' | 'audio';

export interface MediaFormat {
  kind: MediaKind;
  /** The extension a saved file gets: always this one, whatever the worker called the file. */
  ext: 'png' | 'jpg' | 'webp' | 'gif' | 'mp4' | 'webm' | 'wav' | 'mp3' | 'ogg' | 'flac';
  mime: string;
  /** In words for the user ("a JPEG image"). */
  label: string;
}

/** Bytes enough to tell every format below apart (a WebM's DocType sits within its first ~40 bytes). */
export const SNIFF_BYTES = 64;

const FORMATS = {
  png: { kind: 'image', ext: 'png', mime: 'image/png', label: 'a PNG image' },
  jpg: { kind: 'image', ext: 'jpg', mime: 'image/jpeg', label: 'a JPEG image' },
  webp: { kind: 'image', ext: 'webp', mime: 'image/webp', label: 'a WebP image' },
  gif: { kind: 'image', ext: 'gif', mime: 'image/gif', label: 'a GIF image' },
  mp4: { kind: 'video', ext: 'mp4', mime: 'video/mp4', label: 'an MP4 video' },
  webm: { kind: 'video', ext: 'webm', mime: 'video/webm', label: 'a WebM video' },
  wav: { kind: 'audio', ext: 'wav', mime: 'audio/wav', label: 'WAV audio' },
  mp3: { kind: 'audio', ext: 'mp3', mime: 'audio/mpeg', label: 'MP3 audio' },
  ogg: { kind: 'audio', ext: 'ogg', mime: 'audio/ogg', label: 'Ogg (Opus/Vorbis) audio' },
  flac: { kind: 'audio', ext: 'flac', mime: 'audio/flac', label: 'FLAC audio' },
} as const satisfies Record<string, MediaFormat>;

/** Every format accepted, by extension (for the docs and the tests). */
export const MEDIA_FORMATS: readonly MediaFormat[] = Object.values(FORMATS);

function ascii(bytes: Uint8Array, at: number, text: string): boolean {
  if (bytes.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);
}

/** The format of a file from its first bytes (SNIFF_BYTES are enough), or undefined when it is none of ours. */
export function sniffMediaFormat(bytes: Uint8Array): MediaFormat | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return FORMATS.png;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return FORMATS.jpg;
  if (ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) return FORMATS.gif;
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return FORMATS.webp;
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WAVE')) return FORMATS.wav;
  // ISO base media (ISO/IEC 14496-12): a box size, then "ftyp" and the major brand.
  if (ascii(bytes, 4, 'ftyp')) return FORMATS.mp4;
  // EBML header (RFC 8794) whose DocType is "webm"; a Matroska file of any other DocType is not accepted.
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return containsAscii(bytes, 'webm') ? FORMATS.webm : undefined;
  if (ascii(bytes, 0, 'OggS')) return FORMATS.ogg;
  if (ascii(bytes, 0, 'fLaC')) return FORMATS.flac;
  if (ascii(bytes, 0, 'ID3')) return FORMATS.mp3;
  // A bare MPEG audio frame: 11 sync bits, a version other than "reserved" (01) and a layer other than 0
  // (layer 0 is AAC's ADTS, which is not MP3).
  if (bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0 && (bytes[1]! & 0x18) !== 0x08 && (bytes[1]! & 0x06) !== 0) return FORMATS.mp3;
  return undefined;
}

function containsAscii(bytes: Uint8Array, text: string): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES) - text.length;
  for (let i = 0; i <= end; i++) if (ascii(bytes, i, text)) return true;
  return false;
}

/**
 * Why bytes that are not a known format were refused, in words: markup is named (it is what an attacker would
 * send as an "image"), anything else is described by its first bytes.
 */
export function describeUnknownBytes(bytes: Uint8Array): string {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, SNIFF_BYTES)).replace(/^\uFEFF/, '').trimStart().toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return 'an SVG image, which is not accepted (it can carry script)';
  if (head.startsWith('<')) return 'markup (HTML or XML), which is not accepted';
  const hex = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ');
  return `none of the accepted formats (it starts with ${hex || 'nothing'})`;
}

/** Width and height of a PNG (IHDR, which must come first: PNG spec 5.6) or a GIF (its logical screen). */
export function imageSize(bytes: Uint8Array, format: MediaFormat): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format.ext === 'png' && bytes.length >= 24 && ascii(bytes, 12, 'IHDR')) {
    const width = view.getUint32(16);
    const height = view.getUint32(20);
    return width > 0 && height > 0 && width <= 0x7fffffff && height <= 0x7fffffff ? { width, height } : undefined;
  }
  if (format.ext === 'gif' && bytes.length >= 10) {
    const width = view.getUint16(6, true);
    const height = view.getUint16(8, true);
    return width > 0 && height > 0 ? { width, height } : undefined;
  }
  return undefined;
}
