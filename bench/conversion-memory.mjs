#!/usr/bin/env node
// Issue 20 §9, memory budgets: how much heap a conversion worker needs for the corpus files and a
// generated 200-page plan, against the size the budget is scaled by (the file's bytes for an import, the
// content tree's JSON for an export). Two measures per conversion:
// - peak heap: the server's own worker script (packages/server/dist/conversion-worker.js) with no limit,
//   the most heap V8 reported in use at any garbage collection (`--trace-gc`, in a child process);
// - needed limit: the smallest `resourceLimits.maxOldGenerationSizeMb` (16 MB steps) under which the
//   same worker still finishes the job, found by bisection: what the budget must at least give.
// Then each conversion's budget from `conversionBudget` (the defaults), and whether it covers the need.
//
//   npm run build && PLANWRIGHT_CORPUS_DIR=/work/shared/corpus node bench/conversion-memory.mjs
//
// Prints a table for people, then, as its last line, the JSON result that bench/run.mjs collects.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { corpusPath } from '../tests/support/corpus-path.mjs';
import { generatePlan } from './generated-plan.mjs';

const root = new URL('../', import.meta.url);
const workerFile = fileURLToPath(new URL('packages/server/dist/conversion-worker.js', root));
const sdkFormats = new URL('packages/sdk/dist/formats/index.js', root);
const sdkNode = new URL('packages/sdk/dist/formats/node/index.js', root);
for (const file of [workerFile, fileURLToPath(sdkFormats), fileURLToPath(sdkNode)]) {
  if (!existsSync(file)) {
    console.error(`conversion-memory: ${file} is missing; run \`npm run build\` first`);
    process.exit(1);
  }
}
const { conversionBudget } = await import(sdkFormats.href);
const { exportDocument } = await import(sdkNode.href);

const MAX_UNPACKED = 50 * 1024 * 1024;
const STEP_MB = 16;

// Runs one job in a fresh worker; resolves 'ok', 'oom' or the failure's message.
function runOnce(job, limitMb) {
  return new Promise((resolve) => {
    const worker = new Worker(
      workerFile,
      limitMb ? { resourceLimits: { maxOldGenerationSizeMb: limitMb } } : {},
    );
    let settled = false;
    const settle = (outcome) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      resolve(outcome);
    };
    worker.on('message', (answer) => settle(answer.ok ? 'ok' : (answer.refusal?.message ?? answer.crash)));
    worker.on('error', (error) => settle(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'oom' : error.message));
    worker.on('exit', (code) => settle(`exit ${code}`));
    worker.postMessage({ id: 1, job });
  });
}

/** The smallest limit (a multiple of STEP_MB) under which the job finishes. */
async function neededLimit(job) {
  let low = STEP_MB; // may fail
  let high = 1024; // must succeed
  const top = await runOnce(job, high);
  if (top !== 'ok') throw new Error(`the job fails even with ${high} MB: ${top}`);
  if ((await runOnce(job, low)) === 'ok') return low;
  while (high - low > STEP_MB) {
    const middle = Math.round((low + high) / 2 / STEP_MB) * STEP_MB;
    const outcome = await runOnce(job, middle);
    if (outcome === 'ok') high = middle;
    else if (outcome === 'oom') low = middle;
    else throw new Error(`the job failed with ${middle} MB: ${outcome}`);
  }
  return high;
}

// The child: runs the job in the server's worker script with V8's GC trace on, so every collection prints
// the heap in use before it ("Mark-Compact 412.3 (440.1) -> 301.2 (...) MB"); the largest is the peak.
const CHILD = `
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
const job = JSON.parse(readFileSync(0, 'utf8'));
if (job.bytes) job.bytes = Uint8Array.from(Buffer.from(job.bytes, 'base64'));
const worker = new Worker(process.argv[1], { execArgv: [] });
worker.on('message', (answer) => { process.stderr.write('DONE ' + answer.ok + '\\n'); void worker.terminate(); });
worker.postMessage({ id: 1, job });
`;

