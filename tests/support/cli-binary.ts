import { execFile, execFileSync } from 'node:child_process';
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

/** How the built bin ended: its exit code, standard output as bytes (a PDF or a .docx), standard error. */
export interface CliExit {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** Where and as whom the bin runs: a clean environment with only these set. */
export interface CliRun {
  cwd: string;
  /** `PLANWRIGHT_CONFIG_DIR`: the signed-in account's config and session. */
  configDir: string;
  /** `PLANWRIGHT_SERVER`. */
  serverUrl: string;
  /** More of the environment (`PLANWRIGHT_TOKEN`, …). */
  env?: Record<string, string>;
}

/** Runs the built bin as a child process with pipes, `input` on its standard input, as a script would. */
export function runCliBinary(run: CliRun, args: string[], input = ''): Promise<CliExit> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI_BIN, ...args],
      {
        cwd: run.cwd,
        encoding: 'buffer',
        maxBuffer: 64 * 1024 * 1024,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: run.cwd,
          PLANWRIGHT_CONFIG_DIR: run.configDir,
          PLANWRIGHT_SERVER: run.serverUrl,
          ...run.env,
        },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr: stderr.toString('utf8') }),
    );
    child.stdin?.end(input);
  });
}
