#!/usr/bin/env node
// Issue 20 §10, "one user cannot stall everyone": the health probe's latency while hostile loads run
// against the built server. Each phase runs its load while a probe asks GET /api/v1/health back to back
// (one at a time) and records every answer's time; the server's RSS is sampled from /proc meanwhile.
// Phases: idle; 50 parallel PATCHes with a 4.9 MB description (all refused); 50 anonymous 4.9 MB bodies;
// one valid 3 MB save, then five at once; 20 parallel PDF exports by one user while another user exports
// one (that one's own latency and status reported too).
//
//   npm run build && node bench/hostile-load.mjs
//
// Prints a table for people, then, as its last line, the JSON result that bench/run.mjs collects.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call as callWith, json as jsonWith, signUpVerified } from './accounts.mjs';
import { startBuiltServer } from './built-server.mjs';
import { generatePlan } from './generated-plan.mjs';
import { summarize } from './stats.mjs';

const PASSWORD = 'a-sturdy-benchmark-passphrase';
const agent = new Agent({ keepAlive: true, maxSockets: 200 });
const call = (url, options = {}) => callWith(url, { agent, ...options });
const json = (url, options = {}) => jsonWith(url, { agent, ...options });

const MB = 1024 * 1024;
const rssOf = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
};

// The probe runs in a process of its own: the load generator's own event loop (sending 245 MB of bodies)
// must not delay the probe's measurements.
const PROBE = `
const { request, Agent } = require('node:http');
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const latencies = [];
let probing = true;
process.stdin.on('data', () => { probing = false; });
const once = () => new Promise((resolve, reject) => {
  const started = performance.now();
  const req = request(process.argv[1], { agent }, (res) => {
    res.resume();
    res.on('end', () => { latencies.push(performance.now() - started); resolve(res.statusCode); });
  });
  req.on('error', reject);
  req.end();
});
(async () => {
  while (probing) {
    const status = await once();
    if (status !== 200) throw new Error('health answered ' + status);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.stdout.write(JSON.stringify(latencies));
})();
`;

/** Runs `load()` while a separate process probes health; the probe's latencies, the peak RSS and the load's own result. */
async function underLoad(server, load) {
  const probe = spawn(process.execPath, ['-e', PROBE, `${server.url}/api/v1/health`], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  probe.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise((resolve) => probe.on('exit', resolve));
  await new Promise((resolve) => setTimeout(resolve, 300));
  let peakRss = rssOf(server.pid);
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssOf(server.pid));
  }, 100);
  const started = performance.now();
  const outcome = await load();
  const loadMs = performance.now() - started;
  clearInterval(sampler);
  probe.stdin.end('stop');
  await exited;
  return { health: summarize(JSON.parse(output)), peakRss, loadMs: Math.round(loadMs), outcome };
}

const counts = (statuses) => {
  const tally = new Map();
  for (const status of statuses) tally.set(status, (tally.get(status) ?? 0) + 1);
  return [...tally].map(([status, n]) => `${n}× ${status}`).join(', ');
};

