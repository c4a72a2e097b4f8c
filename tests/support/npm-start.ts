import { type ChildProcess, spawn } from 'node:child_process';
import { expect } from 'vitest';

/** A started `npm start` (or a shell command that ends in it) and its output so far. */
export interface StartedNpm {
  url: string;
  child: ChildProcess;
  output: () => string;
}

export interface NpmStartOptions {
  /** The folder to run in: the repository, or a fresh copy of it. */
  cwd: string;
  env?: Record<string, string>;
  /** A shell command line to run instead of `npm start`, such as the README's `npm install && npm start`. */
  shell?: string;
}

/** Runs `npm start` (or `options.shell`) in its own process group and resolves once it prints its URL. */
export async function npmStart(options: NpmStartOptions): Promise<StartedNpm> {
  const [command, args] = options.shell ? ['sh', ['-c', options.shell]] : ['npm', ['start']];
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', () => {
      const match = /Planwright is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) =>
      reject(new Error(`${command} ${args.join(' ')} exited with ${code} before serving:\n${output}`)),
    );
  });
  return { url, child, output: () => output };
}

/** Ends the whole process group at once; it may already be gone. */
export function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {}
}

/**
 * Presses Ctrl+C: SIGINT to the whole process group, as a terminal does. npm itself then dies by the
 * signal (that is npm's way), so what tells a clean stop is the server's own last log line.
 */
export async function stopNpm(started: StartedNpm): Promise<void> {
  await new Promise<void>((resolve) => {
    if (started.child.exitCode !== null || started.child.signalCode !== null) return resolve();
    started.child.on('exit', () => resolve());
    if (started.child.pid) process.kill(-started.child.pid, 'SIGINT');
  });
  // npm dies by the signal at once; the server, its grandchild, logs its last line a moment later.
  await expect.poll(() => started.output(), { timeout: 15_000 }).toContain('shutdown complete');
}
