// isoUtc (clock.ts) written as ASCII bytes, for the billing body's bucket times (billingRow.ts): a year of
// hourly buckets needs 8,761 of them, and Date#toISOString plus the string pieces around it cost about 1 µs
// each and most of the response's garbage. The date part comes from isoUtc once per UTC day; the time of day
// is digits. The bytes are those of isoUtc(ms) for every instant.
import { isoUtc } from '../clock';

const DAY_MS = 86_400_000;
/** The longest isoUtc text: "+275760-09-13T00:00:00.000Z" (27 characters). */
export const MAX_ISO_BYTES = 27;

export class IsoUtcWriter {
  private day = Number.NaN;
  /** The ASCII of isoUtc(day) up to and including its "T". */
  private prefix = new Uint8Array(0);

  /** Writes isoUtc(ms) at `at` of `out` (MAX_ISO_BYTES of room); returns its length. */
  write(ms: number, out: Uint8Array, at: number): number {
    if (!Number.isSafeInteger(ms)) return writeAscii(isoUtc(ms), out, at);
    const d = Math.floor(ms / DAY_MS) * DAY_MS;
    if (d !== this.day) {
      const s = isoUtc(d);
      this.prefix = Uint8Array.from(s.slice(0, s.indexOf('T') + 1), (c) => c.charCodeAt(0));
      this.day = d;
    }
    out.set(this.prefix, at);
    let o = at + this.prefix.length;
    const inDay = ms - d;
    const milli = inDay % 1000;
    const secs = (inDay - milli) / 1000;
    o = two(Math.floor(secs / 3600), out, o);
    out[o++] = 0x3a; // :
    o = two(Math.floor(secs / 60) % 60, out, o);
    out[o++] = 0x3a;
    o = two(secs % 60, out, o);
    if (milli !== 0) {
      out[o++] = 0x2e; // .
      out[o++] = 0x30 + Math.floor(milli / 100);
      o = two(milli % 100, out, o);
    }
    out[o++] = 0x5a; // Z
    return o - at;
  }
}

function two(n: number, out: Uint8Array, at: number): number {
  out[at] = 0x30 + Math.floor(n / 10);
  out[at + 1] = 0x30 + (n % 10);
  return at + 2;
}

function writeAscii(s: string, out: Uint8Array, at: number): number {
  for (let i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i);
  return s.length;
}
