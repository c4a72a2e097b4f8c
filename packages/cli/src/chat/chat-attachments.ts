import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { CliIo } from '../cli-io.js';
import { CliError, CliErrorCode } from '../errors/cli-error.js';
import { ExitCode } from '../exit-codes.js';
import { openSignedInSession } from '../session/signed-in-call.js';

/** A file read for the chat: its name and its text (T57). */
export interface ReadAttachment {
  name: string;
  content: string;
}

/**
 * Reads each `--file` and has the server turn it into text (`client.ai.readAttachment`: .md, .txt, .docx),
 * so .docx is read the way the web's upload reads it (T57). The server's refusals (wrong type, too big,
 * not text) come back as its errors.
 *
 * @throws CliError `file_unreadable` when a file cannot be read from disk.
 */
export async function readAttachments(
  io: CliIo,
  server: string | undefined,
  paths: readonly string[],
): Promise<ReadAttachment[]> {
  const session = await openSignedInSession(io, server);
  const attachments: ReadAttachment[] = [];
  for (const path of paths) {
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (error) {
      throw new CliError(CliErrorCode.fileUnreadable, ExitCode.failure, `cannot read ${path}`, {
        cause: error,
      });
    }
    const name = basename(path);
    const file = await session.call((client) =>
      client.ai.readAttachment(new Blob([new Uint8Array(bytes)]), { name }),
    );
    attachments.push({ name: file.name, content: file.content });
  }
  return attachments;
}
