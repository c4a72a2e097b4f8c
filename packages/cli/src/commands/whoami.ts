import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { TOKEN_ENV } from '../login/personal-token.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { createOutput, formatFields } from '../output.js';

const whoamiInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
  });

/**
 * `planwright whoami`: who is signed in to the server, as the server sees it now (`GET app/me/`), so
 * an expired session is found out here rather than in the middle of real work. No stored token: exit 3
 * without asking the server; a refused one is removed (exit 3), as for every signed-in command.
 * `GET app/me/` takes personal access tokens too (`PLANWRIGHT_TOKEN`, `login --token-stdin`): then a
 * `Token` line says so.
 */
export function registerWhoamiCommand(program: Command, io: CliIo): void {
  program
    .command('whoami')
    .description('show who is signed in to the server (--json prints the user record)')
    .action(async (_options: unknown, command: Command) => {
      const input = await parseCommandInput(command, whoamiInput);
      const [{ openSignedInSession }, { terminalText }] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../display/terminal-text.js'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const user = await session.call((client) => client.auth.me());

      // The name is whatever the account typed in; it reaches the terminal only made safe.
      const name = terminalText([user.first_name, user.last_name].join(' ')).trim();
      const kind = session.personalToken ? 'personal access token' : 'session token';
      const token: Array<[string, string]> =
        session.personalToken || session.tokenSource === 'env'
          ? [['Token', session.tokenSource === 'env' ? `${kind}, from ${TOKEN_ENV}` : kind]]
          : [];
      createOutput(io, input).result(user, () =>
        formatFields([
          ['Server', session.server.url],
          ['E-mail', terminalText(user.email)],
          ['Name', name === '' ? '(not set)' : name],
          ['Verified', user.has_verified_email ? 'yes' : 'no (open the link e-mailed to this address)'],
          ...token,
        ]),
      );
    });
}
