// The body of /run and /runsync: SPEC 4.2's `{"input": {...}}` (the core client's own RunRequest schema), plus
// the optional top-level fields of the platform docs ("Send API requests", Advanced options): `webhook`,
// `policy` {executionTimeout > 5000 ms, lowPriority, ttl 10 s..1 week} and `s3Config` (accepted and ignored:
// the emulated workers store nothing). Anything else is still a 400 that names it, in JSON-path words.
import * as z from 'zod/mini';
import { RunRequest } from '../../core/schemas';
import '../../core/zodMessages';
import { HttpProblem } from '../http/respond';

const WEEK_MS = 7 * 86_400_000;

const Policy = z.strictObject({
  executionTimeout: z.optional(z.int().check(z.gt(5000), z.lte(WEEK_MS))),
  lowPriority: z.optional(z.boolean()),
  ttl: z.optional(z.int().check(z.gte(10_000), z.lte(WEEK_MS))),
});

const S3Config = z.looseObject({
  accessId: z.string(),
  accessSecret: z.string(),
  bucketName: z.string(),
  endpointUrl: z.string(),
  objectPath: z.optional(z.string()),
});

const SubmitBody = z.extend(RunRequest, {
  webhook: z.optional(z.string()),
  policy: z.optional(Policy),
  s3Config: z.optional(S3Config),
});

export interface RunBody {
  input: Record<string, unknown>;
  webhook?: string;
  policy: { executionTimeout?: number; lowPriority: boolean; ttl?: number };
}

/** Hosts a webhook may name: the emulator never sends a job's data off the machine. */
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]|localhost)$/i;

function checkWebhook(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `$.webhook: not a URL (got ${JSON.stringify(url)})`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `$.webhook: must be an http or https URL (got ${u.protocol})`;
  if (!LOOPBACK.test(u.hostname)) {
    return `$.webhook: the emulator only calls loopback addresses (127.0.0.1, [::1], localhost), so a job's data never leaves this machine; got host ${u.hostname}`;
  }
  return undefined;
}

function describeIssue(json: unknown, issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? `$.${issue.path.map(String).join('.')}` : '$';
  if (issue.code === 'unrecognized_keys') return `${where}: additional properties ${issue.keys.map((k) => `'${k}'`).join(', ')} not allowed`;
  if (issue.path.length === 0) return '$: must be a JSON object with the property "input" (and optionally webhook, policy, s3Config)';
  if (issue.path.length === 1 && issue.path[0] === 'input') {
    return (json as Record<string, unknown>).input === undefined ? "$: missing required property 'input'" : '$.input: must be a JSON object';
  }
  return `${where}: ${issue.message}`;
}

export function parseRunBody(body: Buffer): RunBody {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new HttpProblem(400, `The request body is not valid JSON: ${(err as Error).message}`, ['$: not valid JSON']);
  }
  const r = SubmitBody.safeParse(json);
  const errors = r.success ? [] : r.error.issues.map((i) => describeIssue(json, i));
  const webhookError = r.success && r.data.webhook !== undefined ? checkWebhook(r.data.webhook) : undefined;
  if (webhookError) errors.push(webhookError);
  if (!r.success || errors.length) throw new HttpProblem(400, `The request body is invalid: ${errors.join('; ')}.`, errors);
  const { input, webhook, policy } = r.data;
  return { input, webhook, policy: { executionTimeout: policy?.executionTimeout, lowPriority: policy?.lowPriority ?? false, ttl: policy?.ttl } };
}
