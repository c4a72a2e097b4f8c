#!/usr/bin/env node
// Live plans (issue 21): what a typed character costs on the wire, and what an open plan costs the server.
// A built server with LIVE_DOCUMENTS=on and the generated 200-page plan; a Node client speaking the sync
// protocol with Hocuspocus's own provider (what the web editor will use), its WebSocket counting every
// byte it sends. Method: the `method` string below (it ends up in docs/benchmarks.md).
import { readFileSync } from 'node:fs';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { startPlanServer } from './editor-setup.mjs';
import { summarize } from './stats.mjs';

const CHARACTERS = 200;
const OPEN_PLANS = 8;
const TARGET_UPDATE_BYTES = 200;
const TARGET_ALL_BYTES = 1024;

/** A WebSocket that counts what it sends, split by Hocuspocus message type (0 sync, 1 awareness). */
function countingWebSocket(counts) {
  return class CountingWebSocket extends WebSocket {
    send(data, ...rest) {
      const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
      counts.all += bytes.byteLength;
      counts.messages += 1;
      return super.send(data, ...rest);
    }
  };
}

/** Opens the plan as a live document; resolves once synced. */
function open(url, name, token, counts) {
  const document = new Y.Doc();
  const socket = new HocuspocusProviderWebsocket({
    url: `${url.replace('http', 'ws')}/ws/collab/`,
    WebSocketPolyfill: countingWebSocket(counts),
  });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const provider = new HocuspocusProvider({
      websocketProvider: socket,
      name,
      document,
      token,
      onSynced: () => resolve({ provider, socket, document, syncMs: performance.now() - started }),
      onAuthenticationFailed: ({ reason }) => reject(new Error(`refused: ${reason}`)),
    });
    provider.attach();
  });
}

/** Resolves when the server has acknowledged everything the provider sent. */
function acknowledged(provider) {
  return new Promise((resolve) => {
    const check = () => {
      if (!provider.hasUnsyncedChanges) {
        provider.off('unsyncedChanges', check);
        resolve();
      }
    };
    provider.on('unsyncedChanges', check);
    check();
  });
}

/** The Y.XmlText of a paragraph in the middle of the plan. */
function middleText(document) {
  const paragraphs = [
    ...document
      .getXmlFragment('content')
      .createTreeWalker((node) => node instanceof Y.XmlElement && node.nodeName === 'paragraph'),
  ];
  const paragraph = paragraphs[Math.floor(paragraphs.length / 2)];
  const text = paragraph?.get(0);
  if (!(text instanceof Y.XmlText)) throw new Error('no paragraph text in the middle of the plan');
  return text;
}

function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kib / 1024) * 10) / 10;
}

