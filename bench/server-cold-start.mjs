#!/usr/bin/env node
// Server cold start: time from spawning `node packages/server/dist/server.js` to its first 200 from
// GET /api/v1/health, on a new data directory (initdb + migrations) and on an existing one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBuiltServer } from './built-server.mjs';
import { summarize } from './stats.mjs';

const runs = Number(process.env.BENCH_RUNS ?? 7);

/** One start: resolves with ms from spawn to the first healthy answer, after a clean SIGTERM. */
async function coldStart(dataDir) {
  const started = performance.now();
  const server = await startBuiltServer(dataDir);
  const { url } = server;
  // Poll tightly: the first healthy answer is the end of the measurement.
  for (;;) {
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.status === 200) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const elapsed = performance.now() - started;
  await server.stop();
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
