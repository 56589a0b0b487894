// The body of a billing response (SPEC 2.6), written as JSON text in chunks: a year of hourly buckets for 20
// endpoints is 175,200 records (~35 MB), so records are formatted by hand (the boundary strings once per
// bucket, ids once per endpoint) and handed to the socket piece by piece instead of through one JSON.stringify.
import type { BucketSize } from '../../core/schemas';
import type { EndpointBuckets } from './billingStore';
import { isoUtc } from '../clock';

export interface BillingBody {
  boundaries: readonly number[];
  bucketSize: BucketSize;
  serverlessId?: string;
  endpoints: EndpointBuckets[];
}

const RECORDS_PER_CHUNK = 2000;

/** Yields the JSON text of {records, metadata}. Records are ordered by startTime, then serverlessId. */
export function* billingJsonChunks(b: BillingBody): Generator<string> {
  const n = b.boundaries.length - 1;
  const ids = b.endpoints.map((e) => `,"serverlessId":${JSON.stringify(e.serverlessId)}`);
  // Totals sum the returned records in the order they are returned (SPEC 4.1 rule 3), so a client summing
  // the records with a plain reduce gets exactly these numbers.
  let tGpu = 0, tCpu = 0, tDisk = 0, tFee = 0, tTotal = 0;
  let parts: string[] = [];
  let first = true;
  yield '{"records":[';
  let prevIso = isoUtc(b.boundaries[0]!);
  for (let k = 0; k < n; k++) {
    const nextIso = isoUtc(b.boundaries[k + 1]!);
    const range = `{"startTime":"${prevIso}","endTime":"${nextIso}"`;
    for (let e = 0; e < b.endpoints.length; e++) {
      const ep = b.endpoints[e]!;
      const gpu = ep.gpu[k]!, cpu = ep.cpu[k]!, disk = ep.disk[k]!, fee = ep.fee[k]!;
      const total = gpu + cpu + disk + fee;
      tGpu += gpu; tCpu += cpu; tDisk += disk; tFee += fee; tTotal += total;
      parts.push(`${first ? '' : ','}${range}${ids[e]},"totalAmount":${total},"gpuAmount":${gpu},"cpuAmount":${cpu},"diskAmount":${disk},"feeAmount":${fee}}`);
      first = false;
      if (parts.length >= RECORDS_PER_CHUNK) {
        yield parts.join('');
        parts = [];
      }
    }
    prevIso = nextIso;
  }
  if (parts.length) yield parts.join('');
  const metadata = {
    query: {
      startTime: isoUtc(b.boundaries[0]!),
      endTime: isoUtc(b.boundaries[n]!),
      bucketSize: b.bucketSize,
      serverlessId: b.serverlessId ?? null,
    },
    recordCount: n * b.endpoints.length,
    uniqueServerlessCount: b.endpoints.length,
    totals: { totalAmount: tTotal, gpuAmount: tGpu, cpuAmount: tCpu, diskAmount: tDisk, feeAmount: tFee },
  };
  yield `],"metadata":${JSON.stringify(metadata)}}`;
}
