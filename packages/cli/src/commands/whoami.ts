import type { CurrentUser } from '@planwright/sdk';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { CliErrorCode, NotSignedInError } from '../errors/cli-error.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { createOutput, formatFields } from '../output.js';

const whoamiInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
  });

/**
 * `planwright whoami`: who is signed in to the server, as the server sees it now (`GET app/me/`), so
 * an expired session is found out here rather than in the middle of real work.
 */
export function registerWhoamiCommand(program: Command, io: CliIo): void {
  program
    .command('whoami')
    .description('show who is signed in to the server (--json prints the user record)')
    .action(async (_options: unknown, command: Command) => {
      const input = await parseCommandInput(command, whoamiInput);
      const [{ openServerSession }, { callServer }, sdk] = await Promise.all([
        import('../session/server-session.js'),
        import('../server/call-server.js'),
        import('@planwright/sdk'),
      ]);
      const { server, store } = await openServerSession(io, input.server);
      if (store.getToken() === null) {
        throw new NotSignedInError(CliErrorCode.notSignedIn, server.url, `not signed in to ${server.url}`);
      }

      let user: CurrentUser;
      try {
        user = await callServer(server.url, (client) => client.auth.me(), { tokenStore: store });
      } catch (error) {
        if (!sdk.AuthRequiredError.isInstance(error)) throw error;
        // The SDK has cleared the token (a 401 or 403 proves it dead); the file follows.
        await store.flush();
        throw new NotSignedInError(
          CliErrorCode.sessionExpired,
          server.url,
          `not signed in to ${server.url}: the session has expired or was ended, so its token was removed from this computer`,
          { suggestion: 'Run `planwright login` to sign in again.', cause: error },
        );
      }
      // me() refreshes the stored e-mail and name.
      await store.flush();

      const name = [user.first_name, user.last_name].join(' ').trim();
      createOutput(io, input).result(user, () =>
        formatFields([
          ['Server', server.url],
          ['E-mail', user.email],
          ['Name', name === '' ? '(not set)' : name],
          ['Verified', user.has_verified_email ? 'yes' : 'no (open the link e-mailed to this address)'],
        ]),
      );
    });
}
