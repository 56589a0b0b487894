// The `llm` endpoint kind (issue 9): a text worker that writes deterministic text from the prompt, a few
// tokens per 100 ms of emulator clock, readable through /stream while it runs. Shapes follow the platform's
// vLLM worker (github.com/runpod-workers/worker-vllm, src/engine.py): each streamed batch is
// `{choices: [{tokens: [...]}], usage: {input, output}}` (`output` counting the tokens so far), and with the
// worker's aggregated stream the job's final `output` is the list of every batch. Inputs as in the docs'
// "Send vLLM requests": `prompt`, or `messages` (role/content), and `sampling_params.max_tokens`.
import { hashString, seededRandom } from '../../prng';

export const TOKENS_PER_TICK = 3;
export const TICK_MS = 100;
/** Without max_tokens the emulated model ends its answer on its own, after 40 to 79 tokens. */
const MIN_NATURAL_TOKENS = 40;
const MAX_TOKENS = 4096;

const WORDS = [
  'the', 'model', 'runs', 'on', 'a', 'warm', 'worker', 'and', 'answers', 'in', 'small', 'steps', 'so', 'you',
  'can', 'watch', 'each', 'token', 'arrive', 'while', 'queue', 'waits', 'for', 'GPU', 'time', 'with', 'care',
  'every', 'reply', 'is', 'made', 'from', 'your', 'prompt', 'alone', 'same', 'words', 'again', 'next',
];

export interface LlmPlan {
  /** The whole answer, one entry per token (a word with its leading space, or punctuation). */
  tokens: string[];
  inputTokens: number;
}

export type LlmInput = { ok: true; plan: LlmPlan } | { ok: false; error: string };

function promptOf(input: Record<string, unknown>): string | { error: string } {
  const { prompt, messages } = input;
  if (messages !== undefined) {
    if (!Array.isArray(messages) || messages.some((m) => typeof m !== 'object' || m === null || typeof (m as { content?: unknown }).content !== 'string')) {
      return { error: 'input.messages must be a list of {role, content} objects with string content' };
    }
    return messages.map((m) => (m as { content: string }).content).join('\n');
  }
  if (typeof prompt !== 'string') return { error: 'input.prompt must be a string (or give input.messages)' };
  return prompt;
}

function maxTokensOf(input: Record<string, unknown>): number | { error: string } | undefined {
  const sp = input.sampling_params;
  if (sp === undefined) return undefined;
  if (typeof sp !== 'object' || sp === null || Array.isArray(sp)) return { error: 'input.sampling_params must be an object' };
  const v = (sp as Record<string, unknown>).max_tokens;
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_TOKENS) {
    return { error: `input.sampling_params.max_tokens must be an integer from 1 to ${MAX_TOKENS} (got ${JSON.stringify(v)})` };
  }
  return v;
}

/** The answer the emulated model gives to `input`: the same every time for the same prompt. */
export function planLlm(input: Record<string, unknown>): LlmInput {
  const prompt = promptOf(input);
  if (typeof prompt !== 'string') return { ok: false, error: prompt.error };
  const max = maxTokensOf(input);
  if (typeof max === 'object') return { ok: false, error: max.error };
  const h = hashString(prompt);
  const rnd = seededRandom(h);
  const natural = MIN_NATURAL_TOKENS + (h % MIN_NATURAL_TOKENS);
  const echo = prompt.trim().split(/\s+/).filter(Boolean).slice(0, 6);
  const tokens = [' You', ' asked', ':', ...echo.map((w) => ` ${w}`), '.'];
  while (tokens.length < natural) {
    tokens.push(` ${WORDS[Math.floor(rnd() * WORDS.length)]}`);
    if (rnd() < 0.12) tokens.push(rnd() < 0.5 ? ',' : '.');
  }
  tokens.length = Math.min(natural, max ?? natural);
  const inputTokens = prompt.trim() === '' ? 0 : prompt.trim().split(/\s+/).length;
  return { ok: true, plan: { tokens, inputTokens } };
}

export function tickCount(plan: LlmPlan): number {
  return Math.max(1, Math.ceil(plan.tokens.length / TOKENS_PER_TICK));
}

/** How long the worker takes to write the whole answer. An input it cannot use fails after one tick. */
export function llmExecutionMs(input: Record<string, unknown>): number {
  const p = planLlm(input);
  return (p.ok ? tickCount(p.plan) : 1) * TICK_MS;
}

/** Batch `k` (0-based) of the answer, as the vLLM worker yields it. */
export function llmBatch(plan: LlmPlan, k: number): { choices: Array<{ tokens: string[] }>; usage: { input: number; output: number } } {
  const tokens = plan.tokens.slice(k * TOKENS_PER_TICK, (k + 1) * TOKENS_PER_TICK);
  return { choices: [{ tokens }], usage: { input: plan.inputTokens, output: Math.min(plan.tokens.length, (k + 1) * TOKENS_PER_TICK) } };
}

/** How many batches exist `elapsedMs` after the job started running. */
export function batchesAt(plan: LlmPlan, elapsedMs: number): number {
  return Math.max(0, Math.min(tickCount(plan), Math.floor(elapsedMs / TICK_MS)));
}
