// The byte buffers a big billing body is written into (billingResponse.ts). A year of hourly buckets is ~30 MB:
// copying prepared bytes into reused Buffers, instead of building strings the socket must encode, is what
// brings the response near the cost of sending the same bytes from memory (issue 21).

/** Bytes per chunk handed to the socket: big enough that per-write costs are small (120 writes for 30 MB),
 *  small enough to stream and to stay in the CPU's cache between our copy into it and the kernel's out of it. */
export const CHUNK_BYTES = 256 * 1024;

/**
 * Buffers lent to a ChunkWriter and given back once the socket has written them. A fresh 256 KB Buffer is
 * fresh pages the kernel must fault in and zero: about a fifth of the formatting time of a big response.
 */
export class ChunkPool {
  private readonly free: Buffer[] = [];
  private readonly lent = new Map<ArrayBufferLike, Buffer>();

  take(minBytes: number): Buffer {
    const reused = minBytes <= CHUNK_BYTES ? this.free.pop() : undefined;
    const buf = reused ?? Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, minBytes));
    this.lent.set(buf.buffer, buf);
    return buf;
  }

  /** Gives back the buffer under `chunk` (a view of a taken buffer) once nothing reads it any more. */
  release(chunk: Uint8Array): void {
    const buf = this.lent.get(chunk.buffer);
    if (!buf) return;
    this.lent.delete(chunk.buffer);
    if (buf.length === CHUNK_BYTES) this.free.push(buf);
  }
}

/** Fills pooled Buffers and hands each full one out. */
export class ChunkWriter {
  private buf: Buffer;
  private off = 0;

  constructor(private readonly pool: ChunkPool) {
    this.buf = pool.take(CHUNK_BYTES);
  }

  /** The chunk so far if fewer than `room` bytes are left in it (a new one is then started), else undefined. */
  takeIfFull(room: number): Buffer | undefined {
    if (this.off + room <= this.buf.length) return undefined;
    const full = this.off > 0 ? this.buf.subarray(0, this.off) : undefined;
    if (!full) this.pool.release(this.buf);
    this.buf = this.pool.take(room);
    this.off = 0;
    return full;
  }

  bytes(b: Uint8Array): void {
    this.buf.set(b, this.off);
    this.off += b.length;
  }

  /** Bytes [from, to) of `src`. */
  copy(src: Uint8Array, from: number, to: number): void {
    this.buf.set(src.subarray(from, to), this.off);
    this.off += to - from;
  }

  byte(c: number): void {
    this.buf[this.off++] = c;
  }

  /** Characters below U+0080 only (numbers, fixed keys), whose UTF-8 is one byte each: the caller knows. */
  ascii(s: string): void {
    const { buf } = this;
    let o = this.off;
    for (let i = 0; i < s.length; i++) buf[o++] = s.charCodeAt(i);
    this.off = o;
  }

  /** What is written but not yet handed out (the last chunk). */
  rest(): Buffer {
    return this.buf.subarray(0, this.off);
  }
}
