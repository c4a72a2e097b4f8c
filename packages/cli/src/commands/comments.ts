import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { identifierSchema } from '../options/workspace-options.js';
import { createOutput } from '../output.js';

const commentsInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    uuid: identifierSchema(z, 'document'),
    open: z.boolean().default(false),
  });

/**
 * `planwright comments <uuid> [--open]`: a document's comment threads with their messages, oldest first
 * (`GET documents/{uuid}/comments/`, docs/teams.md "Comments"). The document is read alongside, to name each
 * thread's subsection. `--json` prints the SDK's `CommentThread[]`.
 */
export function registerCommentsCommand(program: Command, io: CliIo): void {
  program
    .command('comments')
    .description("show a document's comment threads and their messages (needs `planwright login`)")
    .argument('<uuid>', "the document's uuid")
    .option('--open', 'only the threads not resolved yet')
    .addHelpText(
      'after',
      `
Everyone a document is shared with reads its comments, viewers too.

Examples:
  planwright comments 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c --open
  planwright comments 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c --json | jq -r '.[] | "\\(.status) \\(.messages[0].body)"'`,
    )
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, commentsInput);
      const [{ openSignedInSession }, { withNotFound }, views, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('../workspace/comment-views.js'),
        import('@planwright/sdk'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const [threads, document] = await withNotFound(
        () =>
          session.call((client) =>
            Promise.all([
              client.comments.list(input.uuid, { status: input.open ? 'open' : 'all' }),
              client.documents.get(input.uuid),
            ]),
          ),
        sdk.DOCUMENT_TEXTS.notFound,
        'Run `planwright documents list` to see your documents.',
      );
      createOutput(io, input).result(threads, () =>
        views.commentThreadLines(threads, document.sections, { open: input.open }),
      );
    });
}
