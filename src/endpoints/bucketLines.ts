// The words of a bucket's money: its line in the tree ("$1.85 · GPU $1.50 + CPU $0.10 + disk $0.05 + fee $0.20")
// and the same split in tooltips. An expanded endpoint's lines are written at once, as Latin-1 bytes into one
// buffer read back as one string that each bucket's line is a slice of (../core/billing/usdUnits.ts): a year of
// days for 50 endpoints is 18,250 lines, and five small strings, a template and two objects for each were most of
// the tree's refresh, in their making and their collection (`tree.refreshToItems`, issue 30). A line the fast
// path cannot be sure of is written from formatUsdGroup's own strings. No `vscode` import.
import { formatUsd, formatUsdGroup } from '../core/billing/usd';
import { Latin1Writer, usdGroupUnits } from '../core/billing/usdUnits';
import { AMOUNTS_PER_ROW } from '../core/billing/billingTable';

/** A total and its split, as the tree's nodes carry them (billingTreeModel.ts Breakdown). */
export interface MoneySplit {
  total: number;
  gpu: number;
  cpu: number;
  disk: number;
  fee: number;
}

/**
 * A total and its split in one precision, the parts adding up to the total shown (src/core/billing/usd.ts):
 * { total: "$1.85", parts: "GPU $1.50 + CPU $0.10 + disk $0.05 + fee $0.20" }.
 */
export function formatBreakdown(b: MoneySplit): { total: string; parts: string } {
  const g = formatUsdGroup(b.total, [b.gpu, b.cpu, b.disk, b.fee]);
  const [gpu, cpu, disk, fee] = g.parts;
  return { total: g.total, parts: `GPU ${gpu} + CPU ${cpu} + disk ${disk} + fee ${fee}` };
}

/** A bucket's line, one at a time: "$0.00" for an idle bucket (the service emits every bucket), else the split. */
export function bucketLine(b: MoneySplit): string {
  if (b.total === 0 && b.gpu === 0 && b.cpu === 0 && b.disk === 0 && b.fee === 0) return formatUsd(0);
  const money = formatBreakdown(b);
  return `${money.total} · ${money.parts}`;
}

const PART_WORDS = [' · GPU ', ' + CPU ', ' + disk ', ' + fee '];
const writer = new Latin1Writer();
const units = new Float64Array(5);
const parts = new Float64Array(4);

/**
 * The lines of buckets `from` .. `to` - 1 of a table's amount column (AMOUNTS_PER_ROW per bucket, total first),
 * each exactly what bucketLine says of it.
 */
export function bucketLines(amounts: Float64Array, from: number, to: number): string[] {
  writer.length = 0;
  const ends = new Uint32Array(to - from);
  for (let i = from; i < to; i++) {
    const at = i * AMOUNTS_PER_ROW;
    const total = amounts[at]!;
    for (let k = 0; k < 4; k++) parts[k] = amounts[at + 1 + k]!;
    const idle = total === 0 && parts[0] === 0 && parts[1] === 0 && parts[2] === 0 && parts[3] === 0;
    const decimals = idle ? 2 : usdGroupUnits(total, parts, units);
    if (idle) writer.usd(0, 2);
    else if (decimals < 0) writer.text(bucketLine({ total, gpu: parts[0]!, cpu: parts[1]!, disk: parts[2]!, fee: parts[3]! }));
    else {
      writer.usd(units[0]!, decimals);
      for (let k = 0; k < 4; k++) {
        writer.text(PART_WORDS[k]!);
        writer.usd(units[1 + k]!, decimals);
      }
    }
    ends[i - from] = writer.length;
  }
  const all = Buffer.from(writer.bytes.buffer, writer.bytes.byteOffset, writer.length).toString('latin1');
  const lines = new Array<string>(to - from);
  for (let k = 0, start = 0; k < lines.length; k++) {
    lines[k] = all.slice(start, ends[k]);
    start = ends[k]!;
  }
  return lines;
}
