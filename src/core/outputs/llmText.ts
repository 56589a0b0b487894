// The text of a language model's output, in the shapes its workers return, so the panel shows words and not
// JSON: the platform's vLLM worker yields batches `{choices: [{tokens: [...]}], usage}` and, with its
// aggregated stream, ends with the list of every batch (github.com/runpod-workers/worker-vllm, src/engine.py);
// its OpenAI-compatible route gives `choices[].text`, `choices[].message.content` or, streamed,
// `choices[].delta.content`. Only outputs with `choices` count as text here: a bare string or an object of a
// custom worker stays JSON (it may be an id, a path, a verdict; showing it quoted tells the user exactly what came).

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The text of one choice, or undefined when it has none of the known fields. */
function choiceText(choice: unknown): string | undefined {
  if (!isObject(choice)) return undefined;
  const { tokens, text, message, delta } = choice;
  if (Array.isArray(tokens) && tokens.every((t) => typeof t === 'string')) return tokens.join('');
  if (typeof text === 'string') return text;
  if (isObject(message) && typeof message['content'] === 'string') return message['content'];
  if (isObject(delta)) return typeof delta['content'] === 'string' ? delta['content'] : '';
  return undefined;
}

/** The text of one batch `{choices: [...]}` (the first choice: the one a chat shows). */
function batchText(batch: unknown): string | undefined {
  if (!isObject(batch) || !Array.isArray(batch['choices'])) return undefined;
  const choices = batch['choices'];
  if (choices.length === 0) return '';
  return choiceText(choices[0]);
}

/**
 * The text of a whole LLM output (a batch, or a list of batches), or undefined when the output is not one.
 * Used for a finished job's output and, through streamChunkText, for each streamed item.
 */
export function llmText(output: unknown): string | undefined {
  if (Array.isArray(output)) {
    if (output.length === 0) return undefined;
    let text = '';
    for (const item of output) {
      const t = batchText(item);
      if (t === undefined) return undefined;
      text += t;
    }
    return text;
  }
  return batchText(output);
}

/**
 * The text of one streamed item's `output`: an LLM batch, or a plain string (a generator handler that yields
 * text). Undefined for anything else (an image job's whole output, streamed once at its end).
 */
export function streamChunkText(output: unknown): string | undefined {
  if (typeof output === 'string') return output;
  return llmText(output);
}
