import type { InputSource } from '../cli-io.js';
import { UsageError } from '../errors/cli-error.js';

/** More than this on stdin is not a password (and must not be read forever, e.g. from /dev/zero). */
export const MAX_PASSWORD_INPUT_BYTES = 64 * 1024;

const suggestion =
  'Pipe the password in, e.g. `printf %s "$PASSWORD" | planwright login --email <address> --password-stdin`.';

/**
 * Reads the password for `--password-stdin`: everything on stdin up to its end, as UTF-8, minus one
 * trailing newline (`\n` or `\r\n`, what `echo` or a password file adds). Nothing else is trimmed:
 * passwords are hashed exactly as typed, spaces included.
 *
 * @throws UsageError when stdin is missing, empty, too long or not UTF-8. The message never quotes it.
 */
export async function readPasswordFromStdin(stdin: InputSource | undefined): Promise<string> {
  if (!stdin) throw new UsageError('--password-stdin: there is no standard input to read', { suggestion });
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    size += bytes.byteLength;
    if (size > MAX_PASSWORD_INPUT_BYTES) {
      throw new UsageError(
        `--password-stdin: more than ${MAX_PASSWORD_INPUT_BYTES / 1024} KiB on standard input; expected one password`,
        { suggestion },
      );
    }
    chunks.push(bytes);
  }

  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new UsageError('--password-stdin: standard input is not UTF-8 text', { suggestion });
  }
  const password = text.replace(/\r?\n$/, '');
  if (password === '') {
    throw new UsageError('--password-stdin: standard input was empty; expected the password', { suggestion });
  }
  return password;
}
