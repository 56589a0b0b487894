// Deterministic synthetic usage for the demo and for configs with `syntheticUsage`: one event per active UTC
// hour with a daily rhythm (busy in the European/US afternoon), quieter weekends and a slow seasonal drift, so
// charts of every bucket size look like a real account. Each hour's numbers come from a PRNG seeded with
// (seed, endpoint, hour), so the same hour has the same cost whenever and wherever the emulator starts.
import type { Amounts } from './billingStore';
import { hashString, mixSeed, seededRandom } from '../prng';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface SyntheticSeries {
  serverlessId: string;
  /** Typical GPU cost (USD) of a busy hour. */
  scale: number;
  /** First hour (inclusive) and end (exclusive) of the generated usage, both on hour boundaries. */
  fromMs: number;
  untilMs: number;
  seed: number;
}

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

export function generateUsage(series: SyntheticSeries, emit: (serverlessId: string, timeMs: number, amounts: Amounts) => void): void {
  const idHash = hashString(series.serverlessId);
  const phase = (idHash % 1000) / 1000 * Math.PI * 2;
  const from = Math.ceil(series.fromMs / HOUR_MS) * HOUR_MS;
  for (let h = from; h < series.untilMs; h += HOUR_MS) {
    const rnd = seededRandom(mixSeed(series.seed, idHash, h / HOUR_MS));
    const d = new Date(h);
    const hourOfDay = d.getUTCHours();
    const weekday = d.getUTCDay();
    const daily = 0.15 + 0.85 * Math.exp(-((hourOfDay - 15) ** 2) / (2 * 4 ** 2));
    const weekly = weekday === 0 || weekday === 6 ? 0.4 : 1;
    const seasonal = 0.65 + 0.35 * Math.sin((2 * Math.PI * (h / DAY_MS)) / 120 + phase);
    const activity = daily * weekly * seasonal;
    if (rnd() > activity * 0.9 + 0.03) continue; // an idle hour: no event at all
    const gpu = round6(series.scale * activity * (0.5 + rnd()));
    if (gpu <= 0) continue;
    emit(series.serverlessId, h + Math.floor(rnd() * HOUR_MS), {
      gpu,
      cpu: round6(gpu * (0.05 + 0.05 * rnd())),
      disk: round6(0.0005 + 0.001 * rnd()),
      fee: round6(gpu * 0.04),
    });
  }
}

/** A stable per-endpoint scale for configs that only name endpoints: between 0.05 and 1.5 USD per busy hour. */
export function defaultScale(serverlessId: string, seed: number): number {
  return round6(0.05 + 1.45 * seededRandom(mixSeed(seed, hashString(serverlessId)))());
}
