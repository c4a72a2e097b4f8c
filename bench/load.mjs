#!/usr/bin/env node
// Load (issue 10, "Load and faults"): many users working at once against ONE instance of the built server,
// on PGlite and then on PostgreSQL, with autocannon for the HTTP load; then many chats streaming at once.
//
// Rules (LD):
// LD1  One instance of the built server (bench/built-server.mjs) per database, each on fresh data: the
//      embedded PGlite, then a throwaway PostgreSQL cluster (tests/support/postgres.ts, loaded with tsx).
// LD2  BENCH_USERS accounts (default 100) are made through the server's own sign-up flow (the verification
//      key read from its outbox) and sign in all at once as app clients (X-Session-Token). Each user's
//      requests come from its own loopback address (127.0.1.x): the per-address sign-up and login limits
//      stay on and are not hit. Sign-in latency is reported.
// LD3  Each user owns one 50-page plan (bench/generated-plan.mjs, fresh section uuids per user).
// LD4  For BENCH_LOAD_SECONDS (default 60) every user autosaves its own plan once a second on its own
//      keep-alive connection (one autocannon instance per user): PATCH documents/{uuid}/ with the whole
//      content and If-Match, as the web app's autosave sends it, one save in flight, the next after the
//      answer and the next second. Every user also opens its plan (GET documents/{uuid}/) and lists documents
//      (GET documents/?page_size=20&ordering=-updated_at) every BENCH_READ_EVERY_SECONDS (default 10), served
//      by USERS / that many reader connections at one request a second each. Every connection starts at its
//      own moment within the first second, so the load is even, not a burst per second.
// LD5  An error is any answer that is not 2xx, a connection error or a timeout. Nobody else writes a user's
//      plan, so a 412 is an error too. Target on both databases: zero.
// LD6  Latency is the client's time per response (autocannon), split by kind (autosave, plan open, list).
//      Target on PostgreSQL: p99 ≤ 100 ms for autosaves and for both reads; on PGlite reported.
// LD7  After the load, BENCH_CHATS chat sockets (default 200) open on the same instance, over the users'
//      plans, with the openai-compatible provider pointed at tests/support/openai-stream-server.mjs. Every
//      chat asks at once; the model starts all answers once every request is in, so all stream together.
//      BENCH_CHAT_ROUNDS rounds (default 2); the last one is timed (first frame, per chunk, as in
//      bench/chat-relay.mjs). Target: every answer of every round complete (end_of_response with a message
//      id, the whole text, no error or system frame).
// LD8  Server memory: RSS (/proc) after the load with no chat open, and its peak while the chats stream.
// LD9  BENCH_LOAD_DATABASES (default "pglite,postgres") picks the databases, for short validation runs.
// LD10 The last line on stdout is the one JSON result bench/run.mjs reads.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { call, inParallel, json, loopbackAddress, signIn, signUpVerified } from './accounts.mjs';
import { startBuiltServer } from './built-server.mjs';
import { openChat, rssKiB, startPacedModel, waitFor } from './chat-sockets.mjs';
import { generatePlan } from './generated-plan.mjs';
import { LOAD_DATABASES, measureOnDatabases } from './load-databases.mjs';
import { summarize } from './stats.mjs';

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const USERS = Number(process.env.BENCH_USERS ?? 100);
const CHATS = Number(process.env.BENCH_CHATS ?? 200);
const CHAT_ROUNDS = Math.max(1, Number(process.env.BENCH_CHAT_ROUNDS ?? 2));
/** How often each user opens its plan and lists documents (autosaves come every second). */
const READ_EVERY_SECONDS = Math.max(1, Number(process.env.BENCH_READ_EVERY_SECONDS ?? 10));
/** The model's pace per chat: one chunk every this many ms (50 chunks/s, a brisk model). */
const CHUNK_INTERVAL_MS = Number(process.env.BENCH_CHUNK_INTERVAL_MS ?? 20);
const CHUNKS = 40;
const WORDS = Array.from({ length: CHUNKS }, (_, i) => `word${i} `);
const ANSWER = WORDS.join('');
const PASSWORD = 'a-sturdy-benchmark-passphrase';
const EDIT_MARK = 'LOAD-BENCH-EDIT-MARK';
const { document: PLAN, words: PLAN_WORDS } = generatePlan();

