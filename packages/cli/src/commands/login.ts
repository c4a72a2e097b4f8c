import type { AuthUser, LoginResult, MfaResult } from '@planwright/sdk';
import type { Command } from 'commander';
import { type CliIo, readEnv } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { UsageError } from '../errors/cli-error.js';
import { emailAddressSchema } from '../login/email-address.js';
import type { Credentials } from '../login/login-prompt.js';
import { TOKEN_ENV } from '../login/personal-token.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { createOutput, type Output } from '../output.js';
import type { ServerSession } from '../session/server-session.js';

const loginInput = (z: Zod) =>
  z
    .object({
      server: serverUrlSchema(z).optional(),
      json: z.boolean().default(false),
      email: emailAddressSchema(z).optional(),
      passwordStdin: z.boolean().default(false),
      tokenStdin: z.boolean().default(false),
    })
    .refine((input) => !input.tokenStdin || (input.email === undefined && !input.passwordStdin), {
      path: ['tokenStdin'],
      message: 'goes without --email and --password-stdin (the token says whose it is)',
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
 * `--token-stdin` keeps a personal access token instead (docs/cli.md "Personal access tokens"): the
 * way in for an account made with Google, which has no password.
 */
export function registerLoginCommand(program: Command, io: CliIo): void {
  program
    .command('login')
    .description('sign in to the Planwright server (asks for e-mail and password on a terminal)')
    .option('--email <address>', 'the e-mail address of your account (else you are asked for it)')
    .option('--password-stdin', 'read the password from standard input, for scripts (needs --email)')
    .option(
      '--token-stdin',
      'sign in with a personal access token read from standard input (made in Profile › Security on the web, or with `planwright tokens create`)',
    )
    .addHelpText(
      'after',
      `
The session is kept in session.json next to the config file, one per server.
Signing in again needs \`planwright logout\` first. Signed up with Google? Make a personal access token
in Profile › Security on the web and pipe it to --token-stdin (or set ${TOKEN_ENV} instead of signing in).

Examples:
  planwright login
  printf %s "$PLANWRIGHT_PASSWORD" | planwright login --email ada@example.com --password-stdin
  printf %s "$TOKEN" | planwright login --token-stdin`,
    )
    .action(async (_options: unknown, command: Command) => {
      const input = await parseCommandInput(command, loginInput);
      if (input.tokenStdin) {
        await loginWithToken(io, input);
        return;
      }

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
        user = await signIn(
          session,
          async () => piped ?? (await askOnTerminal(source, session.server.url)),
          source.kind === 'terminal' ? () => askCodeOnTerminal(source) : undefined,
        );
      } finally {
        // Also on the way out with an error (server gone, prompt cancelled, wrong password): token
        // changes reach the file. A failed write was already reported by signIn's own flush.
        await session.store.flush().catch(() => {});
      }
      const output = createOutput(io, input);
      output.result(
        user,
        () =>
          `Signed in to ${session.server.url} as ${describeUser({ email: user.email, name: user.display })}.`,
      );
      warnOfTokenEnv(io, output);
    });
}

/**
 * `login --token-stdin`: the token is read first (whoever pipes it in is never left blocked by an early
 * failure), checked with the server, and kept as a password login keeps its session token.
 */
async function loginWithToken(io: CliIo, input: { server?: string | undefined; json: boolean }) {
  const [{ openServerSession }, { readTokenFromStdin, signInWithToken }, { terminalText }] =
    await Promise.all([
      import('../session/server-session.js'),
      import('../login/token-login.js'),
      import('../display/terminal-text.js'),
    ]);
  const token = await readTokenFromStdin(io);
  const session = await openServerSession(io, input.server);
  try {
    const user = await signInWithToken(session, token);
    const output = createOutput(io, input);
    output.result(
      user,
      () => `Signed in to ${session.server.url} as ${terminalText(user.email)} with a personal access token.`,
    );
    warnOfTokenEnv(io, output);
  } finally {
    // A stored token the server no longer took was dropped: that reaches the file on every way out.
    await session.store.flush().catch(() => {});
  }
}

/** The sign-in just kept is not what commands use while `PLANWRIGHT_TOKEN` is set: say so. */
function warnOfTokenEnv(io: CliIo, output: Output): void {
  if (output.json || readEnv(io, TOKEN_ENV) === undefined) return;
  io.stderr.write(
    `planwright: warning: ${TOKEN_ENV} is set, so commands use its token rather than this sign-in until you unset it.\n`,
  );
}

/**
 * Checks the server and the stored session, gets the credentials, signs in and saves the token.
 *
 * @throws LoginError when the server says no (see `loginOutcome`), ServerUnreachableError,
 *   SessionFileError when the token cannot be saved, CancelledError from the prompt.
 */
async function signIn(
  session: ServerSession,
  getCredentials: () => Promise<Credentials>,
  /** Asks for the two-factor code on a terminal; without it an account with a second factor cannot sign in here. */
  askCode?: () => Promise<string>,
): Promise<AuthUser> {
  const [{ callServer }, outcomes, { refuseWhenSignedIn }] = await Promise.all([
    import('../server/call-server.js'),
    import('../login/login-outcome.js'),
    import('../login/current-session.js'),
  ]);

  // Before asking for anything: is the server there, and is this computer already signed in to it? A stored
  // token that signs nobody in is worth nothing, and is dropped.
  await refuseWhenSignedIn(session);
  const { server, store } = session;

  const credentials = await getCredentials();
  let result: LoginResult | MfaResult = await callServer(
    server.url,
    (client) => client.auth.login(credentials),
    {
      tokenStore: store,
    },
  );
  // The password was right and the account has a second factor: its code, typed on the terminal, finishes it.
  if (result.kind === 'pending' && result.flow === 'mfa_authenticate' && askCode) {
    const code = await askCode();
    result = await callServer(server.url, (client) => client.auth.mfaAuthenticate(code), {
      tokenStore: store,
    });
  }
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

/** The two-factor code, asked on standard error (the code is no secret once used, so it is echoed). */
async function askCodeOnTerminal(source: CredentialSource): Promise<string> {
  if (source.kind !== 'terminal') throw new Error('login: no terminal to ask the code on');
  const { createInterface } = await import('node:readline/promises');
  const lines = createInterface({ input: source.stdin, output: source.output });
  try {
    return (await lines.question('Two-factor code (from your app, or a recovery code): ')).trim();
  } finally {
    lines.close();
  }
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
