// US-dollar amounts as the sidebar, the cost chart and the billing checks show them: one formatter for all, so
// an amount reads the same in a tooltip, in the chart's hover and in a consistency warning. In the core (no
// `vscode`) and with no imports at all: the chart's webview bundle includes it.
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

/** "$1,234.57"; a non-zero amount under a cent reads "<$0.01" rather than a misleading "$0.00". */
export function formatUsd(amount: number): string {
  if (amount !== 0 && Math.abs(amount) < 0.005) return amount > 0 ? '<$0.01' : '-<$0.01';
  return centsFast(amount) ?? dollars(amount, 2, 2);
}

/** Up to six decimals: for tooltips and the chart's hover, where the exact amount is wanted. */
export function formatUsdExact(amount: number): string {
  return dollars(amount, 6, 2);
}
