// Does a billing response agree with itself? SPEC 4.1 rules 2 and 3 and SPEC 2.3: recordCount is the number
// of records, uniqueServerlessCount the distinct endpoints, totals the sums of the records, and a filtered
// query returns only the filtered endpoint. A disagreement is a warning the UI shows next to the numbers,
// never a reason to hide them: the records are still the best data we have.
import { AMOUNT_KEYS, type ListServerlessBillingResponse } from '../schemas';
import { formatUsd, formatUsdExact } from './usd';

/**
 * Sums of many doubles drift, and a server may round totals to the cent: a difference up to half a cent,
 * or a millionth of the amount for large sums, is not worth a warning.
 */
export function amountsAgree(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(0.005, 1e-6 * Math.max(Math.abs(a), Math.abs(b)));
}

/** Cents, or up to six decimals under a cent (where "<$0.01" would say nothing), as the editor shows amounts. */
function money(n: number): string {
  return n !== 0 && Math.abs(n) < 0.01 ? formatUsdExact(n) : formatUsd(n);
}

/** The inconsistencies of `response`, in words; empty when metadata and records agree. One pass over the records. */
export function checkBillingConsistency(response: ListServerlessBillingResponse): string[] {
  const { records, metadata } = response;
  const warnings: string[] = [];
  const sums = [0, 0, 0, 0, 0];
  const endpoints = new Set<string>();
  const filter = metadata.query.serverlessId ?? undefined;
  let foreign = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    endpoints.add(r.serverlessId);
    if (filter !== undefined && r.serverlessId !== filter) foreign++;
    sums[0] += r.totalAmount;
    sums[1] += r.gpuAmount;
    sums[2] += r.cpuAmount;
    sums[3] += r.diskAmount;
    sums[4] += r.feeAmount;
  }
  if (metadata.recordCount !== records.length) {
    warnings.push(`The service reports ${metadata.recordCount} records but sent ${records.length}.`);
  }
  if (metadata.uniqueServerlessCount !== endpoints.size) {
    warnings.push(`The service reports ${metadata.uniqueServerlessCount} endpoints but the records name ${endpoints.size}.`);
  }
  AMOUNT_KEYS.forEach((key, i) => {
    const reported = metadata.totals[key];
    if (!amountsAgree(reported, sums[i]!)) {
      warnings.push(`The reported ${key} (${money(reported)}) differs from the sum of the records (${money(sums[i]!)}).`);
    }
  });
  if (foreign > 0) {
    warnings.push(`${foreign} record(s) belong to another endpoint than the filter ${filter}.`);
  }
  return warnings;
}
