import { dirname, join } from 'node:path';
import type { SessionSnapshot } from '@planwright/sdk';
import * as z from 'zod';
import type { CliIo } from '../cli-io.js';
import { CONFIG_DIR_ENV, configDirectory } from '../config/config-file.js';
import { CliErrorCode, SessionFileError } from '../errors/cli-error.js';
import { parseJsonFile } from '../files/json-file.js';
import { describeFsError, readTextFileIfPresent, writePrivateFileAtomically } from '../files/private-file.js';

const SESSION_FILE_NAME = 'session.json';

/** `session.json`, beside `config.json` (so `PLANWRIGHT_CONFIG_DIR` moves both). */
export function sessionFilePath(io: CliIo): string {
  return join(configDirectory(io), SESSION_FILE_NAME);
}

const storedText = z.string().nullable().default(null);

/** One server's session as the file keeps it: what the SDK's token store holds. */
export const storedSessionSchema = z.object({
  token: z.string().min(1),
  email: storedText,
  name: storedText,
  avatarUrl: storedText,
});

export type StoredSession = z.output<typeof storedSessionSchema>;

/**
 * The session file: one session per server, keyed by the server URL as `--server` normalises it
 * (`http://127.0.0.1:8787`, `https://example.com/planwright`), so signing in to a second server keeps
 * the first session. Loose at the top, like the config file: keys of a newer planwright survive.
 */
export const sessionFileSchema = z.looseObject({
  sessions: z.record(z.string(), storedSessionSchema).default({}),
});

export type SessionFile = z.output<typeof sessionFileSchema>;

/** The stored session for `serverUrl`, if any (own keys only: a URL is never `__proto__`, but still). */
export function sessionFor(file: SessionFile, serverUrl: string): StoredSession | undefined {
  return Object.hasOwn(file.sessions, serverUrl) ? file.sessions[serverUrl] : undefined;
}

/** `file` with the session of `serverUrl` replaced by `snapshot`, or removed when it has no token. */
export function withSession(file: SessionFile, serverUrl: string, snapshot: SessionSnapshot): SessionFile {
  const { [serverUrl]: _previous, ...others } = file.sessions;
  if (snapshot.token === null) return { ...file, sessions: others };
  const { token, email, name, avatarUrl } = snapshot;
  return { ...file, sessions: { ...others, [serverUrl]: { token, email, name, avatarUrl } } };
}

/**
 * Reads and validates the session file. A missing file holds no sessions; an unreadable, unparsable
 * or invalid one is a {@link SessionFileError} naming the file.
 */
export async function readSessionFile(path: string): Promise<SessionFile> {
  let text: string | undefined;
  try {
    text = await readTextFileIfPresent(path);
  } catch (error) {
    throw new SessionFileError(
      CliErrorCode.sessionFileUnreadable,
      path,
      `cannot read the session file ${path}: ${describeFsError(error)}`,
      { suggestion: `Check the permissions of ${path}.`, cause: error },
    );
  }
  if (text === undefined) return { sessions: {} };

  const checked = parseJsonFile(text, sessionFileSchema);
  if (checked.ok) return checked.data;
  throw new SessionFileError(
    CliErrorCode.sessionFileInvalid,
    path,
    `the session file ${path} ${checked.reason}`,
    {
      suggestion: 'Delete it and sign in again with `planwright login`: it only holds session tokens.',
      cause: checked.cause,
    },
  );
}

/**
 * Writes the session file atomically, 0600 in a 0700 directory (it holds bearer tokens: anyone who
 * can read it is signed in as you).
 */
export async function writeSessionFile(path: string, file: SessionFile): Promise<void> {
  try {
    await writePrivateFileAtomically(path, `${JSON.stringify(file, null, 2)}\n`);
  } catch (error) {
    throw new SessionFileError(
      CliErrorCode.sessionFileUnwritable,
      path,
      `cannot write the session file ${path}: ${describeFsError(error)}`,
      {
        suggestion: `Check the permissions of ${dirname(path)}, or set ${CONFIG_DIR_ENV} to another directory.`,
        cause: error,
      },
    );
  }
}

/**
 * Reads the file, changes it and writes it back. The read happens right before the write, so another
 * server's session written meanwhile by another planwright is kept; two runs writing in the very same
 * moment can still lose one change (there is no lock).
 */
export async function updateSessionFile(
  path: string,
  change: (file: SessionFile) => SessionFile,
): Promise<SessionFile> {
  const next = change(await readSessionFile(path));
  await writeSessionFile(path, next);
  return next;
}
