// Connection profiles as the `serverlessGpu.profiles` setting holds them: validated here, without `vscode`,
// so the rules that decide where the API key may be sent are unit-tested in plain Node.
import * as z from 'zod/mini';
import { isLoopbackHost } from '../core/http/url';
import '../core/zodMessages';

/** A connection profile: a name and the two hosts of the spec (SPEC 4.1 `{base_url}`, 4.2 `{serverless_url}`). */
export interface Profile {
  name: string;
  billingBaseUrl: string;
  jobsBaseUrl: string;
  /** Built in (the default or the local emulator): not editable in settings. */
  builtIn?: boolean;
}

export const DEFAULT_PROFILE: Profile = {
  name: 'Default',
  billingBaseUrl: 'https://api.runpod.io',
  jobsBaseUrl: 'https://api.runpod.ai',
  builtIn: true,
};

/** The built-in profile of the bundled emulator (src/connection/profiles.ts gives it its URLs at run time). */
export const EMULATOR_PROFILE_NAME = 'Local emulator';

/**
 * A base URL the key may be sent to: https anywhere, plain http only to this machine (the emulator), by the
 * same loopback rule as output URLs and the npm start profile. A remote http URL would put the key on the
 * wire in clear text, so it is refused rather than "fixed".
 */
export function checkBaseUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not a URL`;
  }
  if (url.username || url.password) return 'a base URL must not contain a user name or password';
  if (url.search || url.hash) return 'a base URL must not contain a query or fragment';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return `"${value}" must use https (plain http is allowed only for 127.0.0.1 / localhost)`;
}

/** The host[:port] of a base URL, for messages ("Cannot reach api.runpod.io"); the text itself if it is no URL. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

const BaseUrl = z.string().check(z.superRefine((v, ctx) => {
  const problem = checkBaseUrl(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
}));

const ProfileSetting = z.object({
  name: z.string().check(z.trim(), z.minLength(1)),
  billingBaseUrl: BaseUrl,
  jobsBaseUrl: BaseUrl,
});

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The valid profiles of the setting's raw value, and what was skipped with why. Never throws. */
export function parseProfiles(raw: unknown): { profiles: Profile[]; problems: string[] } {
  const profiles: Profile[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { profiles, problems };
  if (!Array.isArray(raw)) return { profiles, problems: ['serverlessGpu.profiles must be an array'] };
  raw.forEach((entry, i) => {
    const parsed = ProfileSetting.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      problems.push(`serverlessGpu.profiles[${i}]${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'invalid'}`);
      return;
    }
    const p = parsed.data;
    // The built-in names stay what they are: a setting cannot redefine where "Default" or the emulator point.
    if (p.name === DEFAULT_PROFILE.name || p.name === EMULATOR_PROFILE_NAME || profiles.some((q) => q.name === p.name)) {
      problems.push(`serverlessGpu.profiles[${i}]: the name "${p.name}" is already taken`);
      return;
    }
    profiles.push({ name: p.name, billingBaseUrl: stripSlash(p.billingBaseUrl), jobsBaseUrl: stripSlash(p.jobsBaseUrl) });
  });
  return { profiles, problems };
}
