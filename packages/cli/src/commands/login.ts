import type { AuthUser } from '@planwright/sdk';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { UsageError } from '../errors/cli-error.js';
import { emailAddressSchema } from '../login/email-address.js';
import type { Credentials } from '../login/login-prompt.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { createOutput } from '../output.js';
import type { ServerSession } from '../session/server-session.js';

const loginInput = (z: Zod) =>
  z
    .object({
      server: serverUrlSchema(z).optional(),
      json: z.boolean().default(false),
      email: emailAddressSchema(z).optional(),
      passwordStdin: z.boolean().default(false),
    })
    .refine((input) => !input.passwordStdin || input.email !== undefined, {
      path: ['passwordStdin'],
      message: 'needs --email <address> too (there is nobody to ask for it)',
    });

const scriptUsage =
  'For scripts: `planwright login --email <address> --password-stdin`, with the password piped in.';

/**
 * `planwright login`: signs in to the server with e-mail and password and keeps the session token
 * in `session.json`. On a terminal it asks (Ink, loaded only then); scripts pipe the password in
 * with `--password-stdin`, since a password in the arguments would show in `ps` and shell history.
 */
export function registerLoginCommand(program: Command, io: CliIo): void {
  program
    .command('login')
    .description('sign in to the Planwright server (asks for e-mail and password on a terminal)')
    .option('--email <address>', 'the e-mail address of your account (else you are asked for it)')
    .option('--password-stdin', 'read the password from standard input, for scripts (needs --email)')
    .addHelpText(
      'after',
      `
The session is kept in session.json next to the config file, one per server.
Signing in again needs \`planwright logout\` first.

Examples:
  planwright login
  printf %s "$PLANWRIGHT_PASSWORD" | planwright login --email ada@example.com --password-stdin`,
    )
    .action(async (_options: unknown, command: Command) => {
      const input = await parseCommandInput(command, loginInput);

      // Where the password comes from is settled before anything else, so a script gets its usage
      // error at once, and a terminal is never left waiting for input nobody is asked for.
      const source = credentialSource(input, io);

      const [{ openServerSession }, { readPasswordFromStdin }, { describeUser }] = await Promise.all([
        import('../session/server-session.js'),
        import('../login/read-password.js'),
        import('../login/login-outcome.js'),
      ]);
      // A piped password is read first, so whoever writes it is never left blocked by an early failure.
      const piped =
        source.kind === 'stdin'
          ? { email: source.email, password: await readPasswordFromStdin(io.stdin) }
          : undefined;
      const session = await openServerSession(io, input.server);
      let user: AuthUser;
      try {
        user = await signIn(session, async () => piped ?? (await askOnTerminal(source, session.server.url)));
      } finally {
        // Also on the way out with an error (server gone, prompt cancelled, wrong password): token
        // changes reach the file. A failed write was already reported by signIn's own flush.
        await session.store.flush().catch(() => {});
      }
      createOutput(io, input).result(
        user,
        () =>
          `Signed in to ${session.server.url} as ${describeUser({ email: user.email, name: user.display })}.`,
      );
    });
}

/**
 * Checks the server and the stored session, gets the credentials, signs in and saves the token.
 *
 * @throws LoginError when the server says no (see `loginOutcome`), ServerUnreachableError,
 *   SessionFileError when the token cannot be saved, CancelledError from the prompt.
 */
async function signIn(
  { server, store }: ServerSession,
  getCredentials: () => Promise<Credentials>,
): Promise<AuthUser> {
  const [{ callServer }, outcomes] = await Promise.all([
    import('../server/call-server.js'),
    import('../login/login-outcome.js'),
  ]);

  // Before asking for anything: is the server there, and is this computer already signed in to it?
  const current = await callServer(server.url, (client) => client.auth.session(), { tokenStore: store });
  if (current.kind === 'authenticated') throw outcomes.alreadySignedInError(server.url, current.user.email);
  // A stored token that signs nobody in is worth nothing (`session_gone` has cleared it already).
  if (current.kind === 'unauthenticated' || current.kind === 'pending') store.clear();

  const credentials = await getCredentials();
  const result = await callServer(server.url, (client) => client.auth.login(credentials), {
    tokenStore: store,
  });
  // The SDK keeps a pending login's token so that the e-mailed link finishes signing in *this*
  // session; but the link opens in a browser, so the CLI could never use that token. Keep nothing.
  if (result.kind === 'pending') store.clear();
  await store.flush();

  const outcome = outcomes.loginOutcome(result, {
    serverUrl: server.url,
    email: credentials.email,
    storedEmail: store.getSnapshot().email,
  });
  if (!outcome.ok) throw outcome.error;
  return outcome.user;
}

type CredentialSource =
  | { kind: 'stdin'; email: string }
  | { kind: 'terminal'; email: string | undefined; stdin: NodeJS.ReadStream; output: NodeJS.WriteStream };

/**
 * Where the e-mail and password come from: piped in (`--password-stdin`), or typed on a terminal,
 * asked on standard error so that stdout stays for the result (`planwright login --json > me.json`
 * still asks). Only `tty` streams have `isTTY === true`, which is what makes the casts safe.
 *
 * @throws UsageError when neither works: a terminal with `--password-stdin` (it would echo the
 *   password), or no terminal without it.
 */
function credentialSource(
  input: { email?: string | undefined; passwordStdin: boolean },
  io: CliIo,
): CredentialSource {
  if (input.passwordStdin) {
    if (io.stdin?.isTTY === true) {
      throw new UsageError('--password-stdin reads a piped password, but standard input is a terminal', {
        suggestion: 'Leave out --password-stdin to be asked for the password, or pipe the password in.',
      });
    }
    // The option schema makes --password-stdin require --email.
    return { kind: 'stdin', email: input.email ?? '' };
  }
  if (io.stdin?.isTTY !== true || io.stderr.isTTY !== true) {
    throw new UsageError('cannot ask for the password: standard input or standard error is not a terminal', {
      suggestion: scriptUsage,
    });
  }
  return {
    kind: 'terminal',
    email: input.email,
    stdin: io.stdin as NodeJS.ReadStream,
    output: io.stderr as NodeJS.WriteStream,
  };
}

/** The Ink prompt, loaded only now: Ink and React cost more than the whole rest of a run. */
async function askOnTerminal(source: CredentialSource, serverUrl: string): Promise<Credentials> {
  if (source.kind !== 'terminal') throw new Error('login: the password was to be piped in');
  const { promptForCredentials } = await import('../login/login-prompt.js');
  return promptForCredentials({
    server: serverUrl,
    email: source.email,
    stdin: source.stdin,
    output: source.output,
  });
}
