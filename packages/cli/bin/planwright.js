#!/usr/bin/env node
// The `planwright` bin. It is a committed file, not dist/cli.js itself, because npm links a workspace's bin
// at install time only when its target exists, and dist/ is built after that (the root `prepare`).
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write(
    'planwright: the CLI is not built (dist/cli.js is missing). In the repository, run `npm run build` ' +
      '(`npm install` does it too), then try again.\n',
  );
  process.exitCode = 1;
}
