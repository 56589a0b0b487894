// The environment a worker process is started with (issue 14): the variables through which the platform's Python
// SDK (runpod 1.12.0) finds the platform, pointed at the emulator on loopback. What the SDK does with each, from
// its source (runpod/serverless/modules/):
// - RUNPOD_WEBHOOK_GET_JOB (rp_job.py): the job-take URL; "$ID" in it becomes the worker id, the SDK appends
//   `&job_in_progress=0|1` (so the URL needs a query string already), swaps `/job-take/` for `/job-take-batch/`
//   and adds `&batch_size=N` when its concurrency allows more than one job, and derives the stop channel by
//   swapping `/job-take/` for `/job-stop/`.
// - RUNPOD_WEBHOOK_POST_OUTPUT, RUNPOD_WEBHOOK_POST_STREAM (rp_http.py): "$RUNPOD_POD_ID" becomes the worker id,
//   "$ID" the job id; the SDK appends `&isStream=true|false`.
// - RUNPOD_WEBHOOK_PING, RUNPOD_PING_INTERVAL (rp_ping.py): the heartbeat, a GET every interval (ms, read in whole
//   seconds) from a separate process; it only runs when RUNPOD_AI_API_KEY and RUNPOD_POD_ID are set.
// - RUNPOD_AI_API_KEY: sent raw as `Authorization` (the SDK prefers ~/.runpod/config.toml's key when the user has
//   one, so the emulator authenticates workers by the per-worker token in the URLs, never by that header).
// - RUNPOD_SKIP_AUTO_SYSTEM_CHECKS, RUNPOD_SKIP_GPU_CHECK (rp_fitness.py): the SDK's start-up fitness checks
//   (4 GB of memory, a TCP connection to 8.8.8.8:53, a GPU) would kill a worker on an offline laptop; they test
//   the platform's machine, not the handler, so emulated workers skip them.
export interface ProtocolEnvInput {
  origin: string;
  workerId: string;
  token: string;
  endpointId: string;
  pingIntervalMs: number;
}

export const WORKER_PATH = '/__worker';

export function protocolEnv(i: ProtocolEnvInput): Record<string, string> {
  const base = `${i.origin}${WORKER_PATH}`;
  const q = `?token=${encodeURIComponent(i.token)}`;
  return {
    RUNPOD_WEBHOOK_GET_JOB: `${base}/job-take/$ID${q}`,
    RUNPOD_WEBHOOK_POST_OUTPUT: `${base}/job-done/$RUNPOD_POD_ID/$ID${q}`,
    RUNPOD_WEBHOOK_POST_STREAM: `${base}/job-stream/$RUNPOD_POD_ID/$ID${q}`,
    RUNPOD_WEBHOOK_PING: `${base}/ping/$RUNPOD_POD_ID${q}`,
    RUNPOD_PING_INTERVAL: String(i.pingIntervalMs),
    RUNPOD_POD_ID: i.workerId,
    RUNPOD_POD_HOSTNAME: `${i.workerId}-emulated`,
    RUNPOD_AI_API_KEY: i.token,
    RUNPOD_SKIP_AUTO_SYSTEM_CHECKS: 'true',
    RUNPOD_SKIP_GPU_CHECK: 'true',
    PYTHONUNBUFFERED: '1',
    // Not RUNPOD_ENDPOINT_ID: with it the SDK's logger writes JSON lines instead of the readable ones.
    SERVERLESS_EMULATOR_ENDPOINT_ID: i.endpointId,
  };
}