/** Progress on stderr (bench/run.mjs shows it only when the benchmark fails). */
const note = (text) => process.stderr.write(`load: ${text}\n`);

const percentile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 10) / 10;
};

/** The plan for one user: the generated plan with its own uuids and a marked paragraph autosave edits. */
function planFor() {
  const prefix = randomBytes(4).toString('hex');
  const content = JSON.parse(
    JSON.stringify(PLAN).replaceAll('"00000000-0000-4000-8000-', `"${prefix}-0000-4000-8000-`),
  );
  // The first section's lead paragraph: its text is what each autosave changes.
  content.content[0].content[1].content = [{ type: 'text', text: EDIT_MARK }];
  const [before, after] = JSON.stringify({ content }).split(EDIT_MARK);
  return { body: (text) => `${before}${text}${after}` };
}

/** The model starts a round's answers once every chat's request is in (LD7). */
const paced = await startPacedModel(WORDS, CHUNK_INTERVAL_MS);
const { model } = paced;

/** Runs one autocannon instance for SECONDS, recording each response's latency in `latencies`. */
async function cannon(options, latencies) {
  const job = autocannon({
    connections: 1,
    connectionRate: 1,
    duration: SECONDS,
    renderProgressBar: false,
    renderResultsTable: false,
    renderLatencyTable: false,
    ...options,
  });
  job.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  const result = await job;
  return {
    requests: result.requests.total,
    timeouts: result.timeouts,
    // autocannon's `errors` counts connection errors and timeouts; `non2xx` the answers that are not 2xx.
    errors: result.errors + result.non2xx,
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats).filter(([code]) => !code.startsWith('2')),
    ),
  };
}

