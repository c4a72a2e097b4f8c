import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach } from 'vitest';
import type { InputSource, TextSink } from '../../src/cli-io.js';
import { run } from '../../src/run.js';

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  /** Standard input: text to pipe in, or a stream. Absent: there is none. */
  stdin?: string | InputSource;
  /** Pretend standard input and standard error are a terminal (for the login prompt). */
  tty?: boolean;
}

/** Runs the CLI in-process, with captured output and only the environment given. */
export async function runCli(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
  options: RunCliOptions = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const tty = options.tty ?? false;
  const stderrSink: TextSink = {
    isTTY: tty,
    write: (text: string) => {
      stderr += text;
    },
  };
  let stdin: InputSource | undefined =
    typeof options.stdin === 'string' ? Readable.from([Buffer.from(options.stdin)]) : options.stdin;
  if (tty) stdin = Object.assign(stdin ?? Readable.from([]), { isTTY: true });
  const exitCode = await run(args, {
    stdout: {
      write: (text: string) => {
        stdout += text;
      },
    },
    stderr: stderrSink,
    ...(stdin ? { stdin } : {}),
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
