import { ExitCode } from '../exit-codes.js';

/**
 * Stable codes of the errors the CLI raises itself (printed by `--json` as `error.code`).
 * Errors coming from the SDK keep the SDK's own codes.
 */
export const CliErrorCode = {
  usage: 'usage',
  configFileInvalid: 'config_file_invalid',
  configFileUnreadable: 'config_file_unreadable',
  configFileUnwritable: 'config_file_unwritable',
  configKeyNotSet: 'config_key_not_set',
  serverUnreachable: 'server_unreachable',
  sessionFileInvalid: 'session_file_invalid',
  sessionFileUnreadable: 'session_file_unreadable',
  sessionFileUnwritable: 'session_file_unwritable',
  notSignedIn: 'not_signed_in',
  sessionExpired: 'session_expired',
  alreadySignedIn: 'already_signed_in',
  loginFailed: 'login_failed',
  emailNotVerified: 'email_not_verified',
  tooManyLoginAttempts: 'too_many_login_attempts',
  rateLimited: 'rate_limited',
  cancelled: 'cancelled',
  notFound: 'not_found',
  fileExists: 'file_exists',
  fileUnreadable: 'file_unreadable',
  fileUnwritable: 'file_unwritable',
  exportFailed: 'export_failed',
  proposalNotApplied: 'proposal_not_applied',
  personalTokenNotAllowed: 'personal_token_not_allowed',
  forbidden: 'forbidden',
} as const;

export type CliErrorCode = (typeof CliErrorCode)[keyof typeof CliErrorCode];

export interface CliErrorOptions {
  /** One line telling the user what to do next, printed under the message. */
  suggestion?: string;
  cause?: unknown;
}

/**
 * An error the user can act on: the top-level handler prints `planwright: <message>` and the
 * suggestion, and exits with `exitCode`. Commands throw these instead of calling `process.exit`.
 *
 * It mirrors the SDK's `PlanwrightError` (code, suggestion, cause) without extending it, so that
 * `--help` and `--version` never have to load the SDK just to define an error class.
 */
export class CliError extends Error {
  readonly code: CliErrorCode;
  readonly exitCode: ExitCode;
  readonly suggestion: string | undefined;

  constructor(code: CliErrorCode, exitCode: ExitCode, message: string, options: CliErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    this.suggestion = options.suggestion;
  }
}

/** The command line (or an environment variable standing in for it) is wrong. Exit code 2. */
export class UsageError extends CliError {
  constructor(message: string, options?: CliErrorOptions) {
    super(CliErrorCode.usage, ExitCode.usage, message, options);
  }
}

/** The config file exists but cannot be read, parsed, validated or written. Exit code 1. */
export class ConfigFileError extends CliError {
  readonly path: string;

  constructor(
    code:
      | typeof CliErrorCode.configFileInvalid
      | typeof CliErrorCode.configFileUnreadable
      | typeof CliErrorCode.configFileUnwritable,
    path: string,
    message: string,
    options?: CliErrorOptions,
  ) {
    super(code, ExitCode.failure, message, options);
    this.path = path;
  }
}

/** `config get` of a key that has no value. Exit code 1, like `git config --get`. */
export class ConfigKeyNotSetError extends CliError {
  constructor(key: string, path: string) {
    super(CliErrorCode.configKeyNotSet, ExitCode.failure, `${key} is not set in ${path}`, {
      suggestion: `Set it with \`planwright config set ${key} <value>\`.`,
    });
  }
}

/** The Planwright server did not answer at all. Exit code 4. */
export class ServerUnreachableError extends CliError {
  readonly serverUrl: string;

  constructor(serverUrl: string, reason: string | undefined, options: { cause?: unknown } = {}) {
    super(
      CliErrorCode.serverUnreachable,
      ExitCode.serverUnreachable,
      `cannot reach the Planwright server at ${serverUrl}${reason ? ` (${reason})` : ''}`,
      {
        suggestion:
          'Start one with `npm start` in the Planwright folder, or point to yours with --server <url> or PLANWRIGHT_SERVER.',
        cause: options.cause,
      },
    );
    this.serverUrl = serverUrl;
  }
}

/** `session.json` exists but cannot be read, parsed, validated or written. Exit code 1. */
export class SessionFileError extends CliError {
  readonly path: string;

  constructor(
    code:
      | typeof CliErrorCode.sessionFileInvalid
      | typeof CliErrorCode.sessionFileUnreadable
      | typeof CliErrorCode.sessionFileUnwritable,
    path: string,
    message: string,
    options?: CliErrorOptions,
  ) {
    super(code, ExitCode.failure, message, options);
    this.path = path;
  }
}

/**
 * No session for this server: none was stored (`not_signed_in`), or the server no longer accepts
 * the stored one (`session_expired`, and the token has been removed). Exit code 3.
 */
export class NotSignedInError extends CliError {
  readonly serverUrl: string;

  constructor(
    code: typeof CliErrorCode.notSignedIn | typeof CliErrorCode.sessionExpired,
    serverUrl: string,
    message: string,
    options: CliErrorOptions = {},
  ) {
    super(code, ExitCode.notSignedIn, message, {
      suggestion: 'Run `planwright login` to sign in.',
      ...options,
    });
    this.serverUrl = serverUrl;
  }
}

/** The codes of a refused `planwright login`. */
export type LoginErrorCode =
  | typeof CliErrorCode.alreadySignedIn
  | typeof CliErrorCode.loginFailed
  | typeof CliErrorCode.emailNotVerified
  | typeof CliErrorCode.tooManyLoginAttempts
  | typeof CliErrorCode.rateLimited;

/** The server did not sign the user in: wrong password, unverified address, too many tries… Exit code 1. */
export class LoginError extends CliError {
  constructor(code: LoginErrorCode, message: string, options?: CliErrorOptions) {
    super(code, ExitCode.failure, message, options);
  }
}

/**
 * The server has no such document or blueprint for this user (it answers 404 alike for one that never
 * existed and for someone else's). Exit code 1.
 */
export class NotFoundError extends CliError {
  constructor(message: string, options?: CliErrorOptions) {
    super(CliErrorCode.notFound, ExitCode.failure, message, options);
  }
}

/** The user cancelled an interactive prompt. Exit code 130, like a shell after Ctrl+C. */
export class CancelledError extends CliError {
  constructor(message: string) {
    super(CliErrorCode.cancelled, ExitCode.cancelled, message);
  }
}
