#!/usr/bin/env node
// Server memory after start: resident set size (RSS) of `node packages/server/dist/server.js` on a new
// data directory (initdb + migrations) and on an existing one, once it answers and after a few requests.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBuiltServer } from './built-server.mjs';
import { summarize } from './stats.mjs';

const runs = Number(process.env.BENCH_RUNS ?? 3);
const REQUESTS = 30;
const MIB = 1024 * 1024;

/** VmRSS and VmHWM (peak RSS) of a process, in MiB, from /proc (Linux). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: (field('VmRSS') * 1024) / MIB, peak: (field('VmHWM') * 1024) / MIB };
}

/** Requests a first visitor makes: the web app, the health probe, an API list (unauthenticated) and a sign-up. */
async function someRequests(url, run) {
  for (let i = 0; i < REQUESTS; i++) {
    const answers = await Promise.all([
      fetch(`${url}/`),
      fetch(`${url}/api/v1/health`),
      fetch(`${url}/api/v1/blueprints/`),
      fetch(`${url}/_allauth/app/v1/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `bench-${run}-${i}@example.com`, password: 'a long bench password 1' }),
      }),
    ]);
    await Promise.all(answers.map((answer) => answer.arrayBuffer()));
  }
}

/** One start: ms from spawn to the first healthy answer, then RSS at that point and after the requests. */
async function measure(dataDir, run) {
  const started = performance.now();
  const server = await startBuiltServer(dataDir);
  for (;;) {
    try {
      const res = await fetch(`${server.url}/api/v1/health`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const startMs = performance.now() - started;
  const afterStart = memoryOf(server.pid);
  await someRequests(server.url, run);
  const afterRequests = memoryOf(server.pid);
  await server.stop();
  return { startMs, afterStart, afterRequests };
}

const existingDir = mkdtempSync(join(tmpdir(), 'planwright-bench-memory-existing-'));
const fresh = [];
const existing = [];
try {
  await measure(existingDir, 'init'); // initialise the existing directory once, unmeasured
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'planwright-bench-memory-new-'));
    try {
      fresh.push(await measure(dir, `fresh-${i}`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    existing.push(await measure(existingDir, `existing-${i}`));
  }
} finally {
  rmSync(existingDir, { recursive: true, force: true });
}

const round = (value) => Math.round(value);
const stats = (samples, pick) => {
  const s = summarize(samples.map(pick));
  return { median: round(s.median), min: round(s.min), max: round(s.max), runs: s.runs, p90: round(s.p90) };
};
const freshAfterStart = stats(fresh, (m) => m.afterStart.rss);
const existingAfterStart = stats(existing, (m) => m.afterStart.rss);
const freshAfterRequests = stats(fresh, (m) => m.afterRequests.rss);
const existingAfterRequests = stats(existing, (m) => m.afterRequests.rss);
const within10 = (a, b) => a <= b * 1.1;
console.log(
  JSON.stringify({
    bench: 'server-memory',
    title: 'Server memory (RSS) on a new and an existing data directory',
    method: `Spawn node packages/server/dist/server.js (PORT=0, PGlite), wait for GET /api/v1/health to answer 200, read VmRSS from /proc/<pid>/status; then ${REQUESTS} rounds of 4 parallel requests (GET /, GET /api/v1/health, GET /api/v1/blueprints/ unauthenticated, a sign-up) and read it again. ${runs} runs each, alternating new and existing directories.`,
    notes:
      'Before initdb moved to a child process (src/db/SPEC.md FS1; commit 057a724, 2026-11-28, 2 runs): a new data dir left the server at 833 MiB RSS after start (837 after the requests, peak 892) against 354 MiB on an existing one. Same-run comparison of the builds before and after the change on a new data dir, 4 runs each, alternating, on a busy machine (load average 7–12): RSS after start 826 → 390 MiB (median); spawn to first healthy answer 12.6 → 14.2 s (median; the child costs one more Node start and PGlite WASM compile, about 0.5–1.5 s).',
    results: [
      {
        name: 'existing data dir: RSS after start',
        unit: 'MiB',
        ...existingAfterStart,
        target: 'reported',
        pass: null,
      },
      {
        name: 'new data dir: RSS after start',
        unit: 'MiB',
        ...freshAfterStart,
        target: 'within 10 % of an existing data dir',
        pass: within10(freshAfterStart.median, existingAfterStart.median),
      },
      {
        name: 'existing data dir: RSS after requests',
        unit: 'MiB',
        ...existingAfterRequests,
        target: 'reported',
        pass: null,
      },
      {
        name: 'new data dir: RSS after requests',
        unit: 'MiB',
        ...freshAfterRequests,
        target: 'within 10 % of an existing data dir',
        pass: within10(freshAfterRequests.median, existingAfterRequests.median),
      },
      {
        name: 'new data dir: peak RSS during start',
        unit: 'MiB',
        ...stats(fresh, (m) => m.afterStart.peak),
        target: 'reported',
        pass: null,
      },
      {
        name: 'existing data dir: peak RSS during start',
        unit: 'MiB',
        ...stats(existing, (m) => m.afterStart.peak),
        target: 'reported',
        pass: null,
      },
      {
        name: 'new data dir: spawn to first healthy answer',
        unit: 'ms',
        ...stats(fresh, (m) => m.startMs),
        target: 'reported',
        pass: null,
      },
      {
        name: 'existing data dir: spawn to first healthy answer',
        unit: 'ms',
        ...stats(existing, (m) => m.startMs),
        target: 'reported',
        pass: null,
      },
    ],
  }),
);
