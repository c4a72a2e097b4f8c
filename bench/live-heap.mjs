#!/usr/bin/env node
// Live plans (issue 21): what one open plan costs the server's heap, and what compacting its update log
// costs. In-process, on the SDK's own mapping (`@planwright/sdk/live`, built): the Yjs document the server
// holds per open plan, measured after a full GC, for generated plans of 50 and 200 pages; then 10,000
// characters typed one update each into the 50-page plan, and the log folded into one snapshot the way
// the server compacts (apply snapshot and updates to a fresh Y.Doc, encode its state).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (typeof globalThis.gc !== 'function') {
  // The heap is only comparable after a full collection: run again with one at hand.
  const run = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}

const Y = await import('yjs');
const { writeLiveContent } = await import('@planwright/sdk/live');
const { parseDocument } = await import('@planwright/sdk/model');
const { generatePlan } = await import('./generated-plan.mjs');
const { summarize } = await import('./stats.mjs');

const DOCS = 5;
// Generated sections of 6 subsections: 10 give the 50-page plan (358 KiB of JSON), 67 the 200-page one.
const PLANS = [
  { pages: 50, sections: 10 },
  { pages: 200, sections: 67 },
];
const TYPED = 10_000;

function heapUsed() {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

const results = [];
for (const { pages, sections } of PLANS) {
  const plan = parseDocument(generatePlan({ sections }).document);
  const jsonKiB = Math.round(Buffer.byteLength(JSON.stringify(plan)) / 1024);
  const state = (() => {
    const doc = new Y.Doc();
    writeLiveContent(doc, plan);
    const update = Y.encodeStateAsUpdate(doc);
    doc.destroy();
    return update;
  })();
  const before = heapUsed();
  const held = [];
  const loads = [];
  for (let i = 0; i < DOCS; i++) {
    const started = performance.now();
    const doc = new Y.Doc();
    Y.applyUpdate(doc, state);
    loads.push(performance.now() - started);
    held.push(doc);
  }
  const perDocMiB = (heapUsed() - before) / DOCS / 2 ** 20;
  const load = summarize(loads);
  results.push({
    name: `Heap per open ${pages}-page live plan`,
    unit: 'MiB',
    value: Math.round(perDocMiB * 10) / 10,
    spread: `${jsonKiB} KiB JSON, ${Math.round(state.byteLength / 1024)} KiB Yjs state; loading it ${load.median} ms (median of ${DOCS})`,
    target: 'reported',
    pass: null,
  });
  for (const doc of held) doc.destroy();
}

// Compaction: 10,000 one-character updates on the 50-page plan, folded into one snapshot.
const plan = parseDocument(generatePlan({ sections: 10 }).document);
const typist = new Y.Doc();
writeLiveContent(typist, plan);
const snapshot = Y.encodeStateAsUpdate(typist);
const log = [];
typist.on('update', (update) => log.push(update));
const paragraph = [
  ...typist
    .getXmlFragment('content')
    .createTreeWalker((node) => node instanceof Y.XmlElement && node.nodeName === 'paragraph'),
][5];
const text = paragraph?.get(0);
if (!(text instanceof Y.XmlText)) throw new Error('no paragraph text to type into');
for (let i = 0; i < TYPED; i++) text.insert(i % 200, i % 7 === 0 ? ' ' : 'x');
const logBytes = log.reduce((sum, update) => sum + update.byteLength, snapshot.byteLength);
const times = [];
let compacted = 0;
for (let run = 0; run < 5; run++) {
  const started = performance.now();
  const doc = new Y.Doc();
  doc.transact(() => {
    Y.applyUpdate(doc, snapshot);
    for (const update of log) Y.applyUpdate(doc, update);
  });
  compacted = Y.encodeStateAsUpdate(doc).byteLength;
  doc.destroy();
  times.push(performance.now() - started);
}
const compaction = summarize(times);
results.push({
  name: `Compacting a 50-page plan's log after ${TYPED.toLocaleString('en')} typed characters`,
  unit: 'ms',
  median: compaction.median,
  p90: compaction.p90,
  min: compaction.min,
  max: compaction.max,
  runs: times.length,
  spread: `log ${Math.round(logBytes / 1024)} KiB in ${log.length + 1} rows → snapshot ${Math.round(compacted / 1024)} KiB (in memory; the database's delete and insert not included)`,
  target: 'reported',
  pass: null,
});

console.log(
  JSON.stringify({
    bench: 'live-heap',
    title: 'Live plans: heap per open plan and compaction cost (50 and 200 pages)',
    method:
      'In-process on the built SDK: per open plan, the heap a Yjs document holding a generated 50- and 200-page plan takes after a full GC (5 held at once); compaction of 10,000 one-character updates into one snapshot, as the server folds its log.',
    results,
  }),
);
