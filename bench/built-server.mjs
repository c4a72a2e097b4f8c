import { spawn } from 'node:child_process';
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
  let output = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /Planwright is running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
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
