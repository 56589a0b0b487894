// Which output URLs may be shown or downloaded: https to any host, plain http only to this computer (so the
// emulator works), never another scheme, and never a URL that carries the user's API key (a worker that echoes
// it into a link would have us hand the key to whatever host the link names).
import { abbreviate } from './embedded';
import type { MediaKind } from './mediaFormat';
import { isLoopbackHost } from '../http/url';

export { isLoopbackHost };

/** Whether `url` may be shown or downloaded: the same rule as for output URLs. */
export function isAcceptedMediaUrl(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

/** The checked URL, or the reason it is refused. */
export function checkMediaUrl(value: string, secrets: readonly string[]): URL | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${abbreviate(value)}" is not a URL.`;
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return `plain http is only accepted from this computer (the emulator); ${url.host} must use https.`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `${url.protocol} links are not opened or downloaded: only https URLs are accepted (http only on this computer).`;
  }
  // Checked on the text as given and as parsed: percent-encoding must not smuggle the key past the check.
  const decoded = safeDecode(value);
  if (secrets.some((s) => s.length >= 8 && (value.includes(s) || decoded.includes(s)))) {
    return `the link to ${url.host} holds your API key, so it is not opened or downloaded (that would hand the key to ${url.host}).`;
  }
  return url;
}

const VIDEO_EXTENSIONS = new Set(['mp4', 'webm', 'mov', 'mkv', 'avi', 'm4v']);
const AUDIO_EXTENSIONS = new Set(['mp3', 'wav', 'ogg', 'flac', 'm4a', 'aac', 'opus']);
const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'webp', 'gif', 'avif']);

/** The kind a URL's path names by its extension, if it names one (the download's own bytes decide in the end). */
export function kindFromPath(pathname: string): MediaKind | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(pathname)?.[1]?.toLowerCase() ?? '';
  if (VIDEO_EXTENSIONS.has(ext)) return 'video';
  if (AUDIO_EXTENSIONS.has(ext)) return 'audio';
  if (IMAGE_EXTENSIONS.has(ext)) return 'image';
  return undefined;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
