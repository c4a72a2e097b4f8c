#!/usr/bin/env node
// How long a 50-page plan (about 25,000 words) takes to export to .docx, to import back from that
// .docx, and to export to PDF, in process. Targets (issue 7): export ≤ 1 s, import ≤ 2 s; PDF reported.
//
//   npm run build -w @planwright/sdk && node bench/docx-convert.mjs [--runs 7] [--warmup 2]
//   PLANWRIGHT_BENCH_SOURCE=1 npx tsx bench/docx-convert.mjs      (the SDK from source, no build)
//
// Prints a table for people, then, as its last line, the JSON result that bench/run.mjs collects.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generatePlan } from './generated-plan.mjs';
import { summarize } from './stats.mjs';

const EXPORT_TARGET_MS = 1000;
const IMPORT_TARGET_MS = 2000;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    warmup: { type: 'string', default: '2' },
  },
});
const runs = Number.parseInt(values.runs, 10);
const warmup = Number.parseInt(values.warmup, 10);
if (!(runs > 0) || !(warmup >= 0)) {
  console.error('docx-convert: --runs must be a positive integer and --warmup a non-negative one');
  process.exit(2);
}

const fromSource = process.env.PLANWRIGHT_BENCH_SOURCE === '1';
const sdk = (path) => new URL(`../packages/sdk/${path}`, import.meta.url);

/** The conversions, from the built SDK or (PLANWRIGHT_BENCH_SOURCE=1, under tsx) from its sources. */
async function loadConversions() {
  if (!fromSource) {
    const entry = sdk('dist/formats/node/index.js');
    if (!existsSync(fileURLToPath(entry))) {
      console.error(
        `docx-convert: ${fileURLToPath(entry)} is missing; run \`npm run build -w @planwright/sdk\` first ` +
          '(or PLANWRIGHT_BENCH_SOURCE=1 npx tsx bench/docx-convert.mjs)',
      );
      process.exit(1);
    }
    return import(entry.href);
  }
  // One file per conversion, so the bench runs while other parts of the entry are still being written.
  const { documentToDocx } = await import(sdk('src/formats/node/docx-export.ts').href);
  const { documentToPdf } = await import(sdk('src/formats/node/pdf-export.ts').href);
  const importFile = sdk('src/formats/node/docx-import.ts');
  const docxToDocument = existsSync(fileURLToPath(importFile))
    ? (await import(importFile.href)).docxToDocument
    : undefined;
  return { documentToDocx, documentToPdf, docxToDocument };
}

async function measure(task) {
  const samples = [];
  for (let round = 0; round < warmup + runs; round++) {
    const start = process.hrtime.bigint();
    await task();
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (round >= warmup) samples.push(elapsed);
  }
  return summarize(samples);
}

const { documentToDocx, documentToPdf, docxToDocument } = await loadConversions();
const { document: plan, words: wordCount } = generatePlan();
const title = 'Generated 50-page plan';
const docx = await documentToDocx(plan, { title });
const pdf = await documentToPdf(plan, { title });

// Sanity checks first: a conversion that loses the plan would look wonderfully quick.
const headingCount = plan.content.length * 7;
const sectionTitle = (section) => (section.content[0]?.content ?? []).map((node) => node.text ?? '').join('');
if (docxToDocument) {
  // Every section of the plan must come back (the importer may add one for the title page).
  const imported = new Set((await docxToDocument(docx)).document.content.map(sectionTitle));
  const missing = plan.content.map(sectionTitle).filter((name) => !imported.has(name));
  if (missing.length > 0) {
    console.error(`docx-convert: the import lost ${missing.length} sections, e.g. "${missing[0]}"`);
    process.exit(1);
  }
}
const pdfPages = (new TextDecoder('latin1').decode(pdf).match(/\/Type \/Page\b/g) ?? []).length;

const exportStats = await measure(() => documentToDocx(plan, { title }));
const importStats = docxToDocument ? await measure(() => docxToDocument(docx)) : undefined;
const pdfStats = await measure(() => documentToPdf(plan, { title }));

const exportOk = exportStats.median <= EXPORT_TARGET_MS;
const importOk = importStats ? importStats.median <= IMPORT_TARGET_MS : null;
const kib = (bytes) => Math.round(bytes.length / 102.4) / 10;

console.log(
  `Plan: ${plan.content.length} sections, ${headingCount} section and subsection headings, ${wordCount} words; ` +
    `.docx ${kib(docx)} KiB, PDF ${kib(pdf)} KiB (${pdfPages} pages). ` +
    `${runs} measured runs after ${warmup} warm-up runs (SDK from ${fromSource ? 'source' : 'dist'}, Node ${process.version})`,
);
console.log('');
console.log(
  `${''.padEnd(26)}${'median'.padStart(11)}${'p90'.padStart(11)}${'min'.padStart(11)}${'target'.padStart(10)}`,
);
const rows = [
  ['documentToDocx', exportStats, `${EXPORT_TARGET_MS} ms`],
  ['docxToDocument', importStats, `${IMPORT_TARGET_MS} ms`],
  ['documentToPdf', pdfStats, '—'],
];
for (const [name, s, target] of rows) {
  if (!s) {
    console.log(`${name.padEnd(26)}${'not measured: docx-import.ts is missing'.padStart(33)}`);
    continue;
  }
  console.log(
    `${name.padEnd(26)}${`${s.median} ms`.padStart(11)}${`${s.p90} ms`.padStart(11)}${`${s.min} ms`.padStart(11)}${target.padStart(10)}`,
  );
}
console.log('');
console.log(
  `.docx export ${exportOk ? 'within' : 'OVER'} its target; ` +
    (importStats ? `.docx import ${importOk ? 'within' : 'OVER'} its target` : '.docx import not measured'),
);

const results = [
  {
    name: '.docx export of a 50-page plan (documentToDocx)',
    unit: 'ms',
    ...exportStats,
    target: `≤ ${EXPORT_TARGET_MS} ms`,
    pass: exportOk,
  },
];
if (importStats) {
  results.push({
    name: '.docx import of that file (docxToDocument)',
    unit: 'ms',
    ...importStats,
    target: `≤ ${IMPORT_TARGET_MS} ms`,
    pass: importOk,
  });
}
results.push({
  name: 'PDF export of the same plan (documentToPdf)',
  unit: 'ms',
  ...pdfStats,
  target: 'reported',
  pass: null,
});

console.log(
  JSON.stringify({
    bench: 'docx-convert',
    title: '.docx export and import, PDF export: a generated 50-page plan',
    method: `A fixed-seed plan of ${plan.content.length} sections × 6 subsections (${wordCount} words: paragraphs with bold and links, nested lists, level-3 headings), converted in process with the SDK's ${fromSource ? 'sources' : 'build'}: documentToDocx, docxToDocument of that .docx, documentToPdf. ${warmup} warm-up runs, then ${runs} measured runs each; wall time per call.`,
    results,
    notes:
      `.docx ${kib(docx)} KiB, PDF ${kib(pdf)} KiB with ${pdfPages} pages. Node ${process.version}.` +
      (importStats
        ? ''
        : ' The import was not measured: packages/sdk/src/formats/node/docx-import.ts does not exist yet.'),
  }),
);