const plan = await startPlanServer({ env: { LIVE_DOCUMENTS: 'on', LIVE_DERIVE_DEBOUNCE_MS: '2000' } });
try {
  const counts = { all: 0, messages: 0 };
  const rssBefore = rssMiB(plan.pid);
  const live = await open(plan.url, `document/${plan.document.uuid}`, plan.token, counts);
  const stateBytes = Y.encodeStateAsUpdate(live.document).byteLength;

  // Typing: one character at a time, each acknowledged before the next, with the caret's awareness update
  // that an editor sends per keystroke (Hocuspocus's provider sends awareness as it changes).
  const text = middleText(live.document);
  const updateSizes = [];
  live.document.on('update', (update) => updateSizes.push(update.byteLength));
  const latencies = [];
  const sentBefore = counts.all;
  for (let i = 0; i < CHARACTERS; i++) {
    const started = performance.now();
    text.insert(Math.floor(text.length / 2), 'abcdefghij'[i % 10]);
    live.provider.setAwarenessField('cursor', { anchor: i, head: i });
    await acknowledged(live.provider);
    latencies.push(performance.now() - started);
  }
  const perCharacter = (counts.all - sentBefore) / CHARACTERS;
  const updateMedian = summarize(updateSizes).median;

  // Heap: more plans of the same size open at once (each its own document on the server).
  const extra = [];
  for (let i = 0; i < OPEN_PLANS; i++) {
    const headers = { 'x-session-token': plan.token, 'content-type': 'application/json' };
    const created = await fetch(`${plan.url}/api/v1/documents/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: `Open plan ${i}` }),
    }).then((response) => response.json());
    const filled = await fetch(`${plan.url}/api/v1/documents/${created.uuid}/`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ content: plan.document.content }),
    });
    if (filled.status !== 200) throw new Error(`PATCH of plan ${i} answered ${filled.status}`);
    extra.push(await open(plan.url, `document/${created.uuid}`, plan.token, { all: 0, messages: 0 }));
  }
  const rssOpen = rssMiB(plan.pid);
  const perPlan = Math.round(((rssOpen - rssBefore) / (OPEN_PLANS + 1)) * 10) / 10;
  const syncs = summarize([live.syncMs, ...extra.map((entry) => entry.syncMs)]);
  for (const entry of [live, ...extra]) {
    entry.provider.destroy();
    entry.socket.destroy();
  }
  const ack = summarize(latencies);
  console.error(
    `per character: ${perCharacter.toFixed(1)} B sent (update median ${updateMedian} B); ack p50 ${ack.median} ms; ` +
      `state ${stateBytes} B; RSS ${rssBefore} → ${rssOpen} MiB with ${OPEN_PLANS + 1} plans open`,
  );
  console.log(
    JSON.stringify({
      bench: 'live-bytes',
      title: 'Live plans: bytes per typed character and memory per open plan (200-page plan)',
      method: `Built server on PGlite with LIVE_DOCUMENTS=on and the generated 200-page plan (${plan.stats.words ?? 'about 100,000'} words). A Node client speaking the sync protocol with @hocuspocus/provider 3.4.4 over ws, its WebSocket counting every byte it sends: ${CHARACTERS} characters typed one at a time into a paragraph in the middle of the plan, each with a caret (awareness) update as an editor sends, each acknowledged by the server before the next. Memory: the server's RSS before the first plan is opened and with ${OPEN_PLANS + 1} such plans open (each loaded from its stored content into a Yjs document), divided by the plans.`,
      results: [
        {
          name: 'Document update per typed character',
          unit: 'B',
          median: updateMedian,
          spread: `${updateSizes.length} updates`,
          target: `≤ ${TARGET_UPDATE_BYTES} B`,
          pass: updateMedian <= TARGET_UPDATE_BYTES,
        },
        {
          name: 'Everything the client sends per typed character (update, caret, framing)',
          unit: 'B',
          value: Math.round(perCharacter),
          target: `≤ ${TARGET_ALL_BYTES} B`,
          pass: perCharacter <= TARGET_ALL_BYTES,
        },
        {
          name: 'Typed character → acknowledged by the server (same machine)',
          unit: 'ms',
          median: ack.median,
          p90: ack.p90,
          min: ack.min,
          max: ack.max,
          runs: latencies.length,
          target: 'reported',
          pass: null,
        },
        {
          name: '200-page plan as Yjs state (encoded)',
          unit: 'KiB',
          value: Math.round((stateBytes / 1024) * 10) / 10,
          spread: `JSON content ${Math.round((plan.stats.contentBytes / 1024) * 10) / 10} KiB`,
          target: 'reported',
          pass: null,
        },
        {
          name: 'Opening a 200-page live plan (connect → synced)',
          unit: 'ms',
          median: syncs.median,
          p90: syncs.p90,
          min: syncs.min,
          max: syncs.max,
          runs: OPEN_PLANS + 1,
          target: 'reported',
          pass: null,
        },
        {
          name: 'Server RSS per open 200-page live plan',
          unit: 'MiB',
          value: perPlan,
          spread: `${rssBefore} → ${rssOpen} MiB with ${OPEN_PLANS + 1} open`,
          target: 'reported',
          pass: null,
        },
      ],
    }),
  );
} finally {
  await plan.close();
}
