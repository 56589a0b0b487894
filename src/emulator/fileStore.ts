// Output files of public endpoints, served by the emulator itself under /files/<jobId>/<name> without auth,
// like a public CDN (SPEC 2.8: public outputs are URLs). They expire 7 days after the job finished on the
// emulator clock (SPEC 8 rule 7), then give 404. Bodies are regenerated on each request (they are
// deterministic), so a week of jobs costs a map entry each, not their bytes.
import type { EmulatorClock } from './clock';

export const FILE_TTL_MS = 7 * 24 * 3_600_000;

export interface StoredFile {
  contentType: string;
  expiresAtMs: number;
  body: () => Buffer;
}

export class FileStore {
  private readonly files = new Map<string, StoredFile>();

  constructor(private readonly clock: EmulatorClock) {}

  put(jobId: string, name: string, file: StoredFile): void {
    this.files.set(`${jobId}/${name}`, file);
  }

  get(jobId: string, name: string): StoredFile | undefined {
    const key = `${jobId}/${name}`;
    const f = this.files.get(key);
    if (!f) return undefined;
    if (this.clock.now() >= f.expiresAtMs) {
      this.files.delete(key);
      return undefined;
    }
    return f;
  }

  sweep(): void {
    const now = this.clock.now();
    for (const [k, f] of this.files) if (now >= f.expiresAtMs) this.files.delete(k);
  }
}
