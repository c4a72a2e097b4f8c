#!/usr/bin/env node
// Live plans under load (issue 21, Benchmarks "Load"): N people typing 3 characters a second, each into
// their own 50-page plan, plus 10 people typing into one shared plan, for a while, on one built server
// with LIVE_DOCUMENTS=on, on PGlite and on PostgreSQL. Every plan also has an observer (the "other
// client": a second tab or a colleague); the time from a typed character's update to the observer's copy
// applying it is the latency. Meanwhile plans are read over REST (GET documents/{uuid}/) and the
// server's CPU time is read from /proc. Clients are the SDK's own `openLiveDocument` over `ws`.
//
// BENCH_LIVE_USERS (default 100), BENCH_LIVE_SECONDS (default 60) and BENCH_LOAD_DATABASES (default
// "pglite,postgres") shorten it for validation runs on a busy machine; the run records what it used.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { inParallel, json, loopbackAddress, signIn, signUpVerified } from './accounts.mjs';
import { startBuiltServer } from './built-server.mjs';
import { generatePlan } from './generated-plan.mjs';
import { LOAD_DATABASES, measureOnDatabases } from './load-databases.mjs';
import { summarize } from './stats.mjs';

const { openLiveDocument } = await import('@planwright/sdk/live');

const USERS = Number(process.env.BENCH_LIVE_USERS ?? 100);
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 60);
const SHARED_USERS = 10;
const CHARS_PER_SECOND = 3;
const GETS_PER_SECOND = 10;
const PASSWORD = 'bench-Password-1234';
const plan = generatePlan({ sections: 10 }).document;

function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] * 10) / 10;
}

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resolves once `live` matches `predicate`, rejects on its error or after `ms`. */
function settled(live, predicate, ms = 120_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`live document not settled in ${ms} ms: ${JSON.stringify(live.getSnapshot())}`));
    }, ms);
    const check = () => {
      const snapshot = live.getSnapshot();
      if (predicate(snapshot)) {
        stop();
        resolve(snapshot);
      }
    };
    const unsubscribe = live.subscribe(check);
    const stop = () => {
      clearTimeout(timer);
      unsubscribe();
    };
    check();
  });
}

/** The Y.XmlText of the `index`-th paragraph. */
function paragraphText(document, index) {
  const paragraphs = [
    ...document
      .getXmlFragment('content')
      .createTreeWalker((node) => node instanceof Y.XmlElement && node.nodeName === 'paragraph'),
  ];
  const text = paragraphs[index % paragraphs.length]?.get(0);
  if (!(text instanceof Y.XmlText)) throw new Error('no paragraph text to type into');
  return text;
}

/**
 * An observer: on every remote update, the typist it came from (its Yjs client id) has its oldest
 * unanswered send time matched, giving update → other client latency.
 */
function observe(live, pending, latencies) {
  live.document.on('update', (update, origin) => {
    if (origin === null || origin === live.document) return;
    const clients = new Set(Y.decodeUpdate(update).structs.map((struct) => struct.id.client));
    const now = performance.now();
    for (const client of clients) {
      const queue = pending.get(client);
      const sent = queue?.shift();
      if (sent !== undefined) latencies.push(now - sent);
    }
  });
}

