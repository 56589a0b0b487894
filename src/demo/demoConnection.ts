// `npm start` only (scripts/start.mjs): the window opens already connected to the emulator that npm start
// began, so a newcomer sees their endpoints at once. npm start puts a profile for that emulator in the user
// settings (where profiles live; a workspace can never add one) and names it in this environment variable;
// code-server passes its environment to the extension host. No request is made here: the views load when shown.
import type { Logger } from '../core/log';
import { isLoopbackHost } from '../core/http/url';
import type { Connection } from '../connection/connection';
import { EMULATOR_DEMO_KEY } from '../connection/profiles';

export const DEMO_PROFILE_ENV = 'SERVERLESS_GPU_DEMO_PROFILE';

function onLoopback(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * Makes the named profile active and gives it the emulator's documented demo key, if it has none. Only for a
 * profile whose both hosts are loopback: the demo key is public, and must never be sent to a real service.
 */
export async function connectDemoProfile(
  connection: Pick<Connection, 'switchProfile' | 'profile' | 'hasKey' | 'setApiKey'> & { profiles: Pick<Connection['profiles'], 'list'> },
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<'connected' | 'skipped'> {
  const name = env[DEMO_PROFILE_ENV];
  if (!name) return 'skipped';
  // Checked before switching, so a name that does not exist is never remembered as the active profile.
  const profile = connection.profiles.list().find((p) => p.name === name);
  if (!profile) {
    logger.warn(`${DEMO_PROFILE_ENV}: no profile named "${name}" in the user settings; staying on "${connection.profile.name}"`);
    return 'skipped';
  }
  if (!onLoopback(profile.billingBaseUrl) || !onLoopback(profile.jobsBaseUrl)) {
    logger.warn(`${DEMO_PROFILE_ENV}: "${name}" is not on this machine (127.0.0.1/localhost): the demo key is not given to it`);
    return 'skipped';
  }
  await connection.switchProfile(name);
  if (!(await connection.hasKey(profile))) await connection.setApiKey(EMULATOR_DEMO_KEY, profile);
  logger.info(`npm start: connected to the emulator at ${profile.billingBaseUrl} ("${name}")`);
  return 'connected';
}
