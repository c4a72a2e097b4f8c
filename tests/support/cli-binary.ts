import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The built `planwright` bin the CLI tests run as a child process. */
export const CLI_BIN = join(root, 'packages/cli/dist/cli.js');

/**
 * Builds the SDK and the CLI when their sources are newer than their builds (the bin imports the SDK's
 * build): scripts/build.mjs, as `npm run build` and `npm start` use it, so after `npm test`'s build this
 * does nothing.
 */
export function ensureCliBuilt(): void {
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const { build } = await import('./scripts/build.mjs'); build({ only: ['@planwright/sdk', '@planwright/cli'] });",
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}
