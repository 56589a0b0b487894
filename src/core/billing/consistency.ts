// Does a billing response agree with itself? SPEC 4.1 rules 2 and 3 and SPEC 2.3: recordCount is the number
// of records, uniqueServerlessCount the distinct endpoints, totals the sums of the records, and a filtered
// query returns only the filtered endpoint. A disagreement is a warning the UI shows next to the numbers,
// never a reason to hide them: the records are still the best data we have.
import { AMOUNT_KEYS, type ListServerlessBillingResponse } from '../schemas';
import { formatUsd } from './usd';
import { aggregateBilling, type BillingAggregate } from './aggregate';

/**
 * Sums of many doubles drift, and a server may round totals to the cent: a difference up to half a cent,
 * or a millionth of the amount for large sums, is not worth a warning.
 */
export function amountsAgree(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(0.005, 1e-6 * Math.max(Math.abs(a), Math.abs(b)));
}

/** As the editor shows amounts (the one money formatter). */
const money = formatUsd;

/**
 * The inconsistencies of `response`, in words; empty when metadata and records agree. Read from the response's
 * aggregate (one pass over the records, which the views need anyway): pass it when it is already made.
 */
export function checkBillingConsistency(response: ListServerlessBillingResponse, aggregate: BillingAggregate = aggregateBilling(response)): string[] {
  const { records, metadata } = response;
  const warnings: string[] = [];
  const sums = [0, 0, 0, 0, 0];
  const filter = metadata.query.serverlessId ?? undefined;
  let foreign = 0;
  for (const e of aggregate.endpoints) {
    if (filter !== undefined && e.serverlessId !== filter) foreign += e.recordCount;
    AMOUNT_KEYS.forEach((key, i) => {
      sums[i]! += e[key];
    });
  }
  const endpointCount = aggregate.endpoints.length;
  if (metadata.recordCount !== records.length) {
    warnings.push(`The service reports ${metadata.recordCount} records but sent ${records.length}.`);
  }
  if (metadata.uniqueServerlessCount !== endpointCount) {
    warnings.push(`The service reports ${metadata.uniqueServerlessCount} endpoints but the records name ${endpointCount}.`);
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
