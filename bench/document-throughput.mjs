#!/usr/bin/env node
// Document reads and writes under load: GET documents/{uuid}/ and PATCH with If-Match for a 50-page plan
// (about 700 blocks), 20 concurrent clients each on its own document, against bare Fastify routes that
// read and write the same rows of the same database in the same process (bench/document-host.mjs).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call as callWith, json as jsonWith, signUpVerified } from './accounts.mjs';
import { summarize } from './stats.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BLOCKS = 700;
const PASSWORD = 'a-sturdy-benchmark-passphrase';
const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS * 2 });

/** One request on the shared keep-alive agent (bench/accounts.mjs); the ETag read from its headers. */
const call = async (url, options = {}) => {
  const res = await callWith(url, { ...options, agent });
  return { ...res, etag: res.headers.etag };
};
const json = (url, options = {}) => jsonWith(url, { ...options, agent });

const WORDS =
  'market customers revenue growth channel pricing margin team investors runway traction competitors segment retention acquisition forecast'.split(
    ' ',
  );
// A fixed pseudo-random sequence (Lehmer), so every run writes the same plan.
let seed = 1;
const nextWord = () => {
  seed = (seed * 48271) % 2147483647;
  return WORDS[seed % WORDS.length];
};
const sentence = (n) => Array.from({ length: n }, nextWord).join(' ');

/** Fills the subsections of `content` with paragraphs, lists and headings up to `BLOCKS` blocks in all. */
function fiftyPagePlan(content) {
  const subsections = content.content.flatMap((section) =>
    section.content.filter((node) => node.type === 'subsection'),
  );
  const perSubsection = Math.ceil(BLOCKS / subsections.length);
  for (const subsection of subsections) {
    const blocks = [];
    for (let i = 0; i < perSubsection; i++) {
      if (i % 9 === 4) {
        blocks.push({ type: 'heading', attrs: { level: 3 }, content: [{ type: 'text', text: sentence(4) }] });
      } else if (i % 9 === 7) {
        blocks.push({
          type: 'bulletList',
          content: [1, 2, 3].map(() => ({
            type: 'listItem',
            content: [{ type: 'paragraph', content: [{ type: 'text', text: sentence(12) }] }],
          })),
        });
      } else {
        blocks.push({
          type: 'paragraph',
          content: [
            { type: 'text', text: `${sentence(20)} ` },
            { type: 'text', text: sentence(3), marks: [{ type: 'bold' }] },
            { type: 'text', text: ` ${sentence(25)}.` },
          ],
        });
      }
    }
    subsection.content = [subsection.content[0], ...blocks];
  }
  return content;
}

