#!/usr/bin/env node
// Versions (docs/versions.md): the history list of a plan with 1,000 versions, and the diff of the 200-page plan
// against a version where 5 % of its subsections changed, against the built server on the embedded database.
// Times are measured at the client on loopback, so they include the HTTP round trip (an upper bound of server time).
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call as callWith, json as jsonWith, signUpVerified } from './accounts.mjs';
import { startBuiltServer } from './built-server.mjs';
import { generatePlan } from './editor-plan.mjs';
import { summarize } from './stats.mjs';

const VERSIONS = 1000;
const LIST_TARGET_MS = 100;
const DIFF_TARGET_MS = 1000;
const RUNS = 21;
const PASSWORD = 'a-sturdy-benchmark-passphrase';
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
const call = (url, options = {}) => callWith(url, { ...options, agent });
const json = (url, options = {}) => jsonWith(url, { ...options, agent });

async function timed(runs, work) {
  const times = [];
  for (let i = 0; i < runs + 2; i++) {
    const start = performance.now();
    await work();
    // The first two warm the caches and the JIT.
    if (i >= 2) times.push(performance.now() - start);
  }
  return summarize(times);
}

const dataDir = mkdtempSync(join(tmpdir(), 'planwright-bench-versions-'));
const server = await startBuiltServer(dataDir, { LIVE_DOCUMENTS: 'off' });
try {
  const api = `${server.url}/api/v1`;
  const email = 'bench-versions@example.com';
  await signUpVerified(server.url, dataDir, email, PASSWORD);
  const login = await json(`${server.url}/_allauth/app/v1/auth/login`, {
    method: 'POST',
    body: { email, password: PASSWORD },
  });
  const auth = { 'x-session-token': login.body.meta.session_token };

  // A plan with 1,000 named versions.
  const listed = await json(`${api}/documents/`, {
    method: 'POST',
    headers: auth,
    body: { title: 'Many versions' },
  });
  for (let i = 0; i < VERSIONS; i++) {
    await json(`${api}/documents/${listed.body.uuid}/versions/`, {
      method: 'POST',
      headers: auth,
      body: { name: `Version ${i + 1}` },
    });
  }
  const list = await timed(RUNS, async () => {
    const res = await call(`${api}/documents/${listed.body.uuid}/versions/?page_size=100`, { headers: auth });
    if (res.status !== 200) throw new Error(`list answered ${res.status}`);
  });

  // The 200-page plan, a version of it, then 5 % of its subsections rewritten.
  const created = await json(`${api}/documents/`, {
    method: 'POST',
    headers: auth,
    body: { title: '200 pages' },
  });
  const plan = generatePlan(created.body.content);
  const uuid = created.body.uuid;
  await json(`${api}/documents/${uuid}/`, { method: 'PATCH', headers: auth, body: { content: plan } });
  await json(`${api}/documents/${uuid}/versions/`, { method: 'POST', headers: auth, body: { name: 'v1' } });
  const changed = structuredClone(plan);
  const subsections = changed.content.flatMap((section) =>
    section.content.filter((node) => node.type === 'subsection'),
  );
  const wanted = Math.max(1, Math.round(subsections.length * 0.05));
  const every = Math.floor(subsections.length / wanted);
  let edited = 0;
  subsections.forEach((subsection, index) => {
    if (index % every !== 0 || edited >= wanted) return;
    edited++;
    const paragraph = subsection.content.find((node) => node.type === 'paragraph' && node.content?.length);
    if (paragraph)
      paragraph.content = [{ type: 'text', text: `Rewritten after the bank's questions, round ${index}.` }];
  });
  await json(`${api}/documents/${uuid}/`, { method: 'PATCH', headers: auth, body: { content: changed } });
  let summary;
  const diff = await timed(RUNS, async () => {
    const res = await call(`${api}/documents/${uuid}/diff/?from=v1`, { headers: auth });
    if (res.status !== 200) throw new Error(`diff answered ${res.status}: ${res.text}`);
    summary = JSON.parse(res.text).summary;
  });
  const diffMd = await timed(RUNS, async () => {
    const res = await call(`${api}/documents/${uuid}/diff/?from=v1&format=md`, { headers: auth });
    if (res.status !== 200) throw new Error(`diff answered ${res.status}`);
  });

  console.log(
    `list of ${VERSIONS}: median ${list.median} ms; diff (${edited} of ${subsections.length} changed): ${diff.median} ms`,
  );
  console.log(
    JSON.stringify({
      bench: 'versions',
      title: 'Versions: the history of a plan with 1,000 versions, and a diff of the 200-page plan',
      method: `The built server on the embedded database (LIVE_DOCUMENTS=off), one client on loopback with keep-alive. A plan with ${VERSIONS} named versions: GET versions/?page_size=100 (the history's first page). The 200-page editor benchmark plan (${subsections.length} subsections), a version of it, then ${edited} subsections (5 %) rewritten: GET diff/?from=v1 (JSON, then Markdown). ${RUNS} measured calls each after 2 warm-ups; times at the client include the loopback round trip.`,
      results: [
        {
          name: `version list, first page of ${VERSIONS}`,
          unit: 'ms',
          ...list,
          target: `≤ ${LIST_TARGET_MS} ms (median)`,
          pass: list.median <= LIST_TARGET_MS,
        },
        {
          name: `diff of the 200-page plan, ${edited} of ${subsections.length} subsections changed (JSON)`,
          unit: 'ms',
          ...diff,
          target: `≤ ${DIFF_TARGET_MS} ms (median)`,
          pass: diff.median <= DIFF_TARGET_MS,
        },
        { name: 'the same diff as Markdown', unit: 'ms', ...diffMd, target: 'reported', pass: null },
      ],
      notes: `Summary of the diff: ${JSON.stringify(summary)}.`,
    }),
  );
} finally {
  await server.stop();
  agent.destroy();
  rmSync(dataDir, { recursive: true, force: true });
}
