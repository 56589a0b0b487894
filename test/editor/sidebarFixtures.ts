// Fixtures of the sidebar suites: an emulator config with known usage in every preset window, the test
// profile, a plain billing fetch (the expected side of each comparison), and the clean-up that leaves the
// shared extension host as the next suite expects it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands } from '../../src/connection/commandIds';
import type { BillingQueryParams, ListServerlessBillingResponse } from '../../src/core/schemas';
import type { EmulatorConfigInput } from '../../src/emulator/index';
import type { SidebarTestApi } from '../../src/extension';
import { eventually } from './support/extension';

export const PROFILE_NAME = 'Sidebar test';
export const KEYS = { full: 'k-sidebar-full', jobsOnly: 'k-sidebar-jobs' } as const;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Usage relative to `now`, so every preset (today by hour ... 5 years by year) has records: one endpoint
 * busy every 5 hours for 60 days (and this morning), one daily for 3 years, one monthly for 4 years, and one
 * with records that cost nothing (it must sort last).
 */
export function billingConfig(now: Date): EmulatorConfigInput {
  const t = now.getTime();
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const usage: { serverlessId: string; time: string; gpuAmount: number; cpuAmount: number; diskAmount: number; feeAmount: number }[] = [];
  const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  // Today, strictly between midnight and now, so "Today" is never empty.
  usage.push({ serverlessId: 'sdxl-prod', time: at(midnight + Math.floor((t - midnight) / 2)), gpuAmount: 0.75, cpuAmount: 0.05, diskAmount: 0.01, feeAmount: 0.04 });
  for (let i = 1; i <= 60 * 24 / 5; i++) {
    usage.push({ serverlessId: 'sdxl-prod', time: at(t - i * 5 * HOUR), gpuAmount: 1.25 + (i % 7) * 0.1, cpuAmount: 0.08, diskAmount: 0.02, feeAmount: 0.05 });
  }
  for (let d = 1; d <= 3 * 365; d++) {
    usage.push({ serverlessId: 'llama-batch', time: at(t - d * DAY - 3 * HOUR), gpuAmount: 0.5 + (d % 5) * 0.25, cpuAmount: 0.03, diskAmount: 0.01, feeAmount: 0.02 });
  }
  for (let m = 0; m < 48; m++) {
    usage.push({ serverlessId: 'whisper-archive', time: at(t - m * 30 * DAY - 2 * DAY), gpuAmount: 4.2, cpuAmount: 0.4, diskAmount: 0.3, feeAmount: 0.1 });
  }
  for (let d = 0; d < 3; d++) {
    usage.push({ serverlessId: 'idle-endpoint', time: at(t - d * DAY - HOUR), gpuAmount: 0, cpuAmount: 0, diskAmount: 0, feeAmount: 0 });
  }
  return {
    users: [{
      id: 'sidebar',
      keys: [
        { key: KEYS.full, scopes: ['billing:read', 'jobs:run', 'jobs:read'] },
        { key: KEYS.jobsOnly, scopes: ['jobs:run', 'jobs:read'] },
      ],
      endpoints: [
        { id: 'sdxl-prod', kind: 'image' },
        { id: 'llama-batch', kind: 'echo' },
        { id: 'idle-endpoint', kind: 'echo' },
      ],
      usage,
    }],
  };
}

/** The billing route's answer for `query`, fetched directly: what the tree must show. */
export async function fetchBilling(baseUrl: string, key: string, query: BillingQueryParams): Promise<ListServerlessBillingResponse> {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const res = await fetch(`${baseUrl}/v2/billing/serverless?${params}`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.status, 200, `billing ${params}: ${res.status}`);
  return (await res.json()) as ListServerlessBillingResponse;
}

/** A user-settings profile pointing at `url`, made active, with no key yet. */
export async function useTestProfile(api: SidebarTestApi, url: string, name = PROFILE_NAME): Promise<void> {
  const config = vscode.workspace.getConfiguration('serverlessGpu');
  await config.update('profiles', [{ name, billingBaseUrl: url, jobsBaseUrl: url }], vscode.ConfigurationTarget.Global);
  await eventually(() => api.connection.profiles.list().some((p) => p.name === name && p.billingBaseUrl === url) || undefined, 'the profile setting to arrive');
  assert.equal(await vscode.commands.executeCommand(Commands.switchProfile, name), name);
  await api.connection.clearApiKey();
}

export async function resetSidebar(api: SidebarTestApi | undefined): Promise<void> {
  if (!api) return;
  await api.connection.clearApiKey().catch(() => undefined);
  await vscode.commands.executeCommand(Commands.switchProfile, 'Default');
  await vscode.workspace.getConfiguration('serverlessGpu').update('profiles', undefined, vscode.ConfigurationTarget.Global);
  await vscode.commands.executeCommand(Commands.changeBillingWindow, { kind: 'preset', preset: 'last30Days' });
}
