import { CommanderError } from 'commander';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-codes.js';
import { describeApiError } from './api-error-text.js';
import { CliError } from './cli-error.js';

/** Set to anything to print stack traces and causes (for bug reports). */
export const DEBUG_ENV = 'PLANWRIGHT_DEBUG';

/** What the top-level handler tells the user about a failure. */
export interface ErrorReport {
  readonly exitCode: ExitCode;
  /** `null` when commander already printed everything (help shown for a missing command). */
  readonly message: string | null;
  readonly code: string;
  readonly suggestion?: string | undefined;
}

/**
 * The one place where failures become output and exit codes. User errors (ours, the SDK's and
 * commander's) print `planwright: <message>` and their suggestion; anything else is a bug and says
 * how to report it. With `--json` the same report goes to stderr as one JSON document, so stdout
 * only ever carries results. Every message, suggestion and stack trace goes through `terminalText`
 * first, in both forms (JSON escapes C0 controls but not C1 or bidirectional ones).
 */
export async function reportError(error: unknown, io: CliIo, options: { json: boolean }): Promise<ExitCode> {
  const report = await describeError(error);
  const debug = Boolean(io.env[DEBUG_ENV]);
  if (report.message === null && !debug) return report.exitCode;
  // Messages carry the server's words (`detail`, status text, a login refusal) and echoed arguments:
  // nothing from outside reaches the terminal unfiltered. Loaded here, so `--help` never loads it.
  const { terminalLines, terminalText } = await import('../display/terminal-text.js');
  if (report.message !== null) {
    const message = terminalText(report.message);
    const suggestion = report.suggestion === undefined ? undefined : terminalText(report.suggestion);
    if (options.json) {
      const { exitCode, code } = report;
      io.stderr.write(`${JSON.stringify({ error: { code, message, suggestion, exitCode } })}\n`);
    } else {
      io.stderr.write(`planwright: ${message}\n`);
      if (suggestion) io.stderr.write(`${suggestion}\n`);
    }
  }
  if (debug) io.stderr.write(`${terminalLines(formatDebug(error)).join('\n')}\n`);
  return report.exitCode;
}

async function describeError(error: unknown): Promise<ErrorReport> {
  if (error instanceof CliError) {
    return {
      exitCode: error.exitCode,
      message: error.message,
      code: error.code,
      suggestion: error.suggestion,
    };
  }
  if (error instanceof CommanderError) return describeCommanderError(error);

  const sdkReport = await describeSdkError(error);
  if (sdkReport) return sdkReport;

  const message = error instanceof Error ? error.message : String(error);
  return {
    exitCode: ExitCode.internal,
    message: `unexpected error: ${message}`,
    code: 'internal',
    suggestion: `This is a bug in planwright. Please report it with the command you ran, the output of \`planwright --version\` and \`node --version\`, and the stack trace printed when you run it again with ${DEBUG_ENV}=1.`,
  };
}

/**
 * Commander throws (instead of exiting) because of `exitOverride()`. `--help` and `--version` come
 * through here too, with exit code 0 and their output already written.
 */
function describeCommanderError(error: CommanderError): ErrorReport {
  if (error.exitCode === 0) return { exitCode: ExitCode.ok, message: null, code: error.code };
  // `planwright` or `planwright config` alone: commander printed the help to stderr already.
  if (error.code === 'commander.help' || error.code === 'commander.helpDisplayed') {
    return { exitCode: ExitCode.usage, message: null, code: 'usage' };
  }
  // Commander's messages look like "error: unknown command 'stats'\n(Did you mean status?)".
  const [first = '', ...rest] = error.message.replace(/^error:\s*/, '').split('\n');
  const hint = rest
    .join(' ')
    .trim()
    .replace(/^\((.*)\)$/, '$1');
  return {
    exitCode: ExitCode.usage,
    message: first,
    code: 'usage',
    suggestion: hint || 'Run `planwright --help` for usage.',
  };
}

/**
 * Errors from the SDK, recognised through its `isInstance` checks (they work across copies of the
 * package). The SDK is imported only here, on the error path, so a run that never talks to a server
 * never loads it.
 */
async function describeSdkError(error: unknown): Promise<ErrorReport | undefined> {
  let sdk: typeof import('@planwright/sdk');
  try {
    sdk = await import('@planwright/sdk');
  } catch {
    return undefined;
  }
  if (!sdk.PlanwrightError.isInstance(error)) return undefined;

  let exitCode: ExitCode = ExitCode.failure;
  if (sdk.AuthRequiredError.isInstance(error)) exitCode = ExitCode.notSignedIn;
  else if (sdk.NetworkError.isInstance(error)) exitCode = ExitCode.serverUnreachable;
  else if (sdk.AbortedError.isInstance(error) && error.isTimeout) exitCode = ExitCode.serverUnreachable;

  const message =
    exitCode !== ExitCode.notSignedIn && sdk.ApiError.isInstance(error)
      ? describeApiError(error)
      : error.message;
  return { exitCode, message, code: error.code, suggestion: error.suggestion };
}

function formatDebug(error: unknown): string {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 8; depth++) {
    lines.push(depth === 0 ? '' : 'Caused by:');
    lines.push(current instanceof Error ? (current.stack ?? String(current)) : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines.join('\n');
}
