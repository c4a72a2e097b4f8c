import type {
  CreateTokenResult,
  ForbiddenResult,
  PersonalTokenInput,
  personalTokenInputSchema,
  RateLimitedResult,
  ReauthenticationRequiredResult,
  SessionGoneResult,
  UnauthenticatedResult,
} from '@planwright/sdk';
import type { Command } from 'commander';
import { type CliIo, readEnv } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { CliError, CliErrorCode, LoginError, UsageError } from '../errors/cli-error.js';
import { ExitCode } from '../exit-codes.js';
import { PASSWORD_ENV, TOKEN_ENV, WEB_TOKENS_PLACE } from '../login/personal-token.js';
import { commandPath, parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { positiveIntegerSchema } from '../options/workspace-options.js';
import { createOutput } from '../output.js';
import type { SignedInSession } from '../session/signed-in-call.js';

/**
 * How long a token lasts, in days, as `--help` says it without loading the SDK: the SDK's `TOKEN_LIFETIME_DAYS`
 * (tokens-command.test.ts checks that they agree).
 */
export const TOKEN_DAYS = { default: 90, max: 365 } as const;

const globalInput = (z: Zod) => ({
  server: serverUrlSchema(z).optional(),
  json: z.boolean().default(false),
});

/** `--expires <days>`: a whole number of days, 1 to 365 (`30d` is taken too, as `share-link --expires` writes it). */
const daysSchema = (z: Zod) =>
  z
    .string()
    .trim()
    .regex(/^\d+d?$/i, `must be a whole number of days, 1 to ${TOKEN_DAYS.max}`)
    .transform((text) => Number.parseInt(text, 10))
    .pipe(
      z
        .number()
        .int()
        .min(1, 'a token lasts at least 1 day')
        .max(TOKEN_DAYS.max, `a token lasts at most ${TOKEN_DAYS.max} days`),
    );

/**
 * The input of `planwright tokens create`. `--name` is checked by the SDK's own rule (what the server checks too),
 * handed in because `--help` must not load the SDK.
 */
const createInput = (name: typeof personalTokenInputSchema.shape.name) => (z: Zod) =>
  z.object({
    ...globalInput(z),
    name,
    expires: daysSchema(z).optional(),
    readOnly: z.boolean().default(false),
  });

const listInput = (z: Zod) => z.object(globalInput(z));

const revokeInput = (z: Zod) => z.object({ ...globalInput(z), id: positiveIntegerSchema(z) });

const LIST_HINT = 'Run `planwright tokens list` to see your tokens and their ids.';

/**
 * `planwright tokens create|list|revoke`: personal access tokens for scripts (docs/cli.md "Personal access
 * tokens", the allauth `account/tokens` endpoints). They are made, listed and revoked by a sign-in of
 * `planwright login`: the allauth endpoints do not take a personal access token, so one cannot make others.
 * `--json` prints the SDK's objects.
 */
export function registerTokensCommand(program: Command, io: CliIo): void {
  const tokens = program
    .command('tokens')
    .description(
      'make, list and revoke personal access tokens, which sign scripts in without a password (needs `planwright login`)',
    )
    .addHelpText(
      'after',
      `
A personal access token signs a script in as you, on the server's API and chat, until it expires or is
revoked. Give it to a script in ${TOKEN_ENV}, or keep it with \`planwright login --token-stdin\`. A read-only
token reads everything your account can and changes nothing. Tokens are made, listed and revoked when signed
in with \`planwright login\` (a personal access token cannot make others), or in ${WEB_TOKENS_PLACE}.

Examples:
  token=$(planwright tokens create --name nightly --expires 30 --read-only)
  ${TOKEN_ENV}="$token" planwright documents list
  planwright tokens list
  planwright tokens revoke 3`,
    );

  tokens
    .command('create')
    .description('make a token and print it alone on standard output (needs a sign-in in the last 5 minutes)')
    .requiredOption('--name <name>', 'what it is for, to tell tokens apart (1 to 100 characters)')
    .option(
      '--expires <days>',
      `how many days it works: a whole number from 1 to ${TOKEN_DAYS.max} (default ${TOKEN_DAYS.default})`,
    )
    .option('--read-only', 'a token that reads but changes nothing (else it reads and changes all you may)')
    .addHelpText(
      'after',
      `
Standard output gets the token alone, so \`token=$(planwright tokens create …)\` keeps it; with --json,
{"token": …} and its settings. Keep it: the server keeps only its hash, so it is never shown again. What it
can do and until when is said on standard error.

Making a token needs a sign-in in the last 5 minutes. After that, planwright asks for your password on a
terminal; elsewhere it reads ${PASSWORD_ENV}, else it stops (sign in again: \`planwright logout\`, then
\`planwright login\`).

Examples:
  token=$(planwright tokens create --name nightly)
  planwright tokens create --name dashboard --read-only --expires 365 --json`,
    )
    .action(async (_options: unknown, command: Command) => {
      const sdk = await import('@planwright/sdk');
      const input = await parseCommandInput(command, createInput(sdk.personalTokenInputSchema.shape.name));
      const { openSignedInSession } = await import('../session/signed-in-call.js');
      const session = await openSignedInSession(io, input.server);
      refusePersonalToken(session, 'make tokens', 'make others');

      const settings: PersonalTokenInput = {
        name: input.name,
        ...(input.expires !== undefined && { expiresInDays: input.expires }),
        scope: input.readOnly ? 'read' : 'write',
      };
      const create = () => session.call((client) => client.auth.createToken(settings));
      let result: CreateTokenResult = await create();
      if (result.kind === 'reauthentication_required') {
        await reauthenticate(io, session, result);
        result = await create();
      }
      if (result.kind === 'reauthentication_required') {
        throw new CliError(
          CliErrorCode.forbidden,
          ExitCode.failure,
          'the server still asks for a recent sign-in after the password was confirmed',
          { suggestion: 'Run `planwright logout`, then `planwright login`, and make the token again.' },
        );
      }
      if (result.kind === 'invalid') throw invalidSettings(result, command);
      if (result.kind !== 'token_created') throw await accountCallFailure(session, result);

      const [views, { terminalText }] = await Promise.all([
        import('../workspace/token-views.js'),
        import('../display/terminal-text.js'),
      ]);
      const { token, personalToken } = result;
      const output = createOutput(io, input);
      output.result({ token, ...personalToken }, () => terminalText(token));
      if (!output.json) io.stderr.write(`${views.createdTokenNote(personalToken)}\n`);
    });

  tokens
    .command('list')
    .description('list your personal access tokens, newest first (never the tokens themselves)')
    .action(async (_options: unknown, command: Command) => {
      const input = await parseCommandInput(command, listInput);
      const { openSignedInSession } = await import('../session/signed-in-call.js');
      const session = await openSignedInSession(io, input.server);
      refusePersonalToken(session, 'list tokens', 'list them');
      const result = await session.call((client) => client.auth.tokens());
      if (result.kind !== 'tokens') throw await accountCallFailure(session, result);
      const { tokenListLines } = await import('../workspace/token-views.js');
      createOutput(io, input).result(result.tokens, () => tokenListLines(result.tokens, new Date()));
    });

  tokens
    .command('revoke')
    .description('revoke a token: it stops working at once, for every script that uses it')
    .argument('<id>', 'its id, from `planwright tokens list`')
    .action(async (_id: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, revokeInput);
      const [{ openSignedInSession }, { withNotFound }] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
      ]);
      const session = await openSignedInSession(io, input.server);
      refusePersonalToken(session, 'revoke tokens', 'revoke them');
      // The server answers 404 alike for an id that never was and for another account's.
      const result = await withNotFound(
        () => session.call((client) => client.auth.revokeToken(input.id)),
        `Token not found: ${input.id}.`,
        LIST_HINT,
      );
      if (result.kind !== 'ok') throw await accountCallFailure(session, result);
      const { revokedTokenLine } = await import('../workspace/token-views.js');
      createOutput(io, input).result({ id: input.id, revoked: true }, () => revokedTokenLine(input.id));
    });
}

