// Money, as every view shows it (issue 32): the sidebar, its tooltips, the cost chart, the status bar, a job's
// cost line, a batch's spend and the billing checks all call this one formatter, so an amount reads the same
// everywhere. The precision is chosen by the amount (docs/decisions.md "Money"): three significant digits, never
// fewer than two decimals nor more than six ("$80.35", "$0.350", "$0.0300", "$0.00212", "$0.000218"). A group of
// parts and their total (a tooltip's GPU, CPU, disk and fee) shares one precision, chosen by its largest amount,
// and its parts add up visibly to the total shown. In the core (no `vscode`) and with no imports at all: the
// webview bundles include it.
//
// Hand-rolled rather than Intl.NumberFormat: a year of daily buckets for 50 endpoints formats ~100,000
// amounts per refresh, and Intl's format() was 90% of the refresh time (test/bench/tree.bench.ts).
function groupThousands(digits: string): string {
  return digits.length <= 3 ? digits : digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `x` (>= 0) as the decimal it prints as, never in exponent form below 1 ("5e-7" -> "0.0000005"). */
function plainDecimal(x: number): string {
  const s = String(x);
  const e = s.indexOf('e-');
  if (e < 0) return s;
  const digits = s.slice(0, e).replace('.', '');
  return `0.${'0'.repeat(Number(s.slice(e + 2)) - 1)}${digits}`;
}

/** Adds one unit in the last place of a decimal string ("2.679" -> "2.680", "9.99" -> "10.00"). */
function addUnitInLastPlace(s: string): string {
  const chars = s.split('');
  for (let i = chars.length - 1; i >= 0; i--) {
    if (chars[i] === '.') continue;
    if (chars[i] !== '9') {
      chars[i] = String.fromCharCode(chars[i]!.charCodeAt(0) + 1);
      return chars.join('');
    }
    chars[i] = '0';
  }
  return `1${chars.join('')}`;
}

const SAFE_SCALED = 2 ** 52 / 10;
/** 10^(decimals + 1) for the decimals used here. */
const SCALE = [10, 100, 1000, 1e4, 1e5, 1e6, 1e7];

/**
 * A cheap, conservative filter before printing the number (which is what made this formatter slow): could
 * `x` print with exactly `decimals + 1` fractional digits, the last a 5? Scaled by 10^(decimals+1) such a
 * number is an integer ending in 5, up to rounding error; beyond 2^52 / 10 the test is not exact, so say yes.
 */
function mayEndOnHalf(x: number, decimals: number): boolean {
  const scaled = x * (SCALE[decimals] ?? 10 ** (decimals + 1));
  if (scaled >= SAFE_SCALED) return true;
  const nearest = Math.round(scaled);
  // The double and the multiplication each err by at most half an ulp: a few parts in 10^16 of `scaled`.
  return nearest % 10 === 5 && Math.abs(scaled - nearest) <= scaled * 1e-15 + 1e-9;
}

/**
 * `x` (>= 0) rounded to `decimals` places, half away from zero, as the decimal the number prints as: 2.675
 * gives "2.68" (as Intl.NumberFormat does), where toFixed gives "2.67" because the double is 2.67499999....
 * toFixed is right everywhere else: the printed decimal and the double can only round apart when the printed
 * one ends exactly on a half (it is the shortest decimal that reads back as the double, so no rounding
 * boundary lies between the two unless it is that decimal itself).
 */
function toFixedHalfUp(x: number, decimals: number): string {
  const fixed = x.toFixed(decimals);
  if (!mayEndOnHalf(x, decimals)) return fixed;
  const printed = plainDecimal(x);
  const dot = printed.indexOf('.');
  if (dot < 0 || printed.length - dot - 1 !== decimals + 1 || !printed.endsWith('5')) return fixed;
  return addUnitInLastPlace(printed.slice(0, -1));
}

function dollars(amount: number, decimals: number, minDecimals: number): string {
  const fixed = toFixedHalfUp(Math.abs(amount), decimals);
  const dot = fixed.indexOf('.');
  let fraction = fixed.slice(dot + 1);
  let end = fraction.length;
  while (end > minDecimals && fraction.charCodeAt(end - 1) === 48) end--;
  fraction = fraction.slice(0, end);
  const sign = amount < 0 && Number(fixed) !== 0 ? '-' : '';
  return `${sign}$${groupThousands(fixed.slice(0, dot))}${fraction ? `.${fraction}` : ''}`;
}

/** Below this many cents the fraction of `x * 100` is exact enough to round by (see centsFast). */
const FAST_CENTS_LIMIT = 1e12;

/**
 * Cents by integer arithmetic, when `abs * 100` is clearly not on a half cent: then rounding the double and
 * rounding its printed decimal agree, and no digit string is made (the tree formats ~100,000 amounts per
 * refresh). Undefined near a half or for huge amounts: the exact path decides those.
 */
function centsFast(amount: number): string | undefined {
  const abs = Math.abs(amount);
  const scaled = abs * 100;
  if (!(scaled < FAST_CENTS_LIMIT)) return undefined;
  const floor = Math.floor(scaled);
  const fraction = scaled - floor;
  // The product errs by at most an ulp or so of `scaled` (as in mayEndOnHalf): near a half, ask the exact path.
  if (Math.abs(fraction - 0.5) <= scaled * 1e-15 + 1e-9) return undefined;
  const cents = fraction > 0.5 ? floor + 1 : floor;
  const whole = Math.floor(cents / 100);
  const rest = cents - whole * 100;
  const sign = amount < 0 && cents !== 0 ? '-' : '';
  return `${sign}$${groupThousands(String(whole))}.${rest < 10 ? '0' : ''}${rest}`;
}

/** The most decimals any amount is shown with; a non-zero amount below one of its units reads "<$0.000001". */
export const MAX_MONEY_DECIMALS = 6;
const SMALLEST = 10 ** -MAX_MONEY_DECIMALS;

/**
 * The decimals `amount` is shown with: enough for three significant digits, at least 2 (cents), at most 6.
 * $1 and up: 2; from $0.10: 3; from a cent: 4; from a tenth of a cent: 5; below: 6.
 */
export function moneyDecimals(amount: number): number {
  const a = Math.abs(amount);
  if (a >= 0.995 || a === 0) return 2;
  if (a >= 0.0995) return 3;
  if (a >= 0.00995) return 4;
  if (a >= 0.000995) return 5;
  return MAX_MONEY_DECIMALS;
}

/** `amount` with exactly `decimals` decimals ("$1,234.50"), rounded half away from zero as it reads. */
export function formatUsdAt(amount: number, decimals: number): string {
  return (decimals === 2 ? centsFast(amount) : undefined) ?? dollars(amount, decimals, decimals);
}

/** "$1,234.57", "$0.350", "$0.00212": the one money formatter, its precision chosen by the amount. */
export function formatUsd(amount: number): string {
  if (amount !== 0 && Math.abs(amount) < SMALLEST / 2) return amount > 0 ? '<$0.000001' : '-<$0.000001';
  return formatUsdAt(amount, moneyDecimals(amount));
}

/** A total and its parts, as one view shows them: one precision, and parts that add up to the total shown. */
export interface UsdGroup {
  total: string;
  parts: string[];
  decimals: number;
}

/** Units of 10^-decimals as a dollar string: 8035 at 2 decimals is "$80.35". */
function fromUnits(units: number, decimals: number): string {
  const sign = units < 0 ? '-' : '';
  const digits = String(Math.abs(units)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  return `${sign}$${groupThousands(whole)}.${digits.slice(digits.length - decimals)}`;
}

/**
 * A total and its parts in one precision (chosen by the largest of them), where the parts shown add up to the
 * total shown. Each part rounded on its own may not ("$0.125 + $0.125" is "$0.13 + $0.13" against "$0.25"):
 * when the parts do add up to the total, to within rounding, they are rounded together instead (largest
 * remainders first), so each is off its exact amount by less than one unit of the last decimal. Parts that do not
 * add up to the total by more than rounding (a service's inconsistent totals) are shown each as it is.
 */
export function formatUsdGroup(total: number, parts: readonly number[]): UsdGroup {
  // Plain loops, no regex, sort or closures: the Endpoints tree formats a group per bucket, 18,000 of them for a
  // year of 50 endpoints' days, and this function was most of `tree.refreshToItems` (docs/decisions.md, issue 30).
  const n = parts.length;
  let largest = Math.abs(total);
  for (let i = 0; i < n; i++) largest = Math.max(largest, Math.abs(parts[i]!));
  const decimals = moneyDecimals(largest);
  const scale = 10 ** decimals;
  // The total's units as its own string reads (half away from zero on the printed decimal), so the total reads
  // exactly as formatUsdAt writes it anywhere else.
  const totalText = formatUsdAt(total, decimals);
  const target = unitsOfText(totalText);
  const floors = new Array<number>(n);
  let floorSum = 0;
  let exactSum = 0;
  for (let i = 0; i < n; i++) {
    floors[i] = Math.floor(parts[i]! * scale);
    floorSum += floors[i]!;
    exactSum += parts[i]!;
  }
  let short = target - floorSum;
  const unit = 1 / scale;
  const shown = new Array<string>(n);
  if (!Number.isSafeInteger(target) || short < 0 || short > n || Math.abs(exactSum - total) > unit / 2) {
    for (let i = 0; i < n; i++) shown[i] = formatUsdAt(parts[i]!, decimals);
    return { total: totalText, parts: shown, decimals };
  }
  // The parts with the largest fractions (of a unit) get the units still missing, one each; ties by order.
  const given: boolean[] = [];
  for (; short > 0; short--) {
    let best = -1;
    let bestRest = -1;
    for (let i = 0; i < n; i++) {
      const rest = parts[i]! * scale - floors[i]!;
      if (!given[i] && rest > bestRest) {
        best = i;
        bestRest = rest;
      }
    }
    given[best] = true;
    floors[best]!++;
  }
  for (let i = 0; i < n; i++) shown[i] = fromUnits(floors[i]!, decimals);
  return { total: totalText, parts: shown, decimals };
}

/** "$1,234.50" or "-$0.0300" as an integer of its last decimal's units (123450, -300): its digits, read in order. */
function unitsOfText(text: string): number {
  let units = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c >= 0 && c <= 9) units = units * 10 + c;
  }
  return text.charCodeAt(0) === 45 ? -units : units;
}
