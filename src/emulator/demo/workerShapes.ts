// Demo workers that answer in the shapes real deployed workers use (issue 20), so the extension's outputs can
// be seen and tested against each family offline. One endpoint kind per shape; documented in docs/emulator.md
// ("Worker-shaped demo endpoints"). The bytes are real: PNGs drawn by ./png.ts, a shipped JPEG
// (assets/sampleJpeg.ts), a WAV from ./wav.ts.
//   comfyui        {images: [{filename: "ComfyUI_00001_.png", type: "base64", data}]}  (runpod-workers/worker-comfyui)
//   comfyui-s3     the same with type "s3_url" and data an http link served by this emulator (its bucket upload)
//   a1111          {images: ["<bare base64 PNG>"], parameters, info: "<json string>"}  (Automatic1111 API workers)
//   bare-jpeg      "<bare base64 JPEG>" as the whole output (hand-written handlers)
//   speech         {audio_base64: "<base64 WAV>", sample_rate, format: "wav"}  (text-to-speech handlers)
//   transcription  {transcription, segments, detected_language, ...}  (runpod-workers/worker-faster_whisper)
//   empty          null: a handler that forgot to return
import { approximateJsonBytes } from '../../core/outputs/resultNotes';
import { RESULT_LIMIT_BYTES, resultTooLargeMessage } from '../jobs/resultLimit';
import { SAMPLE_JPEG_BASE64 } from './assets/sampleJpeg';
import { hashString } from '../prng';
import { drawImage } from './png';
import { synthesizeWav, WAV_SAMPLE_RATE } from './wav';

export const WORKER_SHAPE_KINDS = ['comfyui', 'comfyui-s3', 'a1111', 'bare-jpeg', 'speech', 'transcription', 'empty'] as const;
export type WorkerShapeKind = (typeof WORKER_SHAPE_KINDS)[number];

/** Largest JPEG a comfyui job may ask for with `jpeg_bytes` (the memory bench's ~20 MB output needs four of ~3.6 MB). */
export const MAX_PADDED_JPEG_BYTES = 8 * 1024 * 1024;

const SAMPLE_JPEG = Buffer.from(SAMPLE_JPEG_BASE64, 'base64');
const DEFAULT_HEARD = 'The quick brown fox jumps over the lazy dog. Every good boy deserves fudge. Pack my box with five dozen liquor jugs.';

export interface ShapeParams {
  jobId: string;
  prompt: string;
  width: number;
  height: number;
  seed: number;
  count: number;
  input: Record<string, unknown>;
  /** Stores a file the emulator serves without auth, and gives its URL (the "bucket" of comfyui-s3). */
  publish(name: string, contentType: string, body: () => Buffer): string;
}

export class ShapeInputError extends Error {}

export function shapedOutput(kind: WorkerShapeKind, p: ShapeParams): unknown {
  switch (kind) {
    case 'comfyui': {
      const jpeg = p.input['format'] === 'jpeg';
      const padTo = jpegBytes(p.input);
      return {
        images: Array.from({ length: p.count }, (_, i) => ({
          filename: `ComfyUI_${String(i + 1).padStart(5, '0')}_.${jpeg ? 'jpg' : 'png'}`,
          type: 'base64',
          data: (jpeg ? paddedJpeg(padTo) : drawImage(p.prompt, (p.seed + i) >>> 0, p.width, p.height)).toString('base64'),
        })),
      };
    }
    case 'comfyui-s3':
      return {
        images: Array.from({ length: p.count }, (_, i) => {
          const filename = `ComfyUI_${String(i + 1).padStart(5, '0')}_.png`;
          return { filename, type: 's3_url', data: p.publish(filename, 'image/png', () => drawImage(p.prompt, (p.seed + i) >>> 0, p.width, p.height)) };
        }),
      };
    case 'a1111': {
      const parameters = { prompt: p.prompt, negative_prompt: '', seed: p.seed, steps: 20, cfg_scale: 7, width: p.width, height: p.height, batch_size: p.count, sampler_name: 'Euler a' };
      const images = Array.from({ length: p.count }, (_, i) => drawImage(p.prompt, (p.seed + i) >>> 0, p.width, p.height).toString('base64'));
      // A1111 answers `info` as a JSON string, not an object.
      return { images, parameters, info: JSON.stringify({ ...parameters, all_seeds: images.map((_, i) => (p.seed + i) >>> 0), infotexts: [`${p.prompt}\nSteps: 20, Seed: ${p.seed}`] }) };
    }
    case 'bare-jpeg':
      return SAMPLE_JPEG_BASE64;
    case 'speech': {
      const wav = synthesizeWav(p.prompt || 'Hello from the emulator.');
      return { audio_base64: wav.toString('base64'), sample_rate: WAV_SAMPLE_RATE, format: 'wav' };
    }
    case 'transcription':
      return transcription(typeof p.input['text'] === 'string' && p.input['text'].trim() ? p.input['text'] : DEFAULT_HEARD, p.jobId);
    case 'empty':
      return null;
  }
}

/**
 * The error of a job whose result is over the platform's ~20 MB limit: there the worker's result post is refused
 * (400) and the job fails, so a demo worker asked for more (comfyui with many big JPEGs) fails the same way.
 */
export function resultTooLarge(output: unknown): string | undefined {
  const bytes = approximateJsonBytes(output);
  if (bytes <= RESULT_LIMIT_BYTES) return undefined;
  return resultTooLargeMessage(bytes);
}

function jpegBytes(input: Record<string, unknown>): number {
  const v = input['jpeg_bytes'];
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_PADDED_JPEG_BYTES) {
    throw new ShapeInputError(`input.jpeg_bytes must be an integer from 0 to ${MAX_PADDED_JPEG_BYTES} (got ${JSON.stringify(v)})`);
  }
  return v;
}

/**
 * The sample JPEG grown to about `size` bytes with comment segments (0xFFFE, ITU T.81 B.2.4.5) after its start
 * marker: still a valid JPEG that decodes to the same picture, as big as a real 4K render, without an encoder.
 */
export function paddedJpeg(size: number): Buffer {
  const missing = size - SAMPLE_JPEG.length;
  if (missing <= 4) return SAMPLE_JPEG;
  const segments: Buffer[] = [];
  for (let left = missing; left > 4;) {
    const body = Math.min(65_533, left - 4);
    const segment = Buffer.alloc(4 + body, 0x20);
    segment[0] = 0xff;
    segment[1] = 0xfe;
    segment.writeUInt16BE(body + 2, 2);
    segments.push(segment);
    left -= segment.length;
  }
  return Buffer.concat([SAMPLE_JPEG.subarray(0, 2), ...segments, SAMPLE_JPEG.subarray(2)]);
}

/** What faster-whisper answers for speech of `heard`: one segment per sentence, 0.38 s a word. */
function transcription(heard: string, jobId: string): unknown {
  const sentences = heard.match(/[^.!?]+[.!?]*/g)?.map((s) => s.trim()).filter(Boolean) ?? [heard];
  let t = 0;
  const segments = sentences.map((text, id) => {
    const start = t;
    t = Math.round((t + text.split(/\s+/).length * 0.38) * 100) / 100;
    return { id, seek: Math.round(start * 100), start, end: t, text: ` ${text}`, tokens: [50364 + id], temperature: 0, avg_logprob: -0.21, compression_ratio: 1.2, no_speech_prob: (hashString(`${jobId}${id}`) % 100) / 2000 };
  });
  return { segments, detected_language: 'en', transcription: ` ${sentences.join(' ')}`, translation: null, device: 'cuda', model: 'turbo' };
}
