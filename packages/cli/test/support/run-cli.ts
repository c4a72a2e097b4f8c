import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { run } from '../../src/run.js';

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process, with captured output and only the environment given. */
export async function runCli(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const exitCode = await run(args, {
    stdout: {
      write: (text: string) => {
        stdout += text;
      },
    },
    stderr: {
      write: (text: string) => {
        stderr += text;
      },
    },
    env,
  });
  return { exitCode, stdout, stderr };
}

/** A fresh temporary directory per test, removed afterwards. Read `.path` inside tests. */
export function useTempDir(prefix = 'planwright-cli-'): { readonly path: string } {
  const state = { path: '' };
  beforeEach(async () => {
    state.path = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await rm(state.path, { recursive: true, force: true });
  });
  return state;
}
