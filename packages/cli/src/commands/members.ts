import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { identifierSchema } from '../options/workspace-options.js';
import { createOutput } from '../output.js';

const membersInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    uuid: identifierSchema(z, 'document'),
  });

/**
 * `planwright members <uuid>`: who a plan is shared with (`GET documents/{uuid}/members/`): its members with
 * their roles, the organisations it is shared with, and the pending invitations when the caller may invite.
 * `--json` prints the SDK's `PlanSharing`.
 */
export function registerMembersCommand(program: Command, io: CliIo): void {
  program
    .command('members')
    .description(
      "show a document's members, organisations and pending invitations (needs `planwright login`)",
    )
    .argument('<uuid>', "the document's uuid")
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, membersInput);
      const [{ openSignedInSession }, { withNotFound }, views, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('../workspace/sharing-views.js'),
        import('@planwright/sdk'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const sharing = await withNotFound(
        () => session.call((client) => client.members.list(input.uuid)),
        sdk.DOCUMENT_TEXTS.notFound,
        'Run `planwright documents list` to see your documents.',
      );
      createOutput(io, input).result(sharing, () => views.sharingLines(sharing));
    });
}
