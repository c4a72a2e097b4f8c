import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { isUuid } from '../options/workspace-options.js';
import { createOutput } from '../output.js';

const listInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
  });

const acceptInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    invitation: z.string().trim().min(1, "expected the invitation's id or the link from its e-mail"),
  });

/**
 * `planwright invitations list|accept`: the invitations to plans waiting for the signed-in address
 * (docs/teams.md "Invitations"). `accept` takes an id from `list`, or the link of the e-mail (or its token).
 */
export function registerInvitationsCommand(program: Command, io: CliIo): void {
  const invitations = program
    .command('invitations')
    .description('list and accept invitations to plans and organisations (needs `planwright login`)');

  invitations
    .command('list')
    .description(
      'list the invitations waiting for your address: plan or organisation, role, who invited you, expiry',
    )
    .action(async (_options: unknown, command: Command) => {
      const input = await parseCommandInput(command, listInput);
      const [{ openSignedInSession }, views] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/sharing-views.js'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const received = await session.call((client) => client.invitations.list());
      createOutput(io, input).result(received, () => views.receivedInvitationLines(received));
    });

  invitations
    .command('accept')
    .description(
      'accept an invitation, by its id (see `planwright invitations list`) or the link in its e-mail',
    )
    .argument('<invitation>', "the invitation's id, or the link from its e-mail (…/invitations/<token>)")
    .addHelpText(
      'after',
      `
Examples:
  planwright invitations accept 3f2a9c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c
  planwright invitations accept https://plans.example.com/invitations/<token>`,
    )
    .action(async (_invitation: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, acceptInput);
      const [{ openSignedInSession }, { withNotFound }, views] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('../workspace/sharing-views.js'),
      ]);
      const session = await openSignedInSession(io, input.server);
      // Ids are uuids; a link's token (43 base64url characters) never has that shape.
      const byLink = input.invitation.includes('/invitations/') || !isUuid(input.invitation);
      const accepted = byLink
        ? // An expired, revoked, used or someone else's link: 400 with the server's reason.
          await session.call((client) => client.invitations.acceptLink(input.invitation))
        : await withNotFound(
            () => session.call((client) => client.invitations.accept(input.invitation.toLowerCase())),
            'Invitation not found.',
            'Run `planwright invitations list` to see the invitations waiting for you.',
          );
      createOutput(io, input).result(accepted, () => views.acceptedInvitationLine(accepted));
    });
}
