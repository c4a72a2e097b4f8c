#!/usr/bin/env node
// The `planwright` bin. It is a committed file, not dist/cli.js itself, because npm links a workspace's bin
// at install time only when its target exists, and dist/ is built after that (the root `prepare`).
const built = new URL('../dist/cli.js', import.meta.url);
try {
  await import(built.href);
} catch (error) {
  // Only the missing build itself gets this message; any other failure is the CLI's own and propagates.
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(built.pathname)) throw error;
  process.stderr.write(
    'planwright: the CLI is not built (dist/cli.js is missing). In the repository, run `npm run build` ' +
      '(`npm install` does it too), then try again.\n',
  );
  process.exitCode = 1;
}
