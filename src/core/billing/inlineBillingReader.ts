// Reading a billing body on the caller's own thread: tests, scripts, and a fallback for a missing worker file.
// Not in the extension's bundle (the extension reads billing in its worker, billingReader.ts). No `vscode`.
import type { BillingReader } from './billingReader';
import { readBillingBody } from './readBillingBody';

/** Reads on the calling thread. */
export const inlineBillingReader: BillingReader = {
  open(meta) {
    const chunks: Uint8Array[] = [];
    return {
      write: (chunk) => void chunks.push(chunk),
      finish: async () => readBillingBody(Buffer.concat(chunks), meta),
      abort: () => void (chunks.length = 0),
    };
  },
};

