// A real WAV file (RIFF, PCM 16-bit mono) for `public-audio` endpoints: a short two-tone chirp whose pitches
// come from the prompt, so different texts sound different and the same text always gives the same bytes.
import { hashString, seededRandom } from '../prng';

export const WAV_SAMPLE_RATE = 22_050;

export function synthesizeWav(text: string, seconds = 1.5): Buffer {
  const rnd = seededRandom(hashString(text));
  const f0 = 220 + rnd() * 440;
  const f1 = f0 * (1.25 + rnd() * 0.75);
  const n = Math.round(WAV_SAMPLE_RATE * seconds);
  const out = Buffer.alloc(44 + n * 2);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(36 + n * 2, 4);
  out.write('WAVE', 8, 'latin1');
  out.write('fmt ', 12, 'latin1');
  out.writeUInt32LE(16, 16); // fmt chunk size
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(WAV_SAMPLE_RATE, 24);
  out.writeUInt32LE(WAV_SAMPLE_RATE * 2, 28); // byte rate
  out.writeUInt16LE(2, 32); // block align
  out.writeUInt16LE(16, 34); // bits per sample
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(n * 2, 40);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const t = i / n;
    const f = f0 + (f1 - f0) * t; // linear chirp
    phase += (2 * Math.PI * f) / WAV_SAMPLE_RATE;
    const envelope = Math.min(1, t * 20, (1 - t) * 10); // short fade in and out: no clicks
    const s = (Math.sin(phase) * 0.8 + Math.sin(phase * 2) * 0.2) * envelope * 0.6;
    out.writeInt16LE(Math.round(s * 32767), 44 + i * 2);
  }
  return out;
}
