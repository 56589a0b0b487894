// The body of a billing response (SPEC 2.6), written as UTF-8 bytes in chunks: a year of hourly buckets for 20
// endpoints is 175,200 records (~30 MB). Building that as JS strings and letting the socket encode them cost
// about twice the transfer itself (issue 21), so each bucket's records are copied from prepared bytes
// (billingRow.ts) into reused Buffers (billingChunks.ts). Only non-zero amounts are formatted per record, with
// the String(number) that JSON.stringify uses too, so the bytes are those the plain formatting gave.
import type { BucketSize } from '../../core/schemas';
import { ChunkPool, ChunkWriter } from './billingChunks';
import { BillingRow } from './billingRow';
import type { EndpointBuckets } from './billingStore';
import { isoUtc } from '../clock';

export interface BillingBody {
  boundaries: readonly number[];
  bucketSize: BucketSize;
  serverlessId?: string;
  endpoints: EndpointBuckets[];
}

/**
 * Yields the JSON bytes of {records, metadata}. Records are ordered by startTime, then serverlessId. Chunks
 * come from `pool`: give each back (pool.release) once the socket has written it.
 */
export function* billingJsonChunks(b: BillingBody, pool: ChunkPool = new ChunkPool()): Generator<Uint8Array> {
  const n = b.boundaries.length - 1;
  const row = new BillingRow(b.endpoints.map((e) => e.serverlessId));
  // Totals sum the returned records in the order they are returned (SPEC 4.1 rule 3), so a client summing
  // the records with a plain reduce gets exactly these numbers.
  const totals = new Float64Array(5);
  const out = new ChunkWriter(pool);
  out.ascii('{"records":[');
  for (let k = 0; k < n; k++) {
    row.setRange(b.boundaries[k]!, b.boundaries[k + 1]!);
    const full = out.takeIfFull(row.maxBytes);
    if (full) yield full;
    row.write(out, b.endpoints, k, totals, k === 0);
  }
  const rest = out.rest();
  if (rest.length) yield rest;
  const metadata = {
    query: {
      startTime: isoUtc(b.boundaries[0]!),
      endTime: isoUtc(b.boundaries[n]!),
      bucketSize: b.bucketSize,
      serverlessId: b.serverlessId ?? null,
    },
    recordCount: n * b.endpoints.length,
    uniqueServerlessCount: b.endpoints.length,
    totals: { totalAmount: totals[0]!, gpuAmount: totals[1]!, cpuAmount: totals[2]!, diskAmount: totals[3]!, feeAmount: totals[4]! },
  };
  yield Buffer.from(`],"metadata":${JSON.stringify(metadata)}}`, 'utf8');
}
