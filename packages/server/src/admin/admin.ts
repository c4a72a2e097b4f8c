#!/usr/bin/env node
import { runAdminCommand } from './admin-command.js';

// `planwright-admin`: administrator tasks against the server's own database. One line on stderr and a
// non-zero exit code for anything the administrator can fix; a stack trace only for a bug.
runAdminCommand(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  // `npm run admin -w …` runs in packages/server; relative paths (PLANWRIGHT_DATA_DIR's default ./data,
  // --file) mean what they meant where the administrator typed the command, as for `npm start`.
  cwd: (process.env.npm_lifecycle_event === 'admin' && process.env.INIT_CWD) || process.cwd(),
  now: () => new Date(),
})
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error: unknown) => {
    process.stderr.write(
      `planwright-admin: unexpected error, please report it: ${(error as Error).stack ?? String(error)}\n`,
    );
    process.exitCode = 1;
  });
