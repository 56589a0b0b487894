// One bucket's records of a billing response as bytes (billingResponse.ts). Most records of a long hourly window
// are all zeros (an endpoint idle that hour), and a record's bytes differ from the one a bucket before only in
// a few digits of its times. So the row keeps the bytes of every endpoint's all-zero record for the current
// bucket, rewrites only the characters of the times that changed since the previous bucket, and copies runs of
// idle endpoints in one piece; an endpoint with usage gets its amounts written after its shared prefix.
import type { ChunkWriter } from './billingChunks';
import type { EndpointBuckets } from './billingStore';
import { IsoUtcWriter, MAX_ISO_BYTES } from './isoUtcBytes';

const START = ',{"startTime":"';
const END = '","endTime":"';
const ZERO_AMOUNTS = ',"totalAmount":0,"gpuAmount":0,"cpuAmount":0,"diskAmount":0,"feeAmount":0}';
const KEYS = [',"totalAmount":', ',"gpuAmount":', ',"cpuAmount":', ',"diskAmount":', ',"feeAmount":'].map((k) => Buffer.from(k, 'latin1'));
/** The longest String(number) of a finite double is 24 characters ("-1.7976931348623157e+308"); with room. */
const MAX_NUMBER_CHARS = 32;
const CLOSE = 0x7d; // }

/** Running sums of the records written, in the order written: total, gpu, cpu, disk, fee. */
export type Totals = Float64Array;

export class BillingRow {
  private bytes = new Uint8Array(0);
  /** Per endpoint: where its record starts (at its leading comma) and where its amounts start. */
  private readonly recordAt: number[] = [];
  private readonly amountsAt: number[] = [];
  /** Per endpoint, views of `bytes` (patched with it): up to its amounts, its record up to its amounts, and
   *  everything from its record on. */
  private views: { upTo: Uint8Array[]; head: Uint8Array[]; from: Uint8Array[] } = { upTo: [], head: [], from: [] };
  private readonly iso = new IsoUtcWriter();
  /** The texts of the row's start and end time, and of the next ones while they are compared. */
  private times = new Uint8Array(2 * MAX_ISO_BYTES);
  private next = new Uint8Array(2 * MAX_ISO_BYTES);
  private startLength = -1;
  private endLength = -1;
  private endMs = Number.NaN;
  /** Per endpoint and amount (5 a record): the last number written and its text. An endpoint's amounts often
   *  repeat (the same price for the same seconds), and a double's shortest decimal costs ~150 ns. */
  private readonly lastNumber: Float64Array;
  private readonly lastText: string[];

  /** `ids` in the order of the records; each becomes its JSON text, as JSON.stringify writes it. */
  constructor(private readonly ids: readonly string[]) {
    this.lastNumber = new Float64Array(ids.length * 5).fill(Number.NaN);
    this.lastText = new Array<string>(ids.length * 5).fill('');
  }

  /** At most this many bytes are written by one `write`. */
  get maxBytes(): number {
    return this.bytes.length + this.ids.length * 5 * MAX_NUMBER_CHARS;
  }

  /** Makes the row that of the bucket [startMs, endMs). */
  setRange(startMs: number, endMs: number): void {
    const next = this.next;
    let startLength: number;
    if (startMs === this.endMs) {
      // Buckets tile the window: this start is the last end, already written.
      startLength = this.endLength;
      for (let i = 0; i < startLength; i++) next[i] = this.times[this.startLength + i]!;
    } else {
      startLength = this.iso.write(startMs, next, 0);
    }
    const endLength = this.iso.write(endMs, next, startLength);
    this.endMs = endMs;
    this.next = this.times;
    this.times = next;
    if (startLength !== this.startLength || endLength !== this.endLength) {
      this.startLength = startLength;
      this.endLength = endLength;
      this.build();
      return;
    }
    // Same lengths, same layout: rewrite the characters that differ, in every record.
    const was = this.next;
    const { bytes, recordAt } = this;
    const gap = END.length;
    for (let i = 0; i < startLength + endLength; i++) {
      const c = next[i]!;
      if (c === was[i]) continue;
      const offset = START.length + i + (i < startLength ? 0 : gap);
      for (let e = 0; e < recordAt.length; e++) bytes[recordAt[e]! + offset] = c;
    }
  }