function peakHeapMb(job) {
  const wire = job.bytes ? { ...job, bytes: Buffer.from(job.bytes).toString('base64') } : job;
  const run = spawnSync(process.execPath, ['--trace-gc', '--input-type=module', '-e', CHILD, workerFile], {
    input: JSON.stringify(wire),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (!run.stderr.includes('DONE true')) throw new Error(`peak run failed: ${run.stderr.slice(-500)}`);
  let peak = 0;
  for (const match of run.stdout.matchAll(
    /(?:Scavenge|Mark-Compact|Mark-sweep)[^\d]*([\d.]+) \(([\d.]+)\) ->/g,
  ))
    peak = Math.max(peak, Number(match[1]));
  return Math.round(peak);
}

const importJob = (file, format) => ({
  name: `import ${file}`,
  kind: 'import',
  bytes: readFileSync(corpusPath(file)),
  job: (bytes) => ({ kind: 'import', format, bytes, maxUnpackedBytes: MAX_UNPACKED }),
});

const { document: plan, words } = generatePlan({ sections: 40 });
const planJson = JSON.stringify(plan);
const planDocx = await exportDocument(plan, 'docx', { title: 'Generated 200-page plan' });
const planPdf = await exportDocument(plan, 'pdf', { title: 'Generated 200-page plan' });
const pdfPages = (
  Buffer.from(planPdf)
    .toString('latin1')
    .match(/\/Type \/Page\b/g) ?? []
).length;

const cases = [
  importJob('docx/pandoc-headers.docx', 'docx'),
  importJob('docx/python-docx-having-images.docx', 'docx'),
  importJob('docx/docx4j-Docx4j_GettingStarted.docx', 'docx'),
  importJob('docx/poi-bug65649-very-large.docx', 'docx'),
  importJob('business-plans/posthog-business-model.md', 'md'),
  importJob('markdown/commonmark-spec-0.31.2.txt', 'md'),
  {
    name: 'import the 200-page plan as .docx',
    kind: 'import',
    bytes: planDocx,
    job: (bytes) => ({ kind: 'import', format: 'docx', bytes, maxUnpackedBytes: MAX_UNPACKED }),
  },
  ...['md', 'docx', 'pdf'].map((format) => ({
    name: `export the 200-page plan to ${format}`,
    kind: 'export',
    bytes: Buffer.from(planJson),
    job: () => ({ kind: 'export', format, contentJson: planJson, title: 'Generated 200-page plan' }),
  })),
];

const rows = [];
for (const entry of cases) {
  const job = entry.job(entry.bytes);
  const peak = peakHeapMb(job);
  const needed = await neededLimit(job);
  const budget = conversionBudget(entry.kind, entry.bytes.length);
  rows.push({
    name: entry.name,
    kib: Math.round(entry.bytes.length / 1024),
    peak,
    needed,
    budget: budget.memoryMb,
  });
  process.stderr.write(
    `${entry.name}: ${Math.round(entry.bytes.length / 1024)} KiB, peak ${peak} MB, needs ${needed} MB\n`,
  );
}

console.log(
  'conversion                                   input KiB  peak heap MB  needed limit MB  budget MB',
);
for (const row of rows)
  console.log(
    `${row.name.padEnd(44)} ${String(row.kib).padStart(9)} ${String(row.peak).padStart(13)} ${String(row.needed).padStart(16)} ${String(row.budget ?? '-').padStart(10)}`,
  );

const results = rows.flatMap((row) => [
  {
    name: `${row.name} (${row.kib} KiB): peak heap`,
    unit: 'MB',
    value: row.peak,
    target: 'reported',
    pass: null,
  },
  {
    name: `${row.name} (${row.kib} KiB): needed limit`,
    unit: 'MB',
    value: row.needed,
    target: row.budget === undefined ? 'reported' : `≤ its budget, ${row.budget} MB`,
    pass: row.budget === undefined ? null : row.needed <= row.budget,
  },
]);
console.log(
  JSON.stringify({
    bench: 'conversion-memory',
    title: 'Conversion memory: heap a worker needs per file, against its budget',
    method:
      `The server's conversion worker (dist/conversion-worker.js) runs each job: corpus .docx and Markdown imports, and a fixed-seed 40-section plan (${words} words, a ${pdfPages}-page PDF; its JSON ${Math.round(planJson.length / 1024)} KiB) imported from .docx and exported to md, docx and pdf. ` +
      'Peak heap: the largest heap in use V8 reported at a garbage collection (--trace-gc) with no limit. Needed limit: the smallest maxOldGenerationSizeMb, by bisection in 16 MB steps, under which the job still finishes. Budget: conversionBudget with the defaults (the size it scales by: the file for an import, the JSON for an export).',
    results,
    notes: `Node ${process.version}.`,
  }),
);
