// The built-in demo's worker-shaped endpoints (issue 20): one per family of output real deployed workers return
// (./workerShapes.ts), so the demo and the tests show each. Documented in docs/emulator.md; keep the two in step.
import type { EmulatorConfigInput } from '../config';

type DemoEndpoint = NonNullable<EmulatorConfigInput['users'][number]['endpoints']>[number];

// Billed at their pool's catalog price (the default ADA_24, $0.00031/s), as the extension estimates them.
const quick = { queueMs: 200, executionMs: 900 };

export const WORKER_SHAPE_DEMO_ENDPOINTS: DemoEndpoint[] = [
  { id: 'comfyui', name: 'ComfyUI (base64 images)', kind: 'comfyui', ...quick },
  { id: 'comfyui-s3', name: 'ComfyUI (uploads, s3_url)', kind: 'comfyui-s3', ...quick },
  { id: 'a1111', name: 'Automatic1111 (bare base64)', kind: 'a1111', ...quick },
  { id: 'jpeg-handler', name: 'Custom handler (bare base64 JPEG)', kind: 'bare-jpeg', ...quick, executionMs: 300 },
  { id: 'tts-wav', name: 'Text to speech (base64 WAV)', kind: 'speech', ...quick, executionMs: 600 },
  { id: 'faster-whisper', name: 'faster-whisper (transcription)', kind: 'transcription', ...quick, executionMs: 1200 },
  { id: 'forgot-return', name: 'Forgot to return (empty output)', kind: 'empty', ...quick, executionMs: 200 },
];
