#!/usr/bin/env node
// Markdown export scaling: documentToMarkdown on plans of ~150 KB to ~4 MB of Markdown. Doubling the
// input must at most double the time (×2.2 allowed for noise): the export writes each section on its own
// and joins the parts once, where prosemirror-markdown's serializer rescans its growing output.
// `PLANWRIGHT_BENCH_SOURCE=1 npx tsx bench/markdown-export.mjs` measures the source instead of dist/.
import { performance } from 'node:perf_hooks';
import { summarize } from './stats.mjs';

const fromSource = process.env.PLANWRIGHT_BENCH_SOURCE === '1';
const formats = await import(
  fromSource ? '../packages/sdk/src/formats/index.ts' : '../packages/sdk/dist/formats/index.js'
);
const model = await import(
  fromSource ? '../packages/sdk/src/model/index.ts' : '../packages/sdk/dist/model/index.js'
);
const { documentToMarkdown } = formats;

const TARGET_RATIO = 2.2;
const WARMUP = 3;
const RUNS = 21;

let ids = 0;
const id = () => `00000000-0000-4000-8000-${(++ids).toString(16).padStart(12, '0')}`;
const text = (value, marks) => (marks ? { type: 'text', text: value, marks } : { type: 'text', text: value });
const paragraph = (content) => ({ type: 'paragraph', attrs: { indent: 0, nodeId: id() }, content });
const link = {
  type: 'link',
  attrs: {
    href: 'https://example.com/market?q=1',
    target: '_blank',
    rel: 'noopener noreferrer nofollow',
    class: null,
    title: null,
  },
};
const item = (words) => ({ type: 'listItem', attrs: { nodeId: id() }, content: [paragraph([text(words)])] });

/** One section of a realistic plan: prose with marks, a list, a subsection with a numbered list and a quote. */
function planSection(n) {
  const prose = (k) =>
    paragraph([
      text(`In year ${k} we expect revenue from ${n * 7 + k} customers in the `),
      text('mid-market segment', [{ type: 'bold' }]),
      text(', driven by '),
      text('partner referrals', [{ type: 'italic' }]),
      text(' and our '),
      text('pricing page', [link]),
      text(`. Costs grow by ${k + 3}% (see `),
      text('costs_v2', [{ type: 'code' }]),
      text(') while churn stays under 2% — a margin of 40% * 1.2 = 48% [estimate].'),
    ]);
  return {
    type: 'section',
    attrs: { uuid: id(), blueprint_uuid: null, id: null, model: null },
    content: [
      { type: 'sectionHeading', attrs: { level: 1 }, content: [text(`${n}. Market and strategy`)] },
      prose(1),
      prose(2),
      {
        type: 'bulletList',
        attrs: { nodeId: id() },
        content: [
          item('Direct sales to companies of 50–500 people'),
          {
            type: 'listItem',
            attrs: { nodeId: id() },
            content: [
              paragraph([text('Channel partners, '), text('two signed', [{ type: 'underline' }])]),
              {
                type: 'bulletList',
                attrs: { nodeId: id() },
                content: [item('Resellers in the EU'), item('Agencies')],
              },
            ],
          },
          item('Self-serve plan with a 14-day trial'),
        ],
      },
      {
        type: 'subsection',
        attrs: { uuid: id(), blueprint_uuid: null, finalized: n % 3 === 0 },
        content: [
          { type: 'subsectionHeading', attrs: { level: 2 }, content: [text('Milestones')] },
          {
            type: 'orderedList',
            attrs: { start: 1, type: null, nodeId: id() },
            content: [
              item('Hire two account executives'),
              item('Launch the partner portal'),
              item('Reach break-even'),
            ],
          },
          prose(3),
          {
            type: 'blockquote',
            attrs: { nodeId: id() },
            content: [paragraph([text('We win on service, not on price.', [{ type: 'italic' }])])],
          },
          { type: 'heading', attrs: { level: 3, nodeId: id() }, content: [text('Risks')] },
          prose(4),
        ],
      },
    ],
  };
}

