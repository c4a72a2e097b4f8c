import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverEntry = join(fileURLToPath(new URL('../', import.meta.url)), 'packages/server/dist/server.js');

/**
 * Spawns the built server on a free port with `dataDir` and resolves once it prints its URL.
 * `stop()` sends SIGTERM and resolves when the process has exited.
 */
export async function startBuiltServer(dataDir, env = {}) {
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? []), serverEntry],
    {
      env: {
        ...process.env,
        PORT: '0',
        PLANWRIGHT_DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        PLANWRIGHT_PRINT_URL: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  // BENCH_SERVER_LOG=file keeps the server's log lines (warnings and errors at the default level) for a look.
  if (process.env.BENCH_SERVER_LOG)
    child.stdout.pipe(createWriteStream(process.env.BENCH_SERVER_LOG, { flags: 'a' }));
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      const match = /Planwright is running at (http:\/\/\S+)/.exec(output);
      if (!match) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.on('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}
