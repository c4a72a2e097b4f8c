import type { SharedPlanRole } from '@planwright/sdk';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { emailAddressSchema } from '../login/email-address.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { identifierSchema } from '../options/workspace-options.js';
import { createOutput } from '../output.js';

/**
 * The roles a plan is shared with, from the least to the most it allows, as `--role` lists them. The SDK's
 * `SHARED_PLAN_ROLES` is the same set (test/share-command.test.ts checks); it is not imported here because
 * `--help` must not load the SDK.
 */
export const SHARE_ROLES = ['viewer', 'commenter', 'editor'] as const satisfies readonly SharedPlanRole[];

const ROLE_LIST = 'viewer, commenter or editor';

const shareInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    uuid: identifierSchema(z, 'document'),
    email: emailAddressSchema(z),
    role: z.enum(SHARE_ROLES, {
      error: (issue) => `"${String(issue.input)}" is not a role: choose ${ROLE_LIST}`,
    }),
  });

/**
 * `planwright share <uuid> --email <address> --role viewer|commenter|editor`: invites someone to a plan by
 * e-mail (`POST documents/{uuid}/invitations/`, docs/teams.md "Invitations"). The server sends the link; the
 * invitee accepts from it, or with `planwright invitations accept <id>`. `--json` prints the SDK's
 * `SentInvitation`.
 */
export function registerShareCommand(program: Command, io: CliIo): void {
  program
    .command('share')
    .description(
      'invite someone to a document by e-mail, as viewer, commenter or editor (needs `planwright login`)',
    )
    .argument('<uuid>', "the document's uuid")
    .requiredOption('--email <address>', 'the address to send the invitation to')
    .requiredOption('--role <role>', `what they may do: ${ROLE_LIST}`)
    .addHelpText(
      'after',
      `
Roles: viewers read and export; commenters also comment; editors also edit, chat with the AI and finalize.
Only the owner invites (and editors, when the owner allows it).

Example:
  planwright share 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c --email advisor@example.com --role commenter`,
    )
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, shareInput);
      const [{ openSignedInSession }, { withNotFound }, views, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('../workspace/sharing-views.js'),
        import('@planwright/sdk'),
      ]);
      const session = await openSignedInSession(io, input.server);
      // A 404 `not_permitted` (a viewer inviting) passes through with the server's reason; 409 (already a
      // member, already invited) and 429 (too many invitations) are reported as the server words them.
      const invitation = await withNotFound(
        () =>
          session.call((client) =>
            client.members.invite(input.uuid, { email: input.email, role: input.role }),
          ),
        sdk.DOCUMENT_TEXTS.notFound,
        'Run `planwright documents list` to see your documents.',
      );
      createOutput(io, input).result(invitation, () => views.sentInvitationLine(invitation));
    });
}
