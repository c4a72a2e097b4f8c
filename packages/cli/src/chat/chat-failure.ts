import { CHAT_TEXTS } from '@planwright/sdk';
import { CliError, CliErrorCode, NotSignedInError, ServerUnreachableError } from '../errors/cli-error.js';
import { ExitCode } from '../exit-codes.js';
import { ChatUnavailableError } from './chat-waits.js';

/** How the chat's own failures reach the top-level handler (T43, T53). */
export const chatFailure = {
  /** `--accept` met a proposal that no longer applies: nothing was saved for it. Exit 1. */
  notApplied(message: string, count: number): CliError {
    return new CliError(
      CliErrorCode.proposalNotApplied,
      ExitCode.failure,
      `${count === 1 ? 'a proposal was' : `${count} proposals were`} not applied: ${message}`,
      { suggestion: 'Ask the AI again about the current text, or open the chat screen to review it.' },
    );
  },

  /**
   * A chat that could not connect (or gave up) as the CLI says it elsewhere: a refused session is "not
   * signed in" (exit 3), anything else "cannot reach the server" (exit 4). Other errors pass unchanged.
   */
  translate(error: unknown, serverUrl: string): unknown {
    if (!(error instanceof ChatUnavailableError)) return error;
    if (error.message === CHAT_TEXTS.notAuthenticated) {
      return new NotSignedInError(
        CliErrorCode.sessionExpired,
        serverUrl,
        `the chat at ${serverUrl} refused the stored session`,
        { cause: error },
      );
    }
    return new ServerUnreachableError(serverUrl, `chat: ${error.message}`, { cause: error });
  },
};
