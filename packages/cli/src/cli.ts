import { run } from './run.js';

// A reader that stops early (`planwright documents list --json | head`) closes the pipe: end quietly, as
// Unix tools do, instead of Node's unhandled EPIPE stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

// The bin entry (tsup adds the `#!/usr/bin/env node` line). Setting `process.exitCode` instead of
// calling `process.exit()` lets stdout drain first when it is a pipe.
process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  // A getter: `process.stdin` creates its stream on first access, which most commands never need.
  get stdin() {
    return process.stdin;
  },
  env: process.env,
});
