#!/usr/bin/env node
// .docx → Markdown: `planwright convert` against Debian's `pandoc`, both as whole processes (start-up
// included, as a user runs them), on the corpus's two large files and a generated 200-page plan.
// Reports the time ratio and the fidelity of each output: headings by level, list items and links.
//
//   npm run build && node bench/docx-vs-pandoc.mjs [--runs 3] [--warmup 1]
//
// Prints a table for people, then, as its last line, the JSON result that bench/run.mjs collects.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generatePlan } from './generated-plan.mjs';
import { summarize } from './stats.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, warmup: { type: 'string', default: '1' } },
});
const runs = Number.parseInt(values.runs, 10);
const warmup = Number.parseInt(values.warmup, 10);

const root = fileURLToPath(new URL('../', import.meta.url));
const cli = join(root, 'packages/cli/dist/cli.js');
const formatsNode = join(root, 'packages/sdk/dist/formats/node/index.js');
for (const built of [cli, formatsNode]) {
  if (!existsSync(built)) {
    console.error(`docx-vs-pandoc: ${built} is missing; run \`npm run build\` first`);
    process.exit(1);
  }
}
if (spawnSync('pandoc', ['--version']).status !== 0) {
  console.error('docx-vs-pandoc: pandoc is not installed. Install it with:  sudo apt-get install -y pandoc');
  process.exit(1);
}
const pandocVersion = execFileSync('pandoc', ['--version'], { encoding: 'utf8' }).split('\n')[0];
const corpus = process.env.PLANWRIGHT_CORPUS_DIR ?? join(root, '../shared/corpus');

const dir = mkdtempSync(join(tmpdir(), 'planwright-bench-pandoc-'));
const { documentToDocx } = await import(formatsNode);
const { document: plan } = generatePlan({ sections: 40 });
const planDocx = join(dir, 'generated-200-page-plan.docx');
writeFileSync(planDocx, await documentToDocx(plan, { title: 'Generated 200-page plan' }));

/** What the plan holds, to score each tool's output against. */
function planTruth() {
  let h1 = 0;
  let h2 = 0;
  let h3 = 0;
  let items = 0;
  let links = 0;
  const walk = (node) => {
    if (node.type === 'sectionHeading') h1++;
    if (node.type === 'subsectionHeading') h2++;
    if (node.type === 'heading') h3++;
    if (node.type === 'listItem') items++;
    if (node.type === 'text' && node.marks?.some((mark) => mark.type === 'link')) links++;
    for (const child of node.content ?? []) walk(child);
  };
  walk(plan);
  return { h1, h2, 'h3+': h3, 'list items': items, links };
}

/** Headings by level, list items and links in a Markdown text. */
function fidelity(markdown) {
  const lines = markdown.split('\n');
  const inFence = [];
  let fenced = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    inFence.push(fenced);
  }
  const count = (re) => lines.filter((line, i) => !inFence[i] && re.test(line)).length;
  return {
    h1: count(/^# /),
    h2: count(/^## /),
    'h3+': count(/^#{3,6} /),
    'list items': count(/^\s*([-*+]|\d+[.)])\s+\S/),
    links: (markdown.match(/\]\((?:https?:|mailto:)[^)]*\)/g) ?? []).length,
  };
}

function time(command, args) {
  const samples = [];
  for (let round = 0; round < warmup + runs; round++) {
    const start = process.hrtime.bigint();
    const run = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${run.stderr}`);
    if (round >= warmup) samples.push(elapsed);
  }
  return summarize(samples);
}

const inputs = [
  {
    name: 'docx4j Getting Started (445 KB, 1,300 paragraphs)',
    file: join(corpus, 'docx/docx4j-Docx4j_GettingStarted.docx'),
  },
  { name: 'POI bug65649 (475 KB zip, 12.6 MB XML)', file: join(corpus, 'docx/poi-bug65649-very-large.docx') },
  { name: 'generated 200-page plan', file: planDocx, truth: planTruth() },
];

const results = [];
const table = [];
for (const input of inputs) {
  if (!existsSync(input.file)) {
    console.error(
      `docx-vs-pandoc: ${input.file} is missing (the shared corpus must sit beside the repository)`,
    );
    process.exit(1);
  }
  const ours = join(dir, 'planwright.md');
  const theirs = join(dir, 'pandoc.md');
  const planwright = time(process.execPath, [cli, 'convert', input.file, '-o', ours, '--force']);
  const pandoc = time('pandoc', ['-f', 'docx', '-t', 'commonmark', '-o', theirs, input.file]);
  const ratio = Math.round((planwright.median / pandoc.median) * 100) / 100;
  const oursFidelity = fidelity(readFileSync(ours, 'utf8'));
  const theirsFidelity = fidelity(readFileSync(theirs, 'utf8'));
  table.push({
    input: input.name,
    planwright,
    pandoc,
    ratio,
    oursFidelity,
    theirsFidelity,
    truth: input.truth,
  });
  results.push(
    { name: `${input.name}: planwright convert`, unit: 'ms', ...planwright, target: 'reported', pass: null },
    { name: `${input.name}: pandoc`, unit: 'ms', ...pandoc, target: 'reported', pass: null },
    {
      name: `${input.name}: time ratio planwright / pandoc`,
      unit: '×',
      value: ratio,
      target: 'reported',
      pass: null,
    },
  );
}
rmSync(dir, { recursive: true, force: true });

const describe = (f) =>
  Object.entries(f)
    .map(([key, value]) => `${key} ${value}`)
    .join(', ');
for (const row of table) {
  console.log(`${row.input}`);
  console.log(
    `  planwright convert ${row.planwright.median} ms, pandoc ${row.pandoc.median} ms (ratio ${row.ratio})`,
  );
  console.log(`  planwright: ${describe(row.oursFidelity)}`);
  console.log(`  pandoc:     ${describe(row.theirsFidelity)}`);
  if (row.truth) console.log(`  the plan:   ${describe(row.truth)}`);
}
const notes = table
  .map(
    (row) =>
      `${row.input}: planwright — ${describe(row.oursFidelity)}; pandoc — ${describe(row.theirsFidelity)}` +
      (row.truth ? `; the plan holds ${describe(row.truth)}` : ''),
  )
  .join('. ');
console.log(
  JSON.stringify({
    bench: 'docx-vs-pandoc',
    title: '.docx → Markdown: `planwright convert` against pandoc',
    method: `Each tool as a whole process (spawn to exit, start-up included): \`node packages/cli/dist/cli.js convert IN.docx -o OUT.md\` against \`${pandocVersion} -f docx -t commonmark\`, ${warmup} warm-up and ${runs} measured runs each, alternating per input. Fidelity counts the Markdown each writes: ATX headings by level, list items, and links to http(s)/mailto addresses.`,
    results,
    notes: `Fidelity (headings h1/h2/h3+, list items, links). ${notes}.`,
  }),
);
