// The 200-page plan of the editor benchmarks: the sections and subsections of a document made from the
// default blueprint, padded to 12 sections and 96 subsections, each filled with about 30 blocks of
// business-plan prose (paragraphs of 60–120 words, some bold and italic, level-3 headings, lists).
// Deterministic: a fixed Lehmer sequence, so every run types into the same plan.

const SECTION_COUNTS = [8, 7, 9, 8, 6, 10, 8, 8, 7, 9, 8, 8]; // 96 subsections
const EXTRA_SECTIONS = ['Sustainability and Impact', 'Technology and Infrastructure', 'Appendix'];
const SUBJECTS = [
  'Our team',
  'The company',
  'The pilot programme',
  'Each regional partner',
  'The subscription tier',
  'Our largest customer segment',
  'The finance function',
  'The operations plan',
  'This channel',
  'The product roadmap',
];
const VERBS = [
  'reduces',
  'strengthens',
  'depends on',
  'accelerates',
  'supports',
  'protects',
  'extends',
  'simplifies',
  'funds',
  'measures',
];
const OBJECTS = [
  'gross margin across every product line',
  'the onboarding of new distributors',
  'customer retention in the second year',
  'our position against established competitors',
  'working capital during the seasonal peak',
  'the cost of acquiring a paying customer',
  'recurring revenue from existing accounts',
  'compliance with the relevant regulations',
  'the time from order to delivery',
  'the share of revenue from enterprise contracts',
];
const QUALIFIERS = [
  'within the first eighteen months',
  'without adding fixed costs',
  'as the market consolidates',
  'while keeping prices competitive',
  'in line with the assumptions of the financial plan',
  'once the second facility opens',
  'according to the latest customer survey',
  'before the next funding round',
];
const CLAUSES = [
  'We expect revenue of {money} million by year {year}, with a contribution margin of {pct} percent.',
  'Interviews with {n} prospective customers confirmed that price, reliability and support matter most.',
  'The total addressable market is estimated at {money} billion, growing {pct} percent a year.',
  'Break-even is planned for month {n}, assuming the hiring plan described in the team section.',
  'Churn fell from {pct} percent to {pct2} percent after the new support process was introduced.',
  'A sensitivity analysis shows that a {pct} percent drop in volume delays break-even by {year} quarters.',
  'Key risks include supplier concentration, regulatory change and slower adoption than forecast.',
  'Funds will be used for product development, sales capacity and a reserve of {n} months of costs.',
];
const BOLD = ['recurring revenue', 'net promoter score', 'payback period', 'unit economics', 'market share'];
const ITALIC = ['for example', 'in our experience', 'by design', 'at minimum', 'in practice'];
const HEADINGS = [
  'Assumptions and evidence',
  'What changes next year',
  'How we measure progress',
  'Risks and how we mitigate them',
  'Comparison with alternatives',
  'Open questions',
];

/** A deterministic pseudo-random source (Lehmer), so the plan is the same on every run. */
function createRandom(seed = 20261122) {
  let state = seed;
  const next = () => {
    state = (state * 48271) % 2147483647;
    return state;
  };
  return {
    int: (min, max) => min + (next() % (max - min + 1)),
    pick: (list) => list[next() % list.length],
    uuid: () => {
      const hex = Array.from({ length: 32 }, () => (next() % 16).toString(16));
      hex[12] = '4';
      hex[16] = '89ab'[next() % 4];
      const s = hex.join('');
      return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
    },
  };
}

const text = (value, marks) => (marks ? { type: 'text', text: value, marks } : { type: 'text', text: value });
const words = (s) => s.split(/\s+/).filter(Boolean).length;

function sentence(random) {
  if (random.int(0, 2) === 0) {
    return random
      .pick(CLAUSES)
      .replace('{money}', `${random.int(2, 90)}.${random.int(0, 9)}`)
      .replace('{year}', String(random.int(2, 5)))
      .replace('{pct2}', String(random.int(2, 9)))
      .replace('{pct}', String(random.int(10, 45)))
      .replace('{n}', String(random.int(12, 240)));
  }
  return `${random.pick(SUBJECTS)} ${random.pick(VERBS)} ${random.pick(OBJECTS)} ${random.pick(QUALIFIERS)}.`;
}

/** A paragraph of 60–120 words; about one in three has a bold phrase, one in four an italic one. */
function paragraph(random) {
  const target = random.int(60, 120);
  const parts = [];
  let count = 0;
  while (count < target) {
    const next = sentence(random);
    parts.push(next);
    count += words(next);
  }
  const body = parts.join(' ');
  const content = [];
  if (random.int(0, 2) === 0) {
    const phrase = random.pick(BOLD);
    content.push(text(`${body} The `), text(phrase, [{ type: 'bold' }]), text(' is tracked monthly.'));
  } else {
    content.push(text(body));
  }
  if (random.int(0, 3) === 0) {
    content.push(text(' '), text(random.pick(ITALIC), [{ type: 'italic' }]), text(', this holds.'));
  }
  return { type: 'paragraph', content: content.length ? content : undefined };
}