/** Runs `step` in `CLIENTS` loops for `SECONDS`; each client has its own state. */
async function load(step, states) {
  const latencies = [];
  let failures = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    states.map(async (state) => {
      while (performance.now() < deadline) {
        const t = performance.now();
        const ok = await step(state);
        latencies.push(performance.now() - t);
        if (!ok) failures++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    ...summarize(latencies),
    p99: Math.round((sorted[Math.floor(sorted.length * 0.99)] ?? 0) * 10) / 10,
    throughput: Math.round((latencies.length / elapsed) * 10) / 10,
    failures,
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'planwright-bench-documents-'));
const host = spawn(process.execPath, [join(root, 'bench/document-host.mjs')], {
  env: { ...process.env, PLANWRIGHT_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const urls = await new Promise((resolve, reject) => {
    let output = '';
    host.stdout.on('data', (chunk) => {
      output += chunk;
      const line = output.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    host.on('exit', (code) => reject(new Error(`document host exited with ${code}`)));
  });
  const api = `${urls.app}/api/v1`;
  const email = 'bench-documents@example.com';
  await signUpVerified(urls.app, dataDir, email, PASSWORD);
  const login = await json(`${urls.app}/_allauth/app/v1/auth/login`, {
    method: 'POST',
    body: { email, password: PASSWORD },
  });
  const auth = { 'x-session-token': login.body.meta.session_token };
  const available = await json(`${api}/blueprints/available/`, { headers: auth });
  const blueprint = available.body.data.find((b) => b.title === 'Business Plan') ?? available.body.data[0];

  const states = [];
  let contentBytes = 0;
  for (let i = 0; i < CLIENTS; i++) {
    const created = await json(`${api}/documents/`, {
      method: 'POST',
      headers: auth,
      body: { blueprint: blueprint.uuid, title: `Benchmark plan ${i + 1}` },
    });
    const content = fiftyPagePlan(created.body.content);
    const filled = await json(`${api}/documents/${created.body.uuid}/`, {
      method: 'PATCH',
      headers: auth,
      body: { content },
    });
    contentBytes = Buffer.byteLength(JSON.stringify(filled.body.content));
    states.push({ uuid: filled.body.uuid, content: filled.body.content, revision: filled.body.revision });
  }
  const edit = (state) => {
    // One changed paragraph per save, as an autosave after a few keystrokes would send.
    const paragraph = state.content.content[0].content.find((n) => n.type === 'subsection').content[1];
    paragraph.content[0].text = `${sentence(20)} `;
    return { content: state.content };
  };

  const ours = {
    get: (s) => call(`${api}/documents/${s.uuid}/`, { headers: auth }).then((r) => r.status === 200),
    patch: async (s) => {
      const res = await call(`${api}/documents/${s.uuid}/`, {
        method: 'PATCH',
        headers: { ...auth, 'if-match': `"${s.revision}"` },
        body: edit(s),
      });
      if (res.status !== 200) return false;
      s.revision = Number(res.etag.replaceAll('"', ''));
      return true;
    },
  };
  const bare = {
    get: (s) => call(`${urls.bare}/documents/${s.uuid}`).then((r) => r.status === 200),
    patch: async (s) => {
      const res = await call(`${urls.bare}/documents/${s.uuid}`, {
        method: 'PATCH',
        headers: { 'if-match': `"${s.revision}"` },
        body: edit(s),
      });
      if (res.status !== 200) return false;
      s.revision = Number(res.etag.replaceAll('"', ''));
      return true;
    },
  };

  // Warm both paths, then measure ours and bare back to back.
  await Promise.all(states.map((s) => ours.get(s).then(() => bare.get(s))));
  const getOurs = await load(ours.get, states);
  const getBare = await load(bare.get, states);
  const patchOurs = await load(ours.patch, states);
  const patchBare = await load(bare.patch, states);

  const ratio = (a, b) => Math.round((a.throughput / b.throughput) * 100);
  const row = (name, r, target, pass) => [
    { name: `${name}: throughput`, unit: 'req/s', value: r.throughput, target, pass },
    { name: `${name}: latency`, unit: 'ms', ...r, target: `p99 ${r.p99} ms`, pass: null },
    { name: `${name}: failed requests`, unit: '', value: r.failures, target: '0', pass: r.failures === 0 },
  ];
  console.log(
    JSON.stringify({
      bench: 'document-throughput',
      title: `Documents: GET and PATCH (If-Match) of a 50-page plan, ${CLIENTS} concurrent clients`,
      method: `Built server on PGlite, one process serving our API and bare Fastify routes over the same open database. ${CLIENTS} documents made from the default blueprint and filled to ${BLOCKS} blocks (${Math.round(contentBytes / 1024)} KiB of content JSON each); ${CLIENTS} keep-alive clients, each looping on its own document for ${SECONDS} s per measure. The bare GET is one SELECT answered as it comes; the bare PATCH one compare-and-set UPDATE. Our PATCH normalises the tree, reconciles the section rows and answers the whole document.`,
      results: [
        ...row('GET ours', getOurs, 'reported', null),
        ...row('GET bare', getBare, 'reported', null),
        {
          name: 'GET ours ÷ bare',
          unit: '%',
          value: ratio(getOurs, getBare),
          target: '≥ 50 %',
          pass: ratio(getOurs, getBare) >= 50,
        },
        ...row('PATCH ours', patchOurs, 'reported', null),
        ...row('PATCH bare', patchBare, 'reported', null),
        {
          name: 'PATCH ours ÷ bare',
          unit: '%',
          value: ratio(patchOurs, patchBare),
          target: '≥ 50 %',
          pass: ratio(patchOurs, patchBare) >= 50,
        },
      ],
    }),
  );
} finally {
  agent.destroy();
  await new Promise((resolve) => {
    if (host.exitCode !== null) return resolve();
    host.on('exit', resolve);
    host.kill('SIGTERM');
  });
  rmSync(dataDir, { recursive: true, force: true });
}
