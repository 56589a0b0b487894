// The account's total in the status bar, kept across windows (issue 32): after a reload the status bar shows the
// total of the last refresh at once, with its age, instead of nothing until the Endpoints view is opened; and
// activate() sends nothing to get it (issue 11). One total per connection profile, for the billing window it was
// read in: another window's total would be a different number. Profile names and amounts only: nothing secret.
import type * as vscode from 'vscode';
import { formatUsd } from '../core/billing/usd';
import type { BillingWindow } from './billingWindow';

const STATE_KEY = 'serverlessGpu.accountTotals';

interface Kept {
  window: string;
  usd: number;
  at: number;
}

/** What the status bar shows: the amount in the one money format, and when it was read if not just now. */
export interface ShownTotal {
  text: string;
  /** Date.now() of the refresh it comes from, when it comes from an earlier one (a cached value). */
  asOf?: number;
}

export class AccountTotals {
  constructor(private readonly state: vscode.Memento) {}

  private all(): Record<string, Kept> {
    const v = this.state.get<unknown>(STATE_KEY);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, Kept>) : {};
  }

  /** A refresh read `usd` for `profile` in `window`. */
  remember(profile: string, window: BillingWindow, usd: number, at = Date.now()): Thenable<void> {
    return this.state.update(STATE_KEY, { ...this.all(), [profile]: { window: JSON.stringify(window), usd, at } });
  }

  /** The last total read for `profile` in this same window, if any. */
  recall(profile: string, window: BillingWindow): ShownTotal | undefined {
    const k = this.all()[profile];
    if (!k || k.window !== JSON.stringify(window) || typeof k.usd !== 'number' || !Number.isFinite(k.usd) || typeof k.at !== 'number') return undefined;
    return { text: formatUsd(k.usd), asOf: k.at };
  }
}