function list(random) {
  const ordered = random.int(0, 2) === 0;
  return {
    type: ordered ? 'orderedList' : 'bulletList',
    content: Array.from({ length: random.int(3, 5) }, () => ({
      type: 'listItem',
      content: [{ type: 'paragraph', content: [text(sentence(random))] }],
    })),
  };
}

/** About 30 blocks (26–34): paragraphs, two level-3 headings and three lists. */
function subsectionBlocks(random) {
  const count = random.int(26, 34);
  return Array.from({ length: count }, (_, i) => {
    if (i === 9 || i === 19) {
      return { type: 'heading', attrs: { level: 3 }, content: [text(random.pick(HEADINGS))] };
    }
    if (i === 5 || i === 14 || i === 24) return list(random);
    return paragraph(random);
  });
}

const titleOf = (node) => node.content?.[0]?.content?.map((t) => t.text).join('') ?? '';

/**
 * The 200-page plan built on `content` (a new document's tree from the default blueprint): its sections
 * and subsections keep their uuids and titles, more are added up to 12 sections and 96 subsections, and
 * every subsection body is replaced by about 30 generated blocks. Section bodies stay empty.
 */
export function generatePlan(content) {
  const random = createRandom();
  const existing = content.content.filter((node) => node.type === 'section');
  const sections = SECTION_COUNTS.map((subsectionCount, i) => {
    const source = existing[i];
    const sourceSubsections = source?.content.filter((node) => node.type === 'subsection') ?? [];
    const sectionTitle = source ? titleOf(source) : EXTRA_SECTIONS[i - existing.length];
    const subsections = Array.from({ length: subsectionCount }, (_, j) => {
      const from = sourceSubsections[j];
      return {
        type: 'subsection',
        attrs: from?.attrs ?? { uuid: random.uuid(), blueprint_uuid: null, finalized: false },
        content: [
          {
            type: 'subsectionHeading',
            attrs: { level: 2 },
            content: [text(from ? titleOf(from) : `${sectionTitle}: part ${j + 1}`)],
          },
          ...subsectionBlocks(random),
        ],
      };
    });
    return {
      type: 'section',
      attrs: source?.attrs ?? { uuid: random.uuid(), blueprint_uuid: null, id: null, model: null },
      content: [
        { type: 'sectionHeading', attrs: { level: 1 }, content: [text(sectionTitle || 'Untitled')] },
        ...subsections,
      ],
    };
  });
  return { type: 'doc', content: sections };
}

/** Counts of a plan: blocks (every node inside a section or subsection body, headings included), words. */
export function planStats(content) {
  let blocks = 0;
  let wordCount = 0;
  let subsections = 0;
  const walk = (node, inBody) => {
    if (node.type === 'text') {
      wordCount += words(node.text);
      return;
    }
    if (node.type === 'subsection') subsections++;
    // A list with its items counts as one block, as a reader sees it.
    if (inBody) blocks++;
    const isContainer = node.type === 'section' || node.type === 'subsection';
    for (const child of node.content ?? []) walk(child, isContainer && child.type !== 'subsection');
  };
  walk(content, false);
  return { sections: content.content.length, subsections, blocks, words: wordCount };
}

const escapeHtml = (value) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const MARK_TAGS = { bold: 'strong', italic: 'em', underline: 'u', strike: 's', code: 'code' };

function inlineHtml(nodes = []) {
  return nodes
    .map((node) => {
      if (node.type === 'hardBreak') return '<br>';
      let html = escapeHtml(node.text ?? '');
      for (const mark of [...(node.marks ?? [])].reverse()) {
        if (mark.type === 'link') html = `<a href="${escapeHtml(mark.attrs?.href ?? '')}">${html}</a>`;
        else if (MARK_TAGS[mark.type]) html = `<${MARK_TAGS[mark.type]}>${html}</${MARK_TAGS[mark.type]}>`;
      }
      return html;
    })
    .join('');
}

/**
 * The plan as plain HTML for the bare editor: section headings become `<h1>`, subsection headings
 * `<h2>`, the sections and subsections themselves disappear, so the text and the blocks are the same.
 */
export function planToHtml(node) {
  const children = () => (node.content ?? []).map(planToHtml).join('');
  switch (node.type) {
    case 'doc':
    case 'section':
    case 'subsection':
      return children();
    case 'sectionHeading':
      return `<h1>${inlineHtml(node.content)}</h1>`;
    case 'subsectionHeading':
      return `<h2>${inlineHtml(node.content)}</h2>`;
    case 'heading':
      return `<h${node.attrs?.level ?? 3}>${inlineHtml(node.content)}</h${node.attrs?.level ?? 3}>`;
    case 'paragraph':
      return `<p>${inlineHtml(node.content)}</p>`;
    case 'bulletList':
      return `<ul>${children()}</ul>`;
    case 'orderedList':
      return `<ol>${children()}</ol>`;
    case 'listItem':
      return `<li>${children()}</li>`;
    case 'blockquote':
      return `<blockquote>${children()}</blockquote>`;
    case 'codeBlock':
      return `<pre><code>${escapeHtml((node.content ?? []).map((t) => t.text).join(''))}</code></pre>`;
    case 'horizontalRule':
      return '<hr>';
    default:
      return inlineHtml([node]);
  }
}
