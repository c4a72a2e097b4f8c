import { run } from './run.js';

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
