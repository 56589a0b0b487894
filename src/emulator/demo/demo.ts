// The built-in demo (no --config): one user with documented keys, endpoints of every kind, a few endpoints
// that only appear in historic usage, and about 400 days of synthetic usage so every bucket size shows
// something (issue 3). Documented in docs/emulator.md ("The built-in demo", with the prices); keep the two in step.
import type { EmulatorConfigInput } from '../config';
import { PUBLIC_MODELS, publicModelOfKind } from '../../core/serverless/publicModels';
import { WORKER_SHAPE_DEMO_ENDPOINTS } from './demoShapes';

// The public models are the catalog's (src/core/serverless/publicModels.ts), so the sidebar and the pickers
// know the demo's ones as public models.
const FLUX_SCHNELL = publicModelOfKind('image');
const VIDEO = publicModelOfKind('video');
const SPEECH = publicModelOfKind('audio');
// Every other model of the catalog is served too, so whatever a picker offers runs on the demo.
const OTHER_PUBLIC_MODELS = PUBLIC_MODELS.filter((m) => ![FLUX_SCHNELL, VIDEO, SPEECH].includes(m));

export const DEMO_KEYS = {
  full: 'demo-key-full',
  billing: 'demo-key-billing',
  sdxl: 'demo-key-sdxl',
  expired: 'demo-key-expired',
} as const;

export const DEMO_DAYS = 400;

export function demoConfig(): EmulatorConfigInput {
  return {
    rateLimits: { minute: 600, hour: 20_000, day: 200_000 },
    retentionMinutes: 30,
    users: [
      {
        id: 'demo',
        keys: [
          { key: DEMO_KEYS.full, scopes: ['billing:read', 'jobs:run', 'jobs:read', 'endpoints:read', 'endpoints:write'] },
          { key: DEMO_KEYS.billing, scopes: ['billing:read'] },
          { key: DEMO_KEYS.sdxl, scopes: ['jobs:run', 'jobs:read'], endpoints: ['sdxl-turbo'] },
          { key: DEMO_KEYS.expired, scopes: ['billing:read', 'jobs:run', 'jobs:read'], expiresAt: '2025-01-01T00:00:00Z' },
        ],
        endpoints: [
          { id: 'sdxl-turbo', name: 'SDXL Turbo', kind: 'image', queueMs: 300, executionMs: 1500 },
          // Dedicated endpoints are billed at their first pool's catalog price (no `prices` of their own), in all, so
          // what the extension estimates with (the GPU catalog, the price table) is what the demo bills: flux-dev at
          // ADA_48_PRO's $0.00053/s. (It once set $0.00076/s, and its batches were billed 43% over their estimate.)
          { id: 'flux-dev', name: 'FLUX.1 dev', kind: 'image', queueMs: 800, executionMs: 4000, gpuPools: ['ADA_48_PRO', 'AMPERE_48'] },
          { id: 'broken-gpu', name: 'Broken GPU (always fails)', kind: 'image', queueMs: 400, executionMs: 900, fail: 'CUDA out of memory: tried to allocate 2.00 GiB' },
          { id: FLUX_SCHNELL.id, name: FLUX_SCHNELL.name, kind: 'public-image', queueMs: 200, executionMs: 1200 },
          // Public models report their own cost (a model's price, not a pool's): set on purpose, billed as written.
          { id: VIDEO.id, name: VIDEO.name, kind: 'public-video', queueMs: 1000, executionMs: 6000, prices: { gpuPerSecond: 0.0012 } },
          { id: SPEECH.id, name: SPEECH.name, kind: 'public-audio', queueMs: 150, executionMs: 700, prices: { gpuPerSecond: 0.00019 } },
          ...OTHER_PUBLIC_MODELS.map((m) => ({ id: m.id, name: m.name, kind: `public-${m.kind}` as const, queueMs: 400, executionMs: 3000 })),
          { id: 'echo', name: 'Echo', kind: 'echo', queueMs: 100, executionMs: 200, gpuPools: ['AMPERE_16'] },
          // Issue 9: an endpoint whose cold start shows (8 s initializing) and whose two workers make a burst queue.
          // It scales on REQUEST_COUNT (the config default), where the platform stops idle workers after its own
          // 5 s and the API shows no idle timeout: so no idleTimeoutMs of its own, or the demo would keep workers
          // (and bill them) longer than every estimate and Tune's replay assume.
          { id: 'sd35-large', name: 'SD 3.5 Large (cold starts)', kind: 'image', queueMs: 500, executionMs: 5000, coldStartMs: 8000, workersMax: 2, gpuPools: ['ADA_48_PRO'] },
          // Issue 9: a streaming text worker (vLLM-shaped output); one active worker, so it answers without a cold start.
          { id: 'llama-chat', name: 'Llama 3.1 8B Instruct', kind: 'llm', queueMs: 150, workersMin: 1, workersMax: 3, coldStartMs: 4000 },
          // Issue 20: the output shapes of real deployed workers (ComfyUI, A1111, speech, faster-whisper...).
          ...WORKER_SHAPE_DEMO_ENDPOINTS,
        ],
        syntheticUsage: {
          days: DEMO_DAYS,
          seed: 20260615,
          endpoints: [
            { id: 'sdxl-turbo', scale: 0.9 },
            { id: 'flux-dev', scale: 1.6, fromDaysAgo: 300 },
            { id: 'broken-gpu', scale: 0.08, fromDaysAgo: 45 },
            { id: FLUX_SCHNELL.id, scale: 0.35 },
            { id: VIDEO.id, scale: 2.4, fromDaysAgo: 150 },
            { id: SPEECH.id, scale: 0.12, fromDaysAgo: 250 },
            { id: 'echo', scale: 0.01, fromDaysAgo: 20 },
            // Every demo endpoint costs something over the last 12 months (issue 22: these two read $0.00).
            { id: 'sd35-large', scale: 0.5, fromDaysAgo: 330 },
            { id: 'llama-chat', scale: 0.4, fromDaysAgo: 180 },
            ...WORKER_SHAPE_DEMO_ENDPOINTS.map((e) => ({ id: e.id, scale: 0.03, fromDaysAgo: 90 })),
            // Endpoints deleted long ago: they only exist in the usage history.
            { id: 'sd15-legacy', scale: 0.7, untilDaysAgo: 280 },
            { id: 'whisper-large-v3', scale: 0.25, fromDaysAgo: 360, untilDaysAgo: 120 },
            { id: 'llama-3-8b-instruct', scale: 1.1, fromDaysAgo: 200, untilDaysAgo: 35 },
          ],
        },
      },
    ],
  };
}
