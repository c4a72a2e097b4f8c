import { Command } from 'commander';
import type { CliIo } from './cli-io.js';
import { registerBlueprintsCommand } from './commands/blueprints.js';
import { registerChatCommand } from './commands/chat.js';
import { registerCommentCommand } from './commands/comment.js';
import { registerCommentsCommand } from './commands/comments.js';
import { registerConfigCommand } from './commands/config.js';
import { registerConvertCommand } from './commands/convert.js';
import { registerDiffCommand } from './commands/diff.js';
import { registerDocumentsCommand } from './commands/documents.js';
import { registerExportCommand } from './commands/export.js';
import { registerFinalizeCommand } from './commands/finalize.js';
import { registerImportCommand } from './commands/import.js';
import { registerInvitationsCommand } from './commands/invitations.js';
import { registerLoginCommand } from './commands/login.js';
import { registerLogoutCommand } from './commands/logout.js';
import { registerMembersCommand } from './commands/members.js';
import { registerOrgsCommand } from './commands/orgs.js';
import { registerProgressCommand } from './commands/progress.js';
import { registerShareCommand } from './commands/share.js';
import { registerShareLinkCommand } from './commands/share-link.js';
import { registerStatusCommand } from './commands/status.js';
import { registerTokensCommand } from './commands/tokens.js';
import { registerVersionsCommand } from './commands/versions.js';
import { registerWhoamiCommand } from './commands/whoami.js';
import { DEFAULT_SERVER_URL, SERVER_ENV } from './config/server-url.js';
import { ExitCode } from './exit-codes.js';
import { readCliVersion } from './version.js';

/** The options every command accepts, as commander parses them (validated per command). */
export interface GlobalOptions {
  server?: string;
  json?: boolean;
}

/**
 * Builds the `planwright` program for one run.
 *
 * Startup cost matters here: this module and every command module may only import commander and
 * small local modules. zod, the SDK, the config file code and Ink are imported inside the actions
 * that need them, so `--help` and `--version` stay close to bare `node` (see bench/cli-version.mjs
 * and test/binary.test.ts, which fails if Ink or React is loaded).
 */
export function createProgram(io: CliIo, args: readonly string[] = []): Command {
  const program = new Command('planwright')
    .description('Write business plans with AI: manage Planwright from the terminal.')
    .helpOption('-h, --help', 'show help for a command')
    .option(
      '--server <url>',
      `Planwright server URL (else $${SERVER_ENV}, else the config file's "server", else ${DEFAULT_SERVER_URL})`,
    )
    .option('--json', 'print the result as one JSON document on stdout (for scripts)')
    // Commands never exit the process: commander throws instead, and `run()` decides the exit code.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Parse errors are printed once, by the top-level handler, in the same format as all others.
      outputError: () => {},
    })
    .showSuggestionAfterError()
    .addHelpText('after', exitCodeHelp);
  // Commander matches a program option anywhere on the line, so `--version` belongs to the program only
  // when no command is named: `planwright blueprints publish <uuid> --version 3` is the blueprint's version.
  if (!namesCommand(args)) program.version(readCliVersion(), '-v, --version', 'print the planwright version');
  // Subcommands created with `.command()` inherit exitOverride and configureOutput.
  registerStatusCommand(program, io);
  registerLoginCommand(program, io);
  registerWhoamiCommand(program, io);
  registerLogoutCommand(program, io);
  registerTokensCommand(program, io);
  registerDocumentsCommand(program, io);
  registerBlueprintsCommand(program, io);
  registerShareCommand(program, io);
  registerMembersCommand(program, io);
  registerInvitationsCommand(program, io);
  registerCommentCommand(program, io);
  registerCommentsCommand(program, io);
  registerVersionsCommand(program, io);
  registerDiffCommand(program, io);
  registerShareLinkCommand(program, io);
  registerOrgsCommand(program, io);
  registerChatCommand(program, io);
  registerFinalizeCommand(program, io);
  registerProgressCommand(program, io);
  registerExportCommand(program, io);
  registerImportCommand(program, io);
  registerConvertCommand(program, io);
  registerConfigCommand(program, io);
  return program;
}

const exitCodeHelp = `
Exit codes:
  ${ExitCode.ok}   success
  ${ExitCode.failure}   failure (the server refused, a refused sign-in, a missing setting, a broken file)
  ${ExitCode.usage}   wrong usage (unknown command or option, invalid argument or server URL)
  ${ExitCode.notSignedIn}   not signed in, or the session expired
  ${ExitCode.serverUnreachable}   the server could not be reached
  ${ExitCode.internal}  unexpected error (a bug: please report it)
  ${ExitCode.cancelled} cancelled at a prompt (Ctrl+C or Esc)`;

/** Whether the command line names a command (any word that is not an option or `--server`'s value). */
function namesCommand(args: readonly string[]): boolean {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg === '--server') index += 1;
    else if (arg === '--' || !arg.startsWith('-')) return true;
  }
  return false;
}
