import type { Command } from 'commander';
import { type CliIo, readEnv } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { describeApiError } from '../errors/api-error-text.js';
import { ServerUnreachableError } from '../errors/cli-error.js';
import { isPersonalToken, TOKEN_ENV } from '../login/personal-token.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { createOutput } from '../output.js';

const logoutInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
  });

/**
 * What `logout --json` prints: `signed_out` (the server ended the session and the token is gone),
 * `signed_out_locally` (the token is gone, but the server could not be told, or a personal access token was
 * forgotten here and keeps working until revoked: `warning` says which), or `not_signed_in` (there was no
 * token for this server). With `PLANWRIGHT_TOKEN` set, `warning` also says to unset it.
 */
export interface LogoutReport {
  server: string;
  result: 'signed_out' | 'signed_out_locally' | 'not_signed_in';
  email: string | null;
  warning?: string;
}

/** A personal access token is only forgotten here: it works until it is revoked or expires. */
const TOKEN_KEEPS_WORKING =
  'the personal access token keeps working until it is revoked or expires: revoke it with `planwright tokens revoke <id>` (signed in with your password; `planwright tokens list` shows the ids) or in Profile › Security on the web.';

/** `PLANWRIGHT_TOKEN` outlives any logout: only unsetting it stops commands from using it. */
const UNSET_TOKEN_ENV = `${TOKEN_ENV} is set, so commands keep using its token: unset it (\`unset ${TOKEN_ENV}\`). It keeps working until it is revoked (\`planwright tokens revoke <id>\`) or expires.`;

/**
 * `planwright logout`: ends the session on the server (`DELETE auth/session`) and removes its token
 * from `session.json`. The token goes even when the server cannot be told, since leaving this
 * computer signed in is what the person asked not to be. A personal access token is only removed from
 * this computer (the allauth endpoints do not know it; it is revoked with `planwright tokens revoke`).
 * `PLANWRIGHT_TOKEN` is never touched: logout says to unset it.
 */
export function registerLogoutCommand(program: Command, io: CliIo): void {
  program
    .command('logout')
    .description('sign out: end the session on the server and remove its token from this computer')
    .action(async (_options: unknown, command: Command) => {
      const input = await parseCommandInput(command, logoutInput);
      const [{ openServerSession }, { callServer }] = await Promise.all([
        import('../session/server-session.js'),
        import('../server/call-server.js'),
      ]);
      const { server, store } = await openServerSession(io, input.server);
      const output = createOutput(io, input);
      const { token, email } = store.getSnapshot();
      const envNote = readEnv(io, TOKEN_ENV) === undefined ? undefined : UNSET_TOKEN_ENV;
      const warn = (warning: string | undefined) => {
        if (warning !== undefined && !output.json) io.stderr.write(`planwright: warning: ${warning}\n`);
      };

      if (token === null) {
        const report: LogoutReport = {
          server: server.url,
          result: 'not_signed_in',
          email: null,
          ...(envNote && { warning: envNote }),
        };
        warn(report.warning);
        output.result(report, () => `Not signed in to ${server.url}: nothing to do.`);
        return;
      }

      if (isPersonalToken(token)) {
        // Nothing to tell the server: DELETE auth/session does not know a personal access token.
        store.clear();
        await store.flush();
        const report: LogoutReport = {
          server: server.url,
          result: 'signed_out_locally',
          email,
          warning: [TOKEN_KEEPS_WORKING, envNote].filter(Boolean).join(' '),
        };
        warn(report.warning);
        output.result(
          report,
          () =>
            `Removed the personal access token for ${server.url}${email ? ` (${email})` : ''} from this computer.`,
        );
        return;
      }

      let problem: string | undefined;
      try {
        const answer = await callServer(server.url, (client) => client.auth.logout(), { tokenStore: store });
        // `unauthenticated` is the normal answer; `session_gone` means it had ended already.
        if (answer.kind === 'rate_limited') problem = 'the server refused: too many requests';
        else if (answer.kind === 'forbidden') problem = 'the server refused to end the session';
      } catch (error) {
        // Anything the server or the network did is a reason to warn, not to fail; a bug stays a bug.
        problem = await serverProblem(error);
        if (problem === undefined) throw error;
      }
      // The SDK has cleared the token whatever happened; wait until the file says so too.
      await store.flush();

      const serverWarning =
        problem === undefined
          ? undefined
          : `${/[.!?]$/.test(problem) ? problem : `${problem}.`} The token was removed from this computer, but the session may stay valid on the server until it expires.`;
      const warning = [serverWarning, envNote].filter(Boolean).join(' ');
      const report: LogoutReport = {
        server: server.url,
        result: problem === undefined ? 'signed_out' : 'signed_out_locally',
        email,
        ...(warning !== '' && { warning }),
      };
      warn(report.warning);
      output.result(report, () =>
        report.result === 'signed_out'
          ? `Signed out of ${server.url}${email ? ` (${email})` : ''}.`
          : `Signed out of ${server.url} on this computer.`,
      );
    });
}

/** What went wrong with the server, in one line; `undefined` when `error` is not about the server. */
async function serverProblem(error: unknown): Promise<string | undefined> {
  if (error instanceof ServerUnreachableError) return error.message;
  const sdk = await import('@planwright/sdk');
  if (sdk.ApiError.isInstance(error)) return describeApiError(error);
  if (sdk.PlanwrightError.isInstance(error)) return error.message;
  return undefined;
}