/** LD2–LD6 on one instance: accounts, plans, then the timed load. */
async function userLoad(server, dataDir, label) {
  const api = `${server.url}/api/v1`;
  const users = Array.from({ length: USERS }, (_, i) => ({
    email: `load-${label}-${i}@example.com`,
    address: loopbackAddress(i),
  }));
  // scrypt makes sign-up CPU-bound: a few at a time keeps the set-up as short as the cores allow.
  await inParallel(USERS, 4, (i) =>
    signUpVerified(server.url, dataDir, users[i].email, PASSWORD, users[i].address),
  );
  note(`${label}: ${USERS} accounts made`);
  const signIns = await Promise.all(users.map((u) => signIn(server.url, u.email, PASSWORD, u.address)));
  for (const [i, { token }] of signIns.entries()) users[i].auth = { 'x-session-token': token };

  await inParallel(USERS, 4, async (i) => {
    const user = users[i];
    const created = await json(`${api}/documents/`, {
      method: 'POST',
      headers: user.auth,
      body: { title: `Load plan ${i + 1}` },
    });
    user.plan = planFor();
    user.saves = 0;
    const filled = await json(`${api}/documents/${created.body.uuid}/`, {
      method: 'PATCH',
      headers: { ...user.auth, 'if-match': created.headers.etag },
      body: user.plan.body('The plan as first written.'),
    });
    user.uuid = filled.body.uuid;
    user.revision = filled.headers.etag;
    user.contentBytes = Buffer.byteLength(JSON.stringify(filled.body.content));
  });

  note(`${label}: ${USERS} plans written, load for ${SECONDS} s`);
  const latency = { save: [], open: [], list: [] };
  const started = performance.now();
  const jobs = [];
  // Every instance starts at its own moment within the first second, so the load is even (LD4).
  const readers = Math.ceil(USERS / READ_EVERY_SECONDS);
  const slots = USERS + 2 * readers;
  let slot = 0;
  const start = (kind, requests) => {
    const delay = (slot++ * 1000) / slots;
    jobs.push(
      new Promise((resolve) => setTimeout(resolve, delay)).then(() =>
        cannon({ url: server.url, requests }, latency[kind]).then((r) => ({ kind, ...r })),
      ),
    );
  };
  for (const user of users) {
    start('save', [
      {
        method: 'PATCH',
        path: `/api/v1/documents/${user.uuid}/`,
        // Built when the request goes out, after the previous save's answer gave the revision.
        setupRequest: (request) => ({
          ...request,
          headers: { ...user.auth, 'content-type': 'application/json', 'if-match': user.revision },
          body: user.plan.body(`Autosave ${++user.saves} of ${user.email}: the market grows.`),
        }),
        onResponse: (status, _body, _context, headers) => {
          // A failed save is counted once: the revision is read again so the next save does not 412 too.
          if (status !== 200) {
            void call(`${api}/documents/${user.uuid}/`, { headers: user.auth }).then((res) => {
              if (res.status === 200 && res.headers.etag) user.revision = res.headers.etag;
            });
            return;
          }
          const etag = Object.entries(headers).find(([name]) => name.toLowerCase() === 'etag')?.[1];
          if (etag) user.revision = etag;
        },
      },
    ]);
  }
  // A reader slot serves users j, j + readers, …, one request a second: each user reads every READ_EVERY s.
  for (const [kind, path] of [
    ['open', (user) => `/api/v1/documents/${user.uuid}/`],
    ['list', () => '/api/v1/documents/?page=1&page_size=20&ordering=-updated_at'],
  ]) {
    for (let j = 0; j < readers; j++) {
      const mine = users.filter((_, i) => i % readers === j);
      let turn = 0;
      start(kind, [
        {
          method: 'GET',
          setupRequest: (request) => {
            const user = mine[turn++ % mine.length];
            return { ...request, path: path(user), headers: user.auth };
          },
        },
      ]);
    }
  }
  const outcomes = await Promise.all(jobs);
  const elapsed = (performance.now() - started) / 1000;
  const total = (kind, field) =>
    outcomes.filter((o) => kind === undefined || o.kind === kind).reduce((sum, o) => sum + o[field], 0);
  const statuses = {};
  for (const outcome of outcomes)
    for (const [code, { count }] of Object.entries(outcome.statuses))
      statuses[code] = (statuses[code] ?? 0) + count;
  return {
    users,
    signIn: signIns.map((s) => s.ms),
    contentBytes: users[0].contentBytes,
    latency,
    requests: total(undefined, 'requests'),
    throughput: Math.round((total(undefined, 'requests') / elapsed) * 10) / 10,
    errors: total(undefined, 'errors'),
    timeouts: total(undefined, 'timeouts'),
    errorsByKind: {
      save: total('save', 'errors'),
      open: total('open', 'errors'),
      list: total('list', 'errors'),
    },
    statuses,
  };
}

