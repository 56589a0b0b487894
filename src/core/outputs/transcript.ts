// A speech-to-text worker's answer as a transcript: the platform's faster-whisper worker returns
// `{transcription, segments: [{id, start, end, text, ...}], detected_language, translation, device, model}`
// (github.com/runpod-workers/worker-faster_whisper, src/predict.py); OpenAI-Whisper-shaped handlers return
// `{text, segments: [{start, end, text}], language}`. Shown as words with their times, saved as transcript.txt.

export interface TranscriptSegment {
  /** Seconds from the start of the audio. */
  start: number;
  end: number;
  text: string;
}

export interface Transcript {
  text: string;
  segments: TranscriptSegment[];
  language?: string;
  /** The keys the transcript was read from: not repeated in the JSON beside it. */
  consumed: string[];
}

/** Segments beyond this are left in job.json only: the panel shows words, not a novel. */
export const MAX_SEGMENTS = 2000;

/** The transcript in `item`, or undefined when it is not shaped like one. */
export function readTranscript(item: Record<string, unknown>): Transcript | undefined {
  const segments = readSegments(item['segments']);
  const transcription = item['transcription'];
  const consumed: string[] = [];
  let text: string | undefined;
  if (typeof transcription === 'string') {
    text = transcription;
    consumed.push('transcription');
  } else if (typeof item['text'] === 'string' && segments !== undefined) {
    // A bare `text` is an answer of any kind; beside timed segments it is a transcript.
    text = item['text'];
    consumed.push('text');
  }
  if (text === undefined) return undefined;
  if (segments !== undefined) consumed.push('segments');
  const language = [item['detected_language'], item['language']].find((l): l is string => typeof l === 'string' && l.length > 0 && l.length <= 40);
  for (const key of ['detected_language', 'language']) if (typeof item[key] === 'string') consumed.push(key);
  return { text: text.trim(), segments: segments ?? [], ...(language ? { language } : {}), consumed };
}

function readSegments(value: unknown): TranscriptSegment[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const segments: TranscriptSegment[] = [];
  for (const s of value.slice(0, MAX_SEGMENTS)) {
    if (typeof s !== 'object' || s === null) return undefined;
    const { start, end, text } = s as Record<string, unknown>;
    if (typeof start !== 'number' || typeof end !== 'number' || typeof text !== 'string' || !Number.isFinite(start) || !Number.isFinite(end)) return undefined;
    segments.push({ start, end, text: text.trim() });
  }
  return segments;
}

/** "01:02.5": minutes and seconds, tenths shown; hours only when there are any. */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = (s % 60).toFixed(1).padStart(4, '0');
  return `${h > 0 ? `${h}:${String(m).padStart(2, '0')}` : String(m).padStart(2, '0')}:${rest}`;
}

/** The transcript as the text file saved beside job.json: the text, then one line per segment with its times. */
export function transcriptFileText(t: { text: string; segments: readonly TranscriptSegment[]; language?: string }): string {
  const lines = [t.text, ''];
  if (t.language) lines.push(`Language: ${t.language}`, '');
  for (const s of t.segments) lines.push(`[${formatSeconds(s.start)} → ${formatSeconds(s.end)}] ${s.text}`);
  return `${lines.join('\n').trimEnd()}\n`;
}
