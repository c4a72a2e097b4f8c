import type { InputSource } from '../cli-io.js';
import { UsageError } from '../errors/cli-error.js';

/** More than this on stdin is not a password (and must not be read forever, e.g. from /dev/zero). */
export const MAX_PASSWORD_INPUT_BYTES = 64 * 1024;

const suggestion =
  'Pipe the password in, e.g. `printf %s "$PASSWORD" | planwright login --email <address> --password-stdin`.';

/** Which secret is read and how to pipe it in, for the refusals' words. */
export interface SecretInput {
  /** The option that reads it: `--password-stdin`. */
  option: string;
  /** What it is, with its article: `the password`, `a token`. */
  what: string;
  /** How to pipe it in. */
  suggestion: string;
}

/**
 * Reads the password for `--password-stdin`: everything on stdin up to its end, as UTF-8, minus one
 * trailing newline (`\n` or `\r\n`, what `echo` or a password file adds). Nothing else is trimmed:
 * passwords are hashed exactly as typed, spaces included.
 *
 * @throws UsageError when stdin is missing, empty, too long or not UTF-8. The message never quotes it.
 */
export function readPasswordFromStdin(stdin: InputSource | undefined): Promise<string> {
  return readSecretFromStdin(stdin, { option: '--password-stdin', what: 'the password', suggestion });
}

/**
 * Reads a secret piped in ({@link readPasswordFromStdin}'s rules), naming `input.option` in its refusals.
 *
 * @throws UsageError when stdin is missing, empty, too long or not UTF-8. The message never quotes it.
 */
export async function readSecretFromStdin(
  stdin: InputSource | undefined,
  input: SecretInput,
): Promise<string> {
  const refuse = (message: string) =>
    new UsageError(`${input.option}: ${message}`, { suggestion: input.suggestion });
  if (!stdin) throw refuse('there is no standard input to read');
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    size += bytes.byteLength;
    if (size > MAX_PASSWORD_INPUT_BYTES) {
      throw refuse(
        `more than ${MAX_PASSWORD_INPUT_BYTES / 1024} KiB on standard input; expected ${input.what.replace(/^the /, 'one ')}`,
      );
    }
    chunks.push(bytes);
  }

  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw refuse('standard input is not UTF-8 text');
  }
  const secret = text.replace(/\r?\n$/, '');
  if (secret === '') throw refuse(`standard input was empty; expected ${input.what}`);
  return secret;
}
