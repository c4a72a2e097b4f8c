import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { UsageError } from '../errors/cli-error.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { identifierSchema } from '../options/workspace-options.js';

const chatInput = (z: Zod) =>
  z
    .object({
      server: serverUrlSchema(z).optional(),
      json: z.boolean().default(false),
      uuid: identifierSchema(z, 'document'),
      section: z.string().trim().min(1, "expected the section's uuid or title").optional(),
      subsection: z.string().trim().min(1, "expected the subsection's uuid or title").optional(),
      message: z
        .string()
        .refine((text) => text.trim() !== '', 'the message is blank')
        .optional(),
      accept: z.boolean().default(false),
      reject: z.boolean().default(false),
      file: z.array(z.string().min(1)).max(3, 'at most 3 files can be attached').default([]),
    })
    .refine((input) => !(input.accept && input.reject), {
      path: ['reject'],
      message: 'cannot be used with --accept',
    })
    .refine((input) => input.message !== undefined || !(input.accept || input.reject), {
      path: ['accept'],
      message: 'needs --message (on the chat screen, press a or r instead)',
    })
    .refine((input) => input.message !== undefined || !input.json, {
      path: ['json'],
      message: 'needs --message (the chat screen is for people)',
    })
    .refine((input) => input.message !== undefined || input.file.length === 0, {
      path: ['file'],
      message: 'needs --message',
    });

/**
 * `planwright chat <uuid>`: on a terminal, the Ink chat screen (T60–T72); with `--message`, one message for
 * scripts, its answer streamed to stdout and its proposals accepted, rejected or left pending (T50–T56).
 */
export function registerChatCommand(program: Command, io: CliIo): void {
  program
    .command('chat')
    .description('chat with the AI about a document, a section or a subsection (needs `planwright login`)')
    .argument('<uuid>', "the document's uuid")
    .option('--section <uuid|title>', 'chat about this section')
    .option('--subsection <uuid|title>', 'chat about this subsection (its section is found for you)')
    .option('-m, --message <text>', 'send one message, print the answer and exit (for scripts)')
    .option('--accept', "with --message: apply the answer's proposals to the document and accept them")
    .option('--reject', "with --message: reject the answer's proposals")
    .option(
      '--file <path>',
      'with --message: attach a .md, .txt or .docx file as context (up to 3)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addHelpText(
      'after',
      `
On the chat screen: Enter sends, Tab moves between the message and the proposals, a/r accept or
reject a proposal (each partial edit on its own), Ctrl+C stops an answer and twice exits.
With --message and no --accept/--reject, proposals are printed and left pending.
--json (with --message) prints one JSON object per line: connected, delta, system, proposal,
applied, rejected, conflict, not_applied, end.

Examples:
  planwright chat 1f0c… --subsection "Market Size"
  planwright chat 1f0c… --subsection "Market Size" --message "Draft this" --accept
  planwright chat 1f0c… --message "Shorten the summary" --json | jq -r 'select(.type=="delta").text'`,
    )
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, chatInput);
      if (input.message === undefined && !(io.stdin?.isTTY === true && io.stdout.isTTY === true)) {
        throw new UsageError('the chat screen needs a terminal: standard input or output is not one', {
          suggestion: 'For scripts, pass --message "…" (and --accept or --reject).',
        });
      }
      const { openChat } = await import('../chat/open-chat.js');
      const attachments =
        input.file.length === 0
          ? []
          : await (await import('../chat/chat-attachments.js')).readAttachments(io, input.server, input.file);
      const opened = await openChat(io, input);
      const { chatFailure } = await import('../chat/chat-failure.js');
      try {
        if (input.message === undefined) {
          const { runChatScreen } = await import('../chat/chat-screen.js');
          await runChatScreen(io, opened);
          return;
        }
        const { runChatScript } = await import('../chat/chat-script.js');
        const result = await runChatScript(io, opened, {
          message: input.message,
          choice: input.accept ? 'accept' : input.reject ? 'reject' : 'leave',
          json: input.json,
          attachments,
        });
        const failure = result.failed[0];
        if (failure)
          throw failure.kind === 'conflict'
            ? failure.error
            : chatFailure.notApplied(failure.message, result.failed.length);
      } catch (error) {
        opened.chat.dispose();
        throw chatFailure.translate(error, opened.serverUrl);
      }
    });
}