const dataDir = mkdtempSync(join(tmpdir(), 'planwright-bench-hostile-'));
const server = await startBuiltServer(dataDir);
const results = [];
const table = [];
try {
  const api = `${server.url}/api/v1`;
  const users = [];
  for (const [index, email] of ['bench-hostile-a@example.com', 'bench-hostile-b@example.com'].entries()) {
    await signUpVerified(server.url, dataDir, email, PASSWORD, `127.0.1.${index + 1}`);
    const login = await json(`${server.url}/_allauth/app/v1/auth/login`, {
      method: 'POST',
      body: { email, password: PASSWORD },
    });
    users.push({ 'x-session-token': login.body.meta.session_token });
  }
  const [alice, bob] = users;
  const newDocument = async (auth) =>
    (await json(`${api}/documents/`, { method: 'POST', headers: auth, body: {} })).body;
  const aliceDoc = await newDocument(alice);
  const bobDoc = await newDocument(bob);

  const record = (name, phase, extra = '') => {
    const { health } = phase;
    results.push({
      name: `health p90 during ${name}`,
      median: health.p90,
      unit: 'ms',
      spread: `median ${health.median}, max ${health.max} (${health.runs} probes); load ${phase.loadMs} ms; peak RSS ${phase.peakRss} MiB${extra ? `; ${extra}` : ''}`,
      target: 'figure',
    });
    table.push(
      `${name.padEnd(58)} health median ${String(health.median).padStart(7)} ms  p90 ${String(health.p90).padStart(7)} ms  max ${String(health.max).padStart(7)} ms  load ${phase.loadMs} ms  RSS ${phase.peakRss} MiB ${extra}`,
    );
  };

  record('idle (2 s)', await underLoad(server, () => new Promise((resolve) => setTimeout(resolve, 2000))));

  const bigDescription = JSON.stringify({ description: 'x'.repeat(Math.round(4.9 * MB)) });
  const oversized = await underLoad(server, async () =>
    Promise.all(
      Array.from({ length: 50 }, () =>
        call(`${api}/documents/${aliceDoc.uuid}/`, {
          method: 'PATCH',
          headers: alice,
          body: bigDescription,
        }).then((r) => r.status),
      ),
    ),
  );
  record('50 parallel PATCHes, 4.9 MB description', oversized, counts(oversized.outcome));

  const anonymous = await underLoad(server, async () =>
    Promise.all(
      Array.from({ length: 50 }, () =>
        call(`${api}/documents/${aliceDoc.uuid}/`, { method: 'PATCH', body: bigDescription })
          .then((r) => r.status)
          .catch((error) => error.code ?? 'error'),
      ),
    ),
  );
  record('50 anonymous 4.9 MB bodies', anonymous, counts(anonymous.outcome));

  // A valid save of about 3 MB: the generated plan, repeated until its JSON is that large.
  const plan = generatePlan({ sections: 10 }).document;
  const bigContent = { type: 'doc', content: [] };
  while (JSON.stringify(bigContent).length < 3 * MB)
    bigContent.content.push(...structuredClone(plan.content));
  const saveBody = JSON.stringify({ content: bigContent });
  const oneSave = await underLoad(server, async () => [
    (await call(`${api}/documents/${aliceDoc.uuid}/`, { method: 'PATCH', headers: alice, body: saveBody }))
      .status,
  ]);
  record(
    `one valid ${Math.round((saveBody.length / MB) * 10) / 10} MB save`,
    oneSave,
    counts(oneSave.outcome),
  );
  const docs = [aliceDoc];
  for (let i = 1; i < 5; i += 1) docs.push(await newDocument(alice));
  const fiveSaves = await underLoad(server, async () =>
    Promise.all(
      docs.map((doc) =>
        call(`${api}/documents/${doc.uuid}/`, { method: 'PATCH', headers: alice, body: saveBody }).then(
          (r) => r.status,
        ),
      ),
    ),
  );
  record('five valid 3 MB saves at once', fiveSaves, counts(fiveSaves.outcome));

  // PDF exports: Alice's 50-page plan twenty times at once, Bob's one plan a moment later.
  await json(`${api}/documents/${bobDoc.uuid}/`, { method: 'PATCH', headers: bob, body: { content: plan } });
  const aliceExportDoc = await newDocument(alice);
  await json(`${api}/documents/${aliceExportDoc.uuid}/`, {
    method: 'PATCH',
    headers: alice,
    body: { content: plan },
  });
  const exports = await underLoad(server, async () => {
    const many = Array.from({ length: 20 }, () =>
      call(`${api}/documents/${aliceExportDoc.uuid}/export?format=pdf`, { headers: alice }).then(
        (r) => r.status,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const bobStarted = performance.now();
    const bobStatus = (await call(`${api}/documents/${bobDoc.uuid}/export?format=pdf`, { headers: bob }))
      .status;
    const bobMs = Math.round(performance.now() - bobStarted);
    return { alice: await Promise.all(many), bobStatus, bobMs };
  });
  record(
    "20 parallel PDF exports by one user, another's one (50-page plans)",
    exports,
    `one user: ${counts(exports.outcome.alice)}; the other: ${exports.outcome.bobStatus} in ${exports.outcome.bobMs} ms`,
  );
  results.push({
    name: "the other user's one PDF export while the first has 20 in flight",
    value: exports.outcome.bobMs,
    unit: 'ms',
    spread: `status ${exports.outcome.bobStatus}`,
    target: 'figure',
  });
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

for (const line of table) console.log(line);
console.log(
  JSON.stringify({
    bench: 'hostile-load',
    title: 'One user cannot stall everyone: health latency under hostile load',
    method:
      'The built server (PGlite, default settings) on this machine. A probe in its own process asks GET /api/v1/health back to back, 20 ms apart, while each load runs; the figure is the probe’s p90 answer time during that load (median, max, the load’s duration, the server’s peak RSS and the answers’ statuses beside it). Loads: 50 parallel PATCHes with a 4.9 MB description (refused: 5,000 characters at most); 50 anonymous 4.9 MB PATCH bodies (refused before reading); one and five valid ~3 MB content saves; one user’s 20 parallel PDF exports of a 50-page plan (bench/generated-plan.mjs) while a second user exports the same plan 100 ms later (its own time reported). Figures, not tests (bench/hostile-load.mjs).',
    results,
    notes:
      'Before issue 20 §10 (measured from outside, as filed): the 50 oversized PATCHes stalled the probe 14.8 s (every description counted with [...value].length); 50 anonymous 4.9 MB bodies were parsed before the session check (probe 3 s, RSS 589 → 922 MB); one valid 3 MB save stalled it 3.2 s, five 11.8 s; one user’s 20 PDF exports made the last wait 109 s and every other user’s conversions with it.',
  }),
);