  /**
   * Writes the records of bucket `k` (every record with its leading comma, but for `first`, the body's first
   * record) and adds their amounts to `totals` in that order.
   */
  write(out: ChunkWriter, endpoints: readonly EndpointBuckets[], k: number, totals: Totals, first: boolean): void {
    const views = this.views;
    let from = 0; // the first endpoint whose record is not written yet
    for (let e = 0; e < endpoints.length; e++) {
      const ep = endpoints[e]!;
      const gpu = ep.gpu[k]!, cpu = ep.cpu[k]!, disk = ep.disk[k]!, fee = ep.fee[k]!;
      // All zero: the prepared bytes already say 0 (String(-0) is "0" too), and adding 0 changes no total.
      if (gpu === 0 && cpu === 0 && disk === 0 && fee === 0) continue;
      // The idle records before it, then its own start: from prepared views in the usual cases (no garbage).
      if (first && from === 0) out.copy(this.bytes, 1, this.amountsAt[e]!);
      else if (from === 0) out.bytes(views.upTo[e]!);
      else if (from === e) out.bytes(views.head[e]!);
      else out.copy(this.bytes, this.recordAt[from]!, this.amountsAt[e]!);
      const total = gpu + cpu + disk + fee;
      totals[0]! += total;
      totals[1]! += gpu;
      totals[2]! += cpu;
      totals[3]! += disk;
      totals[4]! += fee;
      const n = e * 5;
      out.bytes(KEYS[0]!); out.ascii(this.text(n, total));
      out.bytes(KEYS[1]!); out.ascii(this.text(n + 1, gpu));
      out.bytes(KEYS[2]!); out.ascii(this.text(n + 2, cpu));
      out.bytes(KEYS[3]!); out.ascii(this.text(n + 3, disk));
      out.bytes(KEYS[4]!); out.ascii(this.text(n + 4, fee));
      out.byte(CLOSE);
      from = e + 1;
    }
    if (from === endpoints.length) return;
    if (first && from === 0) out.copy(this.bytes, 1, this.bytes.length);
    else if (from === 0) out.bytes(this.bytes);
    else out.bytes(views.from[from]!);
  }

  /** String(x), the text JSON.stringify gives a finite number, reused when slot `i` had the same number. */
  private text(i: number, x: number): string {
    if (this.lastNumber[i] === x) return this.lastText[i]!; // 0 and -0 are both "0"
    const s = String(x);
    this.lastNumber[i] = x;
    this.lastText[i] = s;
    return s;
  }

  private build(): void {
    const latin1 = (from: number, to: number) => Buffer.from(this.times.subarray(from, to)).toString('latin1');
    const start = latin1(0, this.startLength);
    const end = latin1(this.startLength, this.startLength + this.endLength);
    const parts: Buffer[] = [];
    this.recordAt.length = 0;
    this.amountsAt.length = 0;
    let at = 0;
    for (const id of this.ids) {
      const head = Buffer.from(`${START}${start}${END}${end}","serverlessId":${JSON.stringify(id)}`, 'utf8');
      this.recordAt.push(at);
      this.amountsAt.push(at + head.length);
      parts.push(head, Buffer.from(ZERO_AMOUNTS, 'latin1'));
      at += head.length + ZERO_AMOUNTS.length;
    }
    const all = Buffer.concat(parts);
    const bytes = new Uint8Array(all.buffer, all.byteOffset, all.length);
    this.bytes = bytes;
    this.views = {
      upTo: this.amountsAt.map((a) => bytes.subarray(0, a)),
      head: this.amountsAt.map((a, e) => bytes.subarray(this.recordAt[e], a)),
      from: this.recordAt.map((r) => bytes.subarray(r)),
    };
  }
}