async function measure(database, postgres) {
  const dataDir = mkdtempSync(join(tmpdir(), `planwright-bench-live-load-${database}-`));
  const env = { LIVE_DOCUMENTS: 'on', LIVE_MAX_DOCUMENTS: String(USERS + 50) };
  if (postgres) env.DATABASE_URL = await postgres.createDatabase();
  const server = await startBuiltServer(dataDir, env);
  const opened = [];
  try {
    // One account per typist of a plan of their own; the shared plan's 10 people are its owner's tabs
    // (sharing with other accounts is not built yet).
    const accounts = await inParallel(USERS + 1, 4, async (i) => {
      const email = `live-load-${i}@example.com`;
      await signUpVerified(server.url, dataDir, email, PASSWORD, loopbackAddress(i));
      const { token } = await signIn(server.url, email, PASSWORD, loopbackAddress(i));
      const headers = { 'x-session-token': token };
      const created = await json(`${server.url}/api/v1/documents/`, {
        method: 'POST',
        headers,
        body: { title: `Live load ${i}` },
        localAddress: loopbackAddress(i),
      });
      const filled = await json(`${server.url}/api/v1/documents/${created.body.uuid}/`, {
        method: 'PATCH',
        headers,
        body: { content: plan },
        localAddress: loopbackAddress(i),
      });
      if (filled.status !== 200) throw new Error(`PATCH of plan ${i} answered ${filled.status}`);
      return { token, uuid: created.body.uuid, index: i };
    });
    const errors = [];
    const open = async (account) => {
      const live = openLiveDocument({
        baseUrl: server.url,
        documentId: account.uuid,
        token: () => account.token,
        WebSocket,
      });
      opened.push(live);
      live.subscribe(() => {
        const error = live.getSnapshot().error;
        if (error) errors.push(`${error.code}: ${error.message}`);
      });
      const started = performance.now();
      await settled(live, (s) => s.synced);
      return { live, openMs: performance.now() - started };
    };
    const latencies = [];
    const openTimes = [];
    const typists = [];
    const own = accounts.slice(0, USERS);
    const sharedAccount = accounts[USERS];
    await inParallel(own.length, 8, async (i) => {
      const account = own[i];
      const typist = await open(account);
      const observer = await open(account);
      openTimes.push(typist.openMs, observer.openMs);
      const pending = new Map();
      observe(observer.live, pending, latencies);
      typists.push({ live: typist.live, pending, paragraph: i });
    });
    const shared = [];
    for (let i = 0; i < SHARED_USERS; i++) shared.push(await open(sharedAccount));
    const sharedPending = new Map();
    for (const { live } of shared) observe(live, sharedPending, latencies);
    for (const [i, { live }] of shared.entries())
      typists.push({ live, pending: sharedPending, paragraph: 3 * i });

    // The load: every typist types 3 characters a second (start spread over one second), each with
    // the caret update an editor sends; REST reads of the plans go on at GETS_PER_SECOND.
    let stopped = false;
    const cpuBefore = cpuSeconds(server.pid);
    const clientCpuBefore = process.cpuUsage();
    const loadStarted = performance.now();
    const timers = [];
    for (const typist of typists) {
      const text = paragraphText(typist.live.document, typist.paragraph);
      const client = typist.live.document.clientID;
      if (!typist.pending.has(client)) typist.pending.set(client, []);
      const queue = typist.pending.get(client);
      // The observers of a shared plan each see every update: one queue entry per observer.
      const watchers = typist.pending === sharedPending ? SHARED_USERS - 1 : 1;
      let typed = 0;
      const type = () => {
        if (stopped) return;
        const sent = performance.now();
        for (let w = 0; w < watchers; w++) queue.push(sent);
        text.insert(Math.min(text.length, typed % 50), 'abcdefghij'[typed % 10]);
        typist.live.awareness.setLocalStateField('cursor', { anchor: typed, head: typed });
        typed += 1;
      };
      timers.push(
        setTimeout(() => timers.push(setInterval(type, 1000 / CHARS_PER_SECOND)), Math.random() * 1000),
      );
    }
    const gets = [];
    let getErrors = 0;
    let getIndex = 0;
    let getsIssued = 0;
    const reader = setInterval(() => {
      const account = accounts[getIndex++ % accounts.length];
      getsIssued += 1;
      const started = performance.now();
      json(`${server.url}/api/v1/documents/${account.uuid}/`, {
        headers: { 'x-session-token': account.token },
        localAddress: loopbackAddress(account.index),
      })
        .then((answer) => {
          if (answer.status === 200) gets.push(performance.now() - started);
          else getErrors += 1;
        })
        .catch(() => {
          getErrors += 1;
        });
    }, 1000 / GETS_PER_SECOND);
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    stopped = true;
    clearInterval(reader);
    for (const timer of timers) {
      clearTimeout(timer);
      clearInterval(timer);
    }
    const elapsed = (performance.now() - loadStarted) / 1000;
    const cpu = cpuSeconds(server.pid) - cpuBefore;
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const clientCpuPercent = Math.round(((clientCpu.user + clientCpu.system) / 1e6 / elapsed) * 1000) / 10;
    // Let what is in flight arrive, then count what never did.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    let undelivered = 0;
    for (const { pending } of typists.slice(0, own.length))
      for (const queue of pending.values()) undelivered += queue.length;
    for (const queue of sharedPending.values()) undelivered += queue.length;
    await Promise.all(opened.map((live) => live.whenSaved()));
    const rssMiB =
      Math.round(
        Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 102.4,
      ) / 10;
    return {
      latencies,
      gets,
      // A GET not answered 3 s after the load is an error too.
      getErrors: getErrors + (getsIssued - gets.length - getErrors),
      errors,
      undelivered,
      cpuPercent: Math.round((cpu / elapsed) * 1000) / 10,
      clientCpuPercent,
      openTimes,
      rssMiB,
      connections: opened.length,
    };
  } finally {
    for (const live of opened) live.destroy();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function rows(database, m) {
  const p50 = percentile(m.latencies, 0.5);
  const p99 = percentile(m.latencies, 0.99);
  const getP99 = percentile(m.gets, 0.99);
  const errorCount = m.errors.length + m.getErrors + m.undelivered;
  const open = summarize(m.openTimes);
  return [
    {
      name: `${database}: typed update → other client, p50`,
      unit: 'ms',
      value: p50,
      spread: `${m.latencies.length} deliveries, p90 ${percentile(m.latencies, 0.9)} ms, max ${percentile(m.latencies, 1)} ms`,
      target: '≤ 30 ms',
      pass: p50 !== null && p50 <= 30,
    },
    {
      name: `${database}: typed update → other client, p99`,
      unit: 'ms',
      value: p99,
      target: '≤ 100 ms',
      pass: p99 !== null && p99 <= 100,
    },
    {
      name: `${database}: errors (socket errors, failed GETs, updates never delivered)`,
      unit: '',
      value: errorCount,
      spread: `${m.errors.length} socket, ${m.getErrors} GET, ${m.undelivered} undelivered${m.errors.length ? `; first: ${m.errors[0]}` : ''}`,
      target: '0',
      pass: errorCount === 0,
    },
    {
      name: `${database}: REST GET plan during the load, p99`,
      unit: 'ms',
      value: getP99,
      spread: `${m.gets.length} GETs, p50 ${percentile(m.gets, 0.5)} ms`,
      target: '≤ 100 ms',
      pass: getP99 !== null && getP99 <= 100,
    },
    {
      name: `${database}: server CPU during the load (one core = 100 %)`,
      unit: '%',
      value: m.cpuPercent,
      spread: `${m.connections} live connections (the clients' own process: ${m.clientCpuPercent} %); RSS after ${m.rssMiB} MiB; opening a plan (synced) median ${open.median} ms, max ${open.max} ms`,
      target: 'reported',
      pass: null,
    },
  ];
}

const loadBefore = loadavg()[0].toFixed(1);
const measured = await measureOnDatabases(measure);

const full = USERS === 100 && SECONDS === 60;
const machineLoad = `Machine load average (1 min) ${loadBefore} at the start, ${loadavg()[0].toFixed(1)} at the end, on ${(await import('node:os')).cpus().length} cores.`;
console.log(
  JSON.stringify({
    bench: 'live-load',
    title: `Live plans under load: ${USERS} + ${SHARED_USERS} people typing for ${SECONDS} s on one instance`,
    method: `Built server (one instance, fresh data, LIVE_DOCUMENTS=on) on PGlite and on PostgreSQL (local Debian cluster, fsync off, as the tests run it). ${USERS} accounts each own a generated 50-page plan (bench/generated-plan.mjs); each plan is open twice through the SDK's openLiveDocument over ws (the typist and an observer, the "other client"), and one more plan is open in ${SHARED_USERS} tabs, all typing. Every typist types ${CHARS_PER_SECOND} characters a second into a paragraph (starts spread over one second) with a caret (awareness) update each, for ${SECONDS} s. Latency: from the local Yjs change to the observer's copy applying it (matched by the Yjs client id, in the benchmark's own process, so its event loop is part of it). Errors: LiveDocument errors, failed GETs, updates not delivered 3 s after the end. Meanwhile GET documents/{uuid}/ on the plans, ${GETS_PER_SECOND} a second. CPU: the server's user+system time from /proc over the load.${full ? '' : ` A SHORT run (${USERS} users, ${SECONDS} s) on a machine shared with other engineers' builds and tests: the default is 100 users for 60 s.`} ${machineLoad}`,
    results: LOAD_DATABASES.flatMap((database) => rows(database, measured[database])),
  }),
);
process.exit(0);