const planOf = (sections) => ({
  type: 'doc',
  content: Array.from({ length: sections }, (_, n) => planSection(n + 1)),
});

function time(fn) {
  for (let i = 0; i < WARMUP; i += 1) fn();
  const samples = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return summarize(samples);
}

/** prosemirror-markdown's serializer over the whole document at once, for comparison (our node names). */
async function wholeDocumentSerializer() {
  const { MarkdownSerializer, defaultMarkdownSerializer: base } = await import('prosemirror-markdown');
  const n = base.nodes;
  const serializer = new MarkdownSerializer(
    {
      section: (state, node) => state.renderContent(node),
      subsection: (state, node) => state.renderContent(node),
      sectionHeading: (state, node) => {
        state.write('# ');
        state.renderInline(node);
        state.closeBlock(node);
      },
      subsectionHeading: (state, node) => {
        state.write('## ');
        state.renderInline(node);
        state.closeBlock(node);
      },
      paragraph: n.paragraph,
      heading: n.heading,
      bulletList: n.bullet_list,
      orderedList: (state, node) =>
        n.ordered_list(state, node.type.create({ ...node.attrs, order: node.attrs.start }, node.content)),
      listItem: n.list_item,
      blockquote: n.blockquote,
      codeBlock: (state, node) =>
        n.code_block(state, node.type.create({ params: node.attrs.language ?? '' }, node.content)),
      horizontalRule: n.horizontal_rule,
      hardBreak: n.hard_break,
      text: n.text,
    },
    {
      bold: base.marks.strong,
      italic: base.marks.em,
      code: base.marks.code,
      link: base.marks.link,
      underline: { open: '<u>', close: '</u>' },
      strike: { open: '~~', close: '~~', mixable: true, expelEnclosingWhitespace: true },
    },
  );
  const schema = model.getPlanwrightSchema();
  return (doc) => {
    const node = schema.nodeFromJSON(doc);
    return () => serializer.serialize(node, { tightLists: true });
  };
}

const SIZES = [
  { name: '~150 KB', sections: 105 },
  { name: '~300 KB', sections: 210 },
  { name: '~500 KB', sections: 350 },
  { name: '~1 MB', sections: 700 },
  { name: '~2 MB', sections: 1400 },
  { name: '~4 MB', sections: 2800 },
];

// JIT warm-up on a mid-sized plan first, so the smallest size is not measured on cold code.
const warm = planOf(350);
for (let i = 0; i < 5; i += 1) documentToMarkdown(warm);

// Sizes are measured interleaved (every round runs each size once), so a busy moment of the machine
// falls on all sizes alike instead of skewing one ratio.
const docs = SIZES.map((size) => planOf(size.sections));
const bytes = docs.map((doc) => Buffer.byteLength(documentToMarkdown(doc), 'utf8'));
for (let i = 0; i < WARMUP; i += 1) for (const doc of docs) documentToMarkdown(doc);
// Smaller plans are exported several times per sample (as many times as they fit in the largest), so every
// sample lasts about as long and timer and scheduler noise weigh the same on every size.
const largest = SIZES[SIZES.length - 1].sections;
const repeats = SIZES.map((size) => Math.max(1, Math.round(largest / size.sections)));
const samples = SIZES.map(() => []);
for (let round = 0; round < RUNS; round += 1) {
  docs.forEach((doc, index) => {
    const start = performance.now();
    for (let r = 0; r < repeats[index]; r += 1) documentToMarkdown(doc);
    samples[index].push((performance.now() - start) / repeats[index]);
  });
}
const measured = SIZES.map((size, index) => ({
  ...size,
  bytes: bytes[index],
  stats: summarize(samples[index]),
}));
for (const m of measured) {
  console.log(
    `${m.name.padEnd(9)} ${String(m.bytes).padStart(9)} B  median ${m.stats.median} ms (p90 ${m.stats.p90})`,
  );
}
docs.length = 0;

