// One path segment made from a name the service or a worker chose (endpoint id, job id): it cannot climb out
// of its folder ("..", "/", "\"), cannot hold characters Windows or macOS refuse (":", "*", NUL...), and is
// not a reserved Windows device name. A name that had to change gets a short hash of the original, so two
// different ids never share a folder.
import { createHash } from 'node:crypto';

const RESERVED_WINDOWS = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
const MAX_LENGTH = 80;

export function safeFileName(name: string): string {
  let safe = name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[.\s]+/, '') // no "..", no hidden files
    .replace(/[.\s]+$/, ''); // Windows drops trailing dots and spaces
  if (RESERVED_WINDOWS.test(safe)) safe = `_${safe}`;
  if (safe.length > MAX_LENGTH) safe = safe.slice(0, MAX_LENGTH);
  if (safe === name && safe.length > 0) return safe;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return safe.length > 0 ? `${safe}-${hash}` : `_${hash}`;
}
