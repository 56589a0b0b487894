// What a job costs (issue 23 "Cost per job", docs/batches.md "Cost"): the cost a public endpoint reports, the
// estimate for a dedicated one and the prices it rests on, and what billing says after. Not a batch's alone: a
// single job's panel and the Jobs view show the same cost line. The editor layer imports from here.
export { jobCost, reportedCost, priceFromBilling, type JobCost, type PricePerSecond } from './jobCost';
export { priceFromTable, endpointPrice, DEFAULT_GPU_PRICES } from './priceTable';
export { EndpointPrices, sharedEndpointPrices } from './endpointPrices';
export { billedAmount, type BilledAmount } from './billedAmount';
export { checkBill, BILL_MISMATCH, type BillCheck } from './billCheck';
export { costText, costTooltip, savedCost, shownCost, SavedCost } from './costText';
