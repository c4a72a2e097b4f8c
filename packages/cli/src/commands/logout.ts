import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { describeApiError } from '../errors/api-error-text.js';
import { ServerUnreachableError } from '../errors/cli-error.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { createOutput } from '../output.js';

const logoutInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
  });

/**
 * What `logout --json` prints: `signed_out` (the server ended the session and the token is gone),
 * `signed_out_locally` (the token is gone, but the server could not be told: `warning` says why), or
 * `not_signed_in` (there was no token for this server).
 */
export interface LogoutReport {
  server: string;
  result: 'signed_out' | 'signed_out_locally' | 'not_signed_in';
  email: string | null;
  warning?: string;
}

/**
 * `planwright logout`: ends the session on the server (`DELETE auth/session`) and removes its token
 * from `session.json`. The token goes even when the server cannot be told, since leaving this
 * computer signed in is what the person asked not to be.
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

      if (token === null) {
        const report: LogoutReport = { server: server.url, result: 'not_signed_in', email: null };
        output.result(report, () => `Not signed in to ${server.url}: nothing to do.`);
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

      const report: LogoutReport =
        problem === undefined
          ? { server: server.url, result: 'signed_out', email }
          : {
              server: server.url,
              result: 'signed_out_locally',
              email,
              warning: `${/[.!?]$/.test(problem) ? problem : `${problem}.`} The token was removed from this computer, but the session may stay valid on the server until it expires.`,
            };
      if (report.warning && !output.json) io.stderr.write(`planwright: warning: ${report.warning}\n`);
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