/** LD7–LD8 on the same instance: CHATS chats over the users' plans, all streaming at once. */
async function chatLoad(server, users) {
  const rssBefore = rssKiB(server.pid);
  const chats = await inParallel(CHATS, 8, async (i) => {
    const user = users[i % users.length];
    const created = await json(`${server.url}/api/v1/chats/`, {
      method: 'POST',
      headers: user.auth,
      body: { target: 'document', object_id: user.uuid },
    });
    return openChat(server.url, user.auth['x-session-token'], user.uuid, created.body.id);
  });
  note(`${CHATS} chats connected`);
  const rssConnected = rssKiB(server.pid);
  let rssPeak = rssConnected;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssKiB(server.pid));
  }, 100);

  const result = { firstFrame: [], perChunk: [], completed: 0, asked: 0, failures: [] };
  try {
    for (let round = 0; round < CHAT_ROUNDS; round++) {
      const starts = chats.map((chat) => chat.frames.length);
      const requestsBefore = model.requests.length;
      paced.holdRound(CHATS);
      const tag = `r${round}`;
      for (const [i, chat] of chats.entries())
        chat.ws.send(
          JSON.stringify({ type: 'message', message: `load-${tag}-${i}`, client_id: `${tag}-c${i}` }),
        );
      result.asked += CHATS;
      const ends = await Promise.all(
        chats.map((chat, i) => waitFor(chat, (f) => f.type === 'end_of_response', starts[i])),
      );
      for (const [i, chat] of chats.entries()) {
        const frames = chat.frames.slice(starts[i]).map((entry) => entry.frame);
        const end = ends[i]?.frame;
        const text = frames.filter((f) => f.type === 'ai').at(-1)?.content;
        const wrong = frames.find((f) => f.type === 'error' || f.type === 'system');
        if (end?.message_id && !end.interrupted && text === ANSWER && !wrong) result.completed++;
        else
          result.failures.push(
            wrong ? JSON.stringify(wrong) : end ? `incomplete answer (${text?.length ?? 0} chars)` : 'no end',
          );
      }
      if (round < CHAT_ROUNDS - 1) continue;
      const answers = paced.latencies({ from: requestsBefore, prefix: `load-${tag}`, chats, starts });
      for (const answer of answers) {
        result.firstFrame.push(answer.firstFrame);
        result.perChunk.push(...answer.perChunk);
      }
    }
  } finally {
    clearInterval(sampler);
    for (const chat of chats) chat.ws.close(1000);
  }
  return { ...result, rssBefore, rssConnected, rssPeak };
}

