import type { InputSource, TextSink } from '../cli-io.js';

/** Longest answer read; a person types `y` or `yes`, so more is not an answer (and is not kept). */
const MAX_ANSWER_BYTES = 1024;

/**
 * Asks a yes/no question on `output` (standard error, so stdout keeps only the result) and reads one
 * line from `input`. Only `y` or `yes` (any case, surrounding spaces ignored) is a yes; anything else,
 * an empty line or the end of input (Ctrl+D) is a no, so the safe answer is the default.
 *
 * A plain line read rather than Ink: the terminal is in its normal line mode, so it echoes, edits and
 * handles Ctrl+C (which ends the process with 130) by itself, and nothing here needs hiding.
 */
export async function confirm(question: string, input: InputSource, output: TextSink): Promise<boolean> {
  output.write(`${question} [y/N] `);
  const decoder = new TextDecoder();
  let answer = '';
  let size = 0;
  for await (const chunk of input) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    size += text.length;
    const end = text.search(/[\r\n]/);
    if (end !== -1) {
      answer += text.slice(0, end);
      break;
    }
    answer += text;
    if (size > MAX_ANSWER_BYTES) break;
  }
  return /^\s*y(es)?\s*$/i.test(answer.slice(0, MAX_ANSWER_BYTES));
}
