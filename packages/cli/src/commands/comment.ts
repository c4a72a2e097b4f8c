import type { commentBodySchema } from '@planwright/sdk';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { identifierSchema } from '../options/workspace-options.js';
import { createOutput } from '../output.js';

/**
 * The input of `planwright comment`. `--message` is checked by the SDK's own `commentBodySchema` (what the
 * server checks too), handed in because `--help` must not load the SDK.
 */
const commentInput = (body: typeof commentBodySchema) => (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    uuid: identifierSchema(z, 'document'),
    subsection: z.string().trim().min(1, "expected the subsection's uuid or title"),
    message: body,
  });

/**
 * `planwright comment <uuid> --subsection <uuid|title> --message "…"`: starts a comment thread on the
 * subsection's first line (`POST documents/{uuid}/comments/`, docs/teams.md "Comments"). A title is found in the
 * document read first (which also names the subsection in the answer). `@username` in the message mentions
 * someone on the plan, whom the server e-mails. `--json` prints the SDK's `CommentThread`.
 */
export function registerCommentCommand(program: Command, io: CliIo): void {
  program
    .command('comment')
    .description(
      'comment on a subsection of a document; @username mentions someone on it (needs `planwright login`)',
    )
    .argument('<uuid>', "the document's uuid")
    .requiredOption('--subsection <uuid|title>', "the subsection's uuid or title (case-insensitive)")
    .requiredOption('--message <text>', 'the comment: 1 to 10,000 characters; @username mentions someone')
    .addHelpText(
      'after',
      `
The thread starts on the subsection's first line. Commenters, editors and the owner comment; viewers read.
Someone mentioned with @username (their address before the @) must be on the plan: they get an e-mail.

Example:
  planwright comment 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c --subsection "Market and Traction" --message "@ada is this sourced?"`,
    )
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const sdk = await import('@planwright/sdk');
      const input = await parseCommandInput(command, commentInput(sdk.commentBodySchema));
      const [{ openSignedInSession }, { withNotFound }, { findSubsection }, views] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('../chat/outline-target.js'),
        import('../workspace/comment-views.js'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const notFound = [
        sdk.DOCUMENT_TEXTS.notFound,
        'Run `planwright documents list` to see your documents.',
      ] as const;
      const document = await withNotFound(
        () => session.call((client) => client.documents.get(input.uuid)),
        ...notFound,
      );
      const { subsection } = findSubsection(document.sections, input.subsection, input.uuid, undefined, {
        sectionOption: false,
        listTitles: true,
      });
      // A 404 `not_permitted` (a viewer) passes through with the server's reason; a 400 (someone mentioned who
      // is not on the plan) and a 429 (too many mentions) are reported as the server words them.
      const thread = await withNotFound(
        () =>
          session.call((client) =>
            client.comments.create(input.uuid, { subsection: subsection.uuid, body: input.message }),
          ),
        ...notFound,
      );
      createOutput(io, input).result(thread, () => views.commentedLine(subsection.title, thread));
    });
}