const steps = [];
for (const [small, large] of [
  [0, 1],
  [2, 3],
  [3, 4],
  [4, 5],
]) {
  const a = measured[small];
  const b = measured[large];
  const ratio = Math.round((b.stats.median / a.stats.median) * 100) / 100;
  steps.push({ from: a, to: b, ratio, pass: ratio <= TARGET_RATIO });
  console.log(`${a.name} → ${b.name}: ×${ratio} the time for ×${(b.bytes / a.bytes).toFixed(2)} the output`);
}

// The whole-document serializer is only run on the smaller sizes: it is quadratic, so 4 MB would take minutes.
const comparison = [];
try {
  const prepare = await wholeDocumentSerializer();
  for (const size of measured.slice(0, 3)) {
    const run = prepare(planOf(size.sections));
    const start = performance.now();
    run();
    const once = performance.now() - start;
    const stats = once > 3000 ? summarize([once]) : time(run);
    comparison.push({ size, stats });
    console.log(`prosemirror-markdown whole document ${size.name}: median ${stats.median} ms`);
  }
} catch (error) {
  console.log(`prosemirror-markdown comparison skipped: ${error instanceof Error ? error.message : error}`);
}

const perMb = (m) => Math.round((m.stats.median / (m.bytes / 1e6)) * 10) / 10;
console.log(`time per MB of output: ${measured.map((m) => `${m.name} ${perMb(m)} ms`).join(', ')}`);

const pmRatios = [];
for (let i = 1; i < comparison.length; i += 1) {
  const a = comparison[i - 1];
  const b = comparison[i];
  pmRatios.push(
    `${a.size.name}→${b.size.name} ×${(b.stats.median / a.stats.median).toFixed(2)} time for ×${(b.size.bytes / a.size.bytes).toFixed(2)} size`,
  );
}

console.log(
  JSON.stringify({
    bench: 'markdown-export',
    title: 'Markdown export scaling: documentToMarkdown from ~150 KB to ~4 MB',
    method: `Generated plans (sections with marked prose, nested bullet lists, a subsection with a numbered list, a quote and a heading; ~1.4 KB of Markdown per section), ${WARMUP} warm-up rounds and ${RUNS} measured rounds, each round timing every size once (interleaved; a smaller plan is exported n times per sample, n = 4 MB plan sections / its sections, and the time divided by n), in one process (${fromSource ? 'source via tsx' : 'dist'}). The ratio of medians for each doubling of the section count must be at most ×${TARGET_RATIO}.`,
    results: [
      ...measured.map((m) => ({
        name: `documentToMarkdown ${m.name} (${m.bytes} bytes)`,
        unit: 'ms',
        ...m.stats,
        target: 'reported',
        pass: null,
      })),
      ...steps.map((s) => ({
        name: `time ratio ${s.from.name} → ${s.to.name}`,
        unit: '×',
        value: s.ratio,
        target: `≤ ${TARGET_RATIO}`,
        pass: s.pass,
      })),
      {
        name: `time per MB, ${measured[0].name} against ${measured[measured.length - 1].name}`,
        unit: 'ms/MB',
        value: `${perMb(measured[0])} vs ${perMb(measured[measured.length - 1])}`,
        target: 'reported',
        pass: null,
      },
      ...comparison.map((c) => ({
        name: `prosemirror-markdown serializer, whole document, ${c.size.name}`,
        unit: 'ms',
        ...c.stats,
        target: 'reported',
        pass: null,
      })),
    ],
    notes: `Node ${process.version}. prosemirror-markdown (whole document in one MarkdownSerializer pass, for comparison, smaller sizes only): ${pmRatios.join('; ') || 'not measured'}.`,
  }),
);
