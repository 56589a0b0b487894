// A money group (a total and its parts, ./usd.ts's formatUsdGroup) as integers of its last decimal's units,
// and those units written as Latin-1 bytes: the Endpoints tree's bucket lines, 18,000 of them for a year of 50
// endpoints' days, written into one buffer and read back as one string (src/endpoints/bucketLines.ts) instead
// of five small strings, a template and two objects per bucket. That garbage, and collecting it, were most of
// `tree.refreshToItems` (issue 30). It says exactly what formatUsdGroup says (test/unit/billing/usdUnits.test.ts
// holds the two to each other); beyond 10^12 units it says it cannot, and the caller takes formatUsdGroup
// itself. No imports beyond ./usd.ts, no `vscode`.
import { moneyDecimals } from './usd';

/** Beyond this many units a double's product with the scale is not exact enough to round by (usd.ts centsFast). */
const FAST_UNITS_LIMIT = 1e12;
const SCALES = [1, 10, 100, 1000, 1e4, 1e5, 1e6];

/**
 * `amount` in units of 10^-decimals, rounded half away from zero as formatUsdAt prints it, signed as its text
 * reads ("-$0.00" is never printed: a negative amount that rounds to zero is 0); NaN when it is too large for the
 * product with the scale to be exact enough (formatUsdAt's own digits decide those).
 *
 * Near a half unit the product's error could round either way, and formatUsdAt rounds the decimal the number
 * prints as (usd.ts toFixedHalfUp): 0.0635 at 3 decimals is "$0.064" though the double is 0.063499999.... The
 * half itself, (2 floor + 1) / (2 scale), divided as doubles is the double nearest to it (both integers are exact,
 * and division rounds correctly), and a number prints as that decimal exactly when it is that double (no shorter
 * decimal lies as near at these magnitudes). Any other number is on the same side of the half as that double is,
 * which is the side toFixed rounds its exact value to. So: up from the half's double, down below it.
 */
function roundedUnits(amount: number, scale: number): number {
  const abs = Math.abs(amount);
  const scaled = abs * scale;
  if (!(scaled < FAST_UNITS_LIMIT)) return NaN;
  const floor = Math.floor(scaled);
  const fraction = scaled - floor;
  let units: number;
  if (Math.abs(fraction - 0.5) <= scaled * 1e-15 + 1e-9) units = abs >= (2 * floor + 1) / (2 * scale) ? floor + 1 : floor;
  else units = fraction > 0.5 ? floor + 1 : floor;
  return amount < 0 && units !== 0 ? -units : units;
}

/**
 * formatUsdGroup(total, parts) as numbers: writes the total's units to out[0] and each part's to out[1 + i], and
 * returns the decimals they are in; -1 when formatUsdGroup must say it (see roundedUnits). Same rules: one
 * precision from the largest amount; the parts rounded together (largest remainders first) when they add up to
 * the total within rounding, each on its own when they do not.
 */
export function usdGroupUnits(total: number, parts: ArrayLike<number>, out: Float64Array): number {
  const n = parts.length;
  let largest = Math.abs(total);
  for (let i = 0; i < n; i++) largest = Math.max(largest, Math.abs(parts[i]!));
  const decimals = moneyDecimals(largest);
  const scale = SCALES[decimals]!;
  const target = roundedUnits(total, scale);
  if (Number.isNaN(target)) return -1;
  out[0] = target;
  let floorSum = 0;
  let exactSum = 0;
  for (let i = 0; i < n; i++) {
    const floor = Math.floor(parts[i]! * scale);
    out[1 + i] = floor;
    floorSum += floor;
    exactSum += parts[i]!;
  }
  let short = target - floorSum;
  if (short < 0 || short > n || Math.abs(exactSum - total) > 1 / scale / 2) {
    for (let i = 0; i < n; i++) {
      const units = roundedUnits(parts[i]!, scale);
      if (Number.isNaN(units)) return -1;
      out[1 + i] = units;
    }
    return decimals;
  }
  let given = 0; // a bit per part that got a unit (formatUsdGroup's groups have 4 parts; 31 at most here)
  if (n > 31) return -1;
  for (; short > 0; short--) {
    let best = -1;
    let bestRest = -1;
    for (let i = 0; i < n; i++) {
      const rest = parts[i]! * scale - out[1 + i]!;
      if ((given & (1 << i)) === 0 && rest > bestRest) {
        best = i;
        bestRest = rest;
      }
    }
    given |= 1 << best;
    out[1 + best]!++;
  }
  return decimals;
}

/** Latin-1 bytes written one after another into a buffer that grows; read back with Buffer's `latin1` decoding. */
export class Latin1Writer {
  bytes = new Uint8Array(1 << 14);
  length = 0;
  private readonly digits = new Uint8Array(24);

  /** `text`, whose characters are all Latin-1 (below U+0100: the tree's words, "·", money). */
  text(text: string): void {
    this.room(text.length);
    for (let i = 0; i < text.length; i++) this.bytes[this.length++] = text.charCodeAt(i);
  }

  /** Units of 10^-decimals as a dollar amount, as usd.ts writes it: 123450 at 2 is "$1,234.50", -300 at 4 "-$0.0300". */
  usd(units: number, decimals: number): void {
    this.room(40);
    const b = this.bytes;
    if (units < 0) b[this.length++] = 45; // -
    b[this.length++] = 36; // $
    let rest = Math.abs(units);
    let count = 0;
    // Digits right to left, at least one before the point.
    do {
      const next = Math.floor(rest / 10);
      this.digits[count++] = 48 + rest - next * 10;
      rest = next;
    } while (rest > 0);
    while (count < decimals + 1) this.digits[count++] = 48;
    for (let i = count - 1; i >= 0; i--) {
      b[this.length++] = this.digits[i]!;
      if (i === decimals && decimals > 0) b[this.length++] = 46; // .
      else if (i > decimals && (i - decimals) % 3 === 0) b[this.length++] = 44; // , between thousands
    }
  }

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}