/**
 * Refuses before anything is sent when the session is a personal access token: the allauth endpoints answer 410
 * for one (and the SDK would then forget it), so tokens are made, listed and revoked by a sign-in only.
 *
 * @throws CliError `personal_token_not_allowed` (exit 1).
 */
function refusePersonalToken(session: SignedInSession, doing: string, cannot: string): void {
  if (!session.personalToken) return;
  throw new CliError(
    CliErrorCode.personalTokenNotAllowed,
    ExitCode.failure,
    `Sign in with \`planwright login\` (a password or e-mail sign-in) to ${doing}; a personal access token cannot ${cannot}.`,
    {
      suggestion:
        session.tokenSource === 'env'
          ? `${TOKEN_ENV} is set: unset it to use the sign-in of \`planwright login\`, or use ${WEB_TOKENS_PLACE}.`
          : `This computer is signed in with one: run \`planwright logout\`, then \`planwright login\` with your password, or use ${WEB_TOKENS_PLACE}.`,
    },
  );
}

const STALE_SIGN_IN = `Making a token needs a sign-in in the last 5 minutes: run \`planwright login\` again, or set ${PASSWORD_ENV}.`;

/**
 * Confirms the sign-in with the password, so that a token may be made: asked on a terminal (never shown), else
 * read from `PLANWRIGHT_PASSWORD`.
 *
 * @throws UsageError when there is neither; LoginError for a wrong password; CancelledError from the prompt;
 *   CliError when the account has no password (made with Google) or the server refuses.
 */
