// What a finished job returns, by endpoint kind (SPEC 2.8, issue 3 "Outputs"). The input object is the
// worker's business (SPEC 2.8: the complete schema is not shown), so inputs the emulated worker cannot use
// (a width of 5000) end the job FAILED with a message, like a real worker would, rather than a 400.
import { SAMPLE_VIDEO_WEBM_BASE64 } from './assets/sampleVideo';
import type { EndpointConfig } from '../config';
import { FILE_TTL_MS, type FileStore } from '../fileStore';
import { drawImage } from './png';
import { llmBatch, planLlm, tickCount } from '../workers/simulated/llm';
import { hashString } from '../prng';
import { synthesizeWav } from './wav';
import { resultTooLarge, shapedOutput, ShapeInputError } from './workerShapes';

export const MAX_IMAGE_SIDE = 2048;
export const DEFAULT_IMAGE_SIDE = 512;
export const MAX_NUM_IMAGES = 8;

const SAMPLE_VIDEO = Buffer.from(SAMPLE_VIDEO_WEBM_BASE64, 'base64');

export interface OutputContext {
  jobId: string;
  endpoint: EndpointConfig;
  input: Record<string, unknown>;
  /** What the job cost (USD): public endpoints report it in the output. */
  cost: number;
  finishedAtMs: number;
  /** Origin of the emulator, for file URLs (`http://127.0.0.1:PORT`). */
  origin: string;
  files: FileStore;
}

export type JobResult = { ok: true; output: unknown } | { ok: false; error: string };

class BadInput extends Error {}

function intField(input: Record<string, unknown>, name: string, def: number, min: number, max: number): number {
  const v = input[name];
  if (v === undefined || v === null) return def;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new BadInput(`input.${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(v)})`);
  }
  return v;
}

function textField(input: Record<string, unknown>, ...names: string[]): string {
  for (const n of names) {
    const v = input[n];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw new BadInput(`input.${n} must be a string (got ${JSON.stringify(v)})`);
    return v;
  }
  return '';
}

interface ImageParams {
  prompt: string;
  width: number;
  height: number;
  seed: number;
}

function imageParams(ctx: OutputContext): ImageParams {
  const { input } = ctx;
  return {
    prompt: textField(input, 'prompt'),
    width: intField(input, 'width', DEFAULT_IMAGE_SIDE, 1, MAX_IMAGE_SIDE),
    height: intField(input, 'height', DEFAULT_IMAGE_SIDE, 1, MAX_IMAGE_SIDE),
    // Without a seed the worker picks one (from the job id, so it is stable for this job) and reports it.
    seed: intField(input, 'seed', hashString(ctx.jobId) & 0x7fffffff, 0, 0xffffffff),
  };
}

function publicFile(ctx: OutputContext, name: string, contentType: string, body: () => Buffer): string {
  ctx.files.put(ctx.jobId, name, { contentType, expiresAtMs: ctx.finishedAtMs + FILE_TTL_MS, body });
  return `${ctx.origin}/files/${encodeURIComponent(ctx.jobId)}/${name}`;
}

export function buildOutput(ctx: OutputContext): JobResult {
  if (ctx.endpoint.fail !== undefined) return { ok: false, error: ctx.endpoint.fail };
  try {
    switch (ctx.endpoint.kind) {
      case 'echo':
        return { ok: true, output: ctx.input };
      case 'llm': {
        // The vLLM worker aggregates its stream: the final output is the list of every batch it yielded.
        const p = planLlm(ctx.input);
        if (!p.ok) return { ok: false, error: p.error };
        return { ok: true, output: Array.from({ length: tickCount(p.plan) }, (_, k) => llmBatch(p.plan, k)) };
      }
      case 'image': {
        const p = imageParams(ctx);
        const count = intField(ctx.input, 'num_images', 1, 1, MAX_NUM_IMAGES);
        const output = [];
        for (let i = 0; i < count; i++) {
          const seed = (p.seed + i) >>> 0;
          output.push({ image_url: `data:image/png;base64,${drawImage(p.prompt, seed, p.width, p.height).toString('base64')}`, seed });
        }
        return { ok: true, output };
      }
      case 'public-image': {
        const p = imageParams(ctx);
        const url = publicFile(ctx, 'image.png', 'image/png', () => drawImage(p.prompt, p.seed, p.width, p.height));
        return { ok: true, output: { image_url: url, cost: ctx.cost } };
      }
      case 'public-audio': {
        const text = textField(ctx.input, 'prompt', 'text');
        const url = publicFile(ctx, 'audio.wav', 'audio/wav', () => synthesizeWav(text));
        return { ok: true, output: { audio_url: url, cost: ctx.cost } };
      }
      case 'public-video': {
        textField(ctx.input, 'prompt');
        const url = publicFile(ctx, 'video.webm', 'video/webm', () => SAMPLE_VIDEO);
        return { ok: true, output: { video_url: url, cost: ctx.cost } };
      }
      case 'worker':
        // A worker endpoint's output is what its handler returned (workers/process/processWorkers.ts sets it).
        return { ok: false, error: 'The worker reported no result.' };
      default: {
        // The worker-shaped demo endpoints (issue 20): the shapes real deployed workers answer in.
        const p = imageParams(ctx);
        const count = intField(ctx.input, 'num_images', 1, 1, MAX_NUM_IMAGES);
        const publish = (name: string, type: string, body: () => Buffer): string => publicFile(ctx, name, type, body);
        const output = shapedOutput(ctx.endpoint.kind, { jobId: ctx.jobId, ...p, count, input: ctx.input, publish });
        const tooLarge = resultTooLarge(output);
        return tooLarge ? { ok: false, error: tooLarge } : { ok: true, output };
      }
    }
  } catch (err) {
    if (err instanceof BadInput || err instanceof ShapeInputError) return { ok: false, error: err.message };
    throw err;
  }
}
