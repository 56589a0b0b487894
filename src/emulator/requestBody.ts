// Reading a request body with a size cap (issue 3: a body over 10 MiB is 413). A declared Content-Length over
// the cap is refused before reading; a chunked body is refused as soon as it crosses the cap, and the
// connection is closed afterwards so the rest of an oversized upload is not read.
import type { IncomingMessage } from 'node:http';
import { HttpProblem } from './respond';

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

function tooLarge(): HttpProblem {
  return new HttpProblem(413, `The request body is larger than ${MAX_BODY_BYTES} bytes (10 MiB).`, undefined, { Connection: 'close' });
}

export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    const onData = (b: Buffer): void => {
      size += b.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        reject(tooLarge());
        return;
      }
      parts.push(b);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}