/** One database: a fresh instance, the user load, then the chats (LD1). */
async function measure(database, postgres) {
  const dataDir = mkdtempSync(join(tmpdir(), `planwright-bench-load-${database}-`));
  const env = model.providerEnv({
    PLANWRIGHT_AI_MODEL: 'bench-model',
    PLANWRIGHT_AI_CALLS_PER_MINUTE: '100000',
  });
  if (postgres) env.DATABASE_URL = await postgres.createDatabase();
  const server = await startBuiltServer(dataDir, env);
  try {
    const load = await userLoad(server, dataDir, database);
    const chats = CHATS > 0 ? await chatLoad(server, load.users) : undefined;
    return { load, chats };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The result rows of one database (LD5, LD6, LD7, LD8). */
function rows(database, { load, chats }) {
  const onPostgres = database === 'postgres';
  const latencyRows = (kind, title) => {
    const values = load.latency[kind];
    const p99 = percentile(values, 0.99);
    if (values.length === 0)
      return [
        {
          name: `${database}: ${title}`,
          unit: 'ms',
          value: null,
          spread: 'no answer in time',
          target: 'answers',
          pass: false,
        },
      ];
    return [
      {
        name: `${database}: ${title}, latency`,
        unit: 'ms',
        ...summarize(values),
        target: 'reported',
        pass: null,
      },
      {
        name: `${database}: ${title}, p99`,
        unit: 'ms',
        value: p99,
        target: onPostgres ? '≤ 100 ms' : 'reported',
        pass: onPostgres ? p99 <= 100 : null,
      },
    ];
  };
  const statusText = Object.entries(load.statuses)
    .map(([code, count]) => `${count} × ${code}`)
    .join(', ');
  const list = [
    {
      name: `${database}: sign-in, ${USERS} users at once`,
      unit: 'ms',
      ...summarize(load.signIn),
      target: 'reported',
      pass: null,
    },
    {
      name: `${database}: throughput`,
      unit: 'req/s',
      value: load.throughput,
      target: 'reported',
      pass: null,
    },
    ...latencyRows('save', 'autosave (PATCH)'),
    ...latencyRows('open', 'open plan (GET)'),
    ...latencyRows('list', 'list documents (GET)'),
    {
      name: `${database}: errors`,
      unit: '',
      value: load.errors,
      spread: `${load.requests} answered; autosave ${load.errorsByKind.save}, open ${load.errorsByKind.open}, list ${load.errorsByKind.list}${statusText ? ` (${statusText})` : ''}, ${load.timeouts} timeouts (10 s)`,
      target: '0',
      pass: load.errors === 0,
    },
  ];
  if (!chats) return list;
  const mib = (kib) => Math.round((kib / 1024) * 10) / 10;
  // The timed round's samples; none when its answers never streamed (the count row says why).
  const timed = (values) => (values.length ? summarize(values) : { value: null, spread: 'no samples' });
  list.push(
    {
      name: `${database}: ${CHATS} chats, first chunk → first ai frame`,
      unit: 'ms',
      ...timed(chats.firstFrame),
      target: 'reported',
      pass: null,
    },
    {
      name: `${database}: ${CHATS} chats, first chunk → first ai frame, p99`,
      unit: 'ms',
      value: chats.firstFrame.length ? percentile(chats.firstFrame, 0.99) : null,
      target: 'reported',
      pass: null,
    },
    {
      name: `${database}: ${CHATS} chats, per forwarded chunk`,
      unit: 'ms',
      ...timed(chats.perChunk),
      target: 'reported',
      pass: null,
    },
    {
      name: `${database}: ${CHATS} chats, per forwarded chunk, p99`,
      unit: 'ms',
      value: chats.perChunk.length ? percentile(chats.perChunk, 0.99) : null,
      target: 'reported',
      pass: null,
    },
    {
      name: `${database}: ${CHATS} chats, answers complete`,
      unit: `of ${chats.asked}`,
      value: chats.completed,
      ...(chats.failures.length ? { spread: [...new Set(chats.failures)].slice(0, 3).join('; ') } : {}),
      target: 'all, no error',
      pass: chats.completed === chats.asked,
    },
    {
      name: `${database}: server RSS, peak while ${CHATS} chats stream`,
      unit: 'MiB',
      value: mib(chats.rssPeak),
      spread: `after the load ${mib(chats.rssBefore)} MiB, ${CHATS} chats connected ${mib(chats.rssConnected)} MiB`,
      target: 'reported',
      pass: null,
    },
  );
  return list;
}

let measured;
try {
  measured = await measureOnDatabases(measure);
} finally {
  await model.close();
}

const contentKiB = Math.round((Object.values(measured)[0]?.load.contentBytes ?? 0) / 1024);
console.log(
  JSON.stringify({
    bench: 'load',
    title: `Load: ${USERS} users for ${SECONDS} s, then ${CHATS} chats streaming at once, on one instance`,
    method: `Built server (one instance, fresh data) on PGlite and on PostgreSQL (a local Debian cluster with fsync off, as the tests run it), load from autocannon in the benchmark's process. ${USERS} accounts signed up and verified through the server's own flow, then signed in all at once as app clients (session token), each from its own loopback address. Each user owns a 50-page plan (bench/generated-plan.mjs, ${PLAN_WORDS} words, ${contentKiB} KiB of content JSON) and for ${SECONDS} s autosaves it once a second on its own keep-alive connection (PATCH with the whole content and If-Match, one save in flight, as the web app's autosave), and opens it (GET) and lists documents (GET, 20 per page) every ${READ_EVERY_SECONDS} s (${Math.ceil(USERS / READ_EVERY_SECONDS)} reader connections per kind, one request a second each); connections start spread over one second. Latency: the client's time per response. Errors: non-2xx answers, connection errors, timeouts. Then ${CHATS} chat sockets over the users' plans ask at once, the openai-compatible provider pointed at tests/support/openai-stream-server.mjs, which starts every answer once all requests are in and sends ${CHUNKS} chunks, one every ${CHUNK_INTERVAL_MS} ms; ${CHAT_ROUNDS} rounds, the last timed (first frame and per chunk as in the chat-relay benchmark), every round's answers checked whole. RSS from /proc.`,
    results: LOAD_DATABASES.flatMap((database) => rows(database, measured[database])),
  }),
);
