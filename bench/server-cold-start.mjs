#!/usr/bin/env node
// Server cold start: time from spawning `node packages/server/dist/server.js` to its first 200 from
// GET /api/v1/health, on a new data directory (initdb + migrations) and on an existing one.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize } from './stats.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const serverEntry = join(root, 'packages/server/dist/server.js');
const runs = Number(process.env.BENCH_RUNS ?? 7);

/** One start: resolves with ms from spawn to the first healthy answer, after a clean SIGTERM. */
async function coldStart(dataDir) {
  const started = performance.now();
  const child = spawn(process.execPath, [serverEntry], {
    env: {
      ...process.env,
      PORT: '0',
      PLANWRIGHT_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PLANWRIGHT_PRINT_URL: '1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /Planwright is running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  // Poll tightly: the first healthy answer is the end of the measurement.
  for (;;) {
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.status === 200) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const elapsed = performance.now() - started;
  await new Promise((resolve) => {
    child.on('exit', resolve);
    child.kill('SIGTERM');
  });
  return elapsed;
}

const existingDir = mkdtempSync(join(tmpdir(), 'planwright-bench-existing-'));
const fresh = [];
const existing = [];
try {
  await coldStart(existingDir); // initialise the existing directory once, unmeasured
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'planwright-bench-new-'));
    try {
      fresh.push(await coldStart(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    existing.push(await coldStart(existingDir));
  }
} finally {
  rmSync(existingDir, { recursive: true, force: true });
}

const existingStats = summarize(existing);
const freshStats = summarize(fresh);
console.log(
  JSON.stringify({
    bench: 'server-cold-start',
    title: 'Server cold start to first healthy answer',
    method: `Spawn node packages/server/dist/server.js (PORT=0), poll GET /api/v1/health every 5 ms until 200; ${runs} runs each, alternating; process start included.`,
    results: [
      {
        name: 'existing data dir',
        unit: 'ms',
        ...existingStats,
        target: '≤ 2000 ms (median)',
        pass: existingStats.median <= 2000,
      },
      { name: 'new data dir', unit: 'ms', ...freshStats, target: 'reported', pass: null },
    ],
  }),
);