async function reauthenticate(
  io: CliIo,
  session: SignedInSession,
  required: ReauthenticationRequiredResult,
): Promise<void> {
  if (!required.flows.some((flow) => flow.id === 'reauthenticate')) {
    throw new CliError(
      CliErrorCode.forbidden,
      ExitCode.failure,
      'making a token needs a sign-in in the last 5 minutes, and this account has no password to confirm it with',
      { suggestion: `Make the token in ${WEB_TOKENS_PLACE} after signing in there.` },
    );
  }
  const onTerminal = io.stdin?.isTTY === true && io.stderr.isTTY === true;
  let password: string;
  if (onTerminal) {
    const { promptForCredentials } = await import('../login/login-prompt.js');
    // Only `tty` streams have `isTTY === true`, which is what makes the casts safe (as for `login`).
    ({ password } = await promptForCredentials({
      server: session.server.url,
      action: 'Confirm your password to make a token on',
      email: required.user.email,
      stdin: io.stdin as NodeJS.ReadStream,
      output: io.stderr as NodeJS.WriteStream,
    }));
  } else {
    const fromEnv = readEnv(io, PASSWORD_ENV);
    if (fromEnv === undefined) {
      throw new UsageError(STALE_SIGN_IN, {
        suggestion:
          'To sign in again: `planwright logout`, then `planwright login`. On a terminal, planwright asks for the password instead.',
      });
    }
    password = fromEnv;
  }
  const result = await session.call((client) => client.auth.reauthenticate(password));
  if (result.kind === 'authenticated') return;
  if (result.kind === 'invalid') {
    const { signInErrorMessage, SIGN_IN_TEXTS } = await import('@planwright/sdk');
    throw new LoginError(CliErrorCode.loginFailed, signInErrorMessage(result) ?? SIGN_IN_TEXTS.failed, {
      suggestion: onTerminal
        ? 'Run the command again and type the password of this account.'
        : `Check ${PASSWORD_ENV}: it must be the password of ${required.user.email}.`,
    });
  }
  throw await accountCallFailure(session, result);
}

/**
 * The error for an allauth answer that is none of the call's own: the session is not signed in (the SDK forgot a
 * dead token: the file follows), too many requests, or a refusal.
 */
async function accountCallFailure(
  session: SignedInSession,
  result: UnauthenticatedResult | SessionGoneResult | RateLimitedResult | ForbiddenResult,
): Promise<CliError> {
  switch (result.kind) {
    case 'unauthenticated':
    case 'session_gone': {
      session.store.clear();
      await session.store.flush();
      const { sessionEndedError } = await import('../session/signed-in-call.js');
      return sessionEndedError(session.server.url, session.tokenSource, session.personalToken, undefined);
    }
    case 'rate_limited': {
      const { formatWait } = await import('../login/login-outcome.js');
      return new CliError(
        CliErrorCode.rateLimited,
        ExitCode.failure,
        result.retryAfterSeconds === undefined
          ? 'Too many requests. Please wait a few minutes and try again.'
          : `Too many requests. Please wait ${formatWait(result.retryAfterSeconds)} and try again.`,
      );
    }
    case 'forbidden': {
      const reasons = result.errors.map((issue) => issue.message.trim()).filter(Boolean);
      return new CliError(
        CliErrorCode.forbidden,
        ExitCode.failure,
        `the server refused (403 Forbidden)${reasons.length > 0 ? `: ${reasons.join(' ')}` : ''}`,
      );
    }
  }
}

/** The server's refusal of a token's settings, field by field (the CLI checks them first, so this is rare). */
function invalidSettings(
  result: Extract<CreateTokenResult, { kind: 'invalid' }>,
  command: Command,
): UsageError {
  const fields = Object.entries(result.fieldErrors).flatMap(([field, issues]) =>
    issues.map((issue) => `${field}: ${issue.message}`),
  );
  const reasons = [...fields, ...result.formErrors.map((issue) => issue.message)];
  return new UsageError(`the server refused the token's settings: ${reasons.join('; ') || 'invalid input'}`, {
    suggestion: `Run \`${commandPath(command)} --help\` for usage.`,
  });
}
