// The plan the conversion benches use: fixed-seed text, so every run and every machine converts the same
// plan. 10 sections × 6 subsections are about 25,000 words, some 50 pages.

let seed;
function random() {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 2 ** 32;
}
const WORDS = (
  'market customer revenue growth product service team plan funding margin cost price channel partner ' +
  'risk launch region segment demand supply capital investor forecast quarter churn retention sales ' +
  'brand strategy operations hiring office software platform pilot contract license cash break-even ' +
  'scale the a of to and in for with our we will by on from each new first second'
).split(' ');
const pick = () => WORDS[Math.floor(random() * WORDS.length)];
let wordCount;
function sentence(words) {
  const list = Array.from({ length: words }, pick);
  wordCount += words;
  const first = list[0] ?? 'plan';
  return `${first[0].toUpperCase()}${first.slice(1)} ${list.slice(1).join(' ')}.`;
}
function words(count) {
  let text = '';
  while (count > 0) {
    const length = Math.min(count, 8 + Math.floor(random() * 12));
    text += `${text ? ' ' : ''}${sentence(length)}`;
    count -= length;
  }
  return text;
}

let ids;
const uuid = () => `00000000-0000-4000-8000-${(++ids).toString(16).padStart(12, '0')}`;
const nodeId = () => `n${(++ids).toString(36)}`;
const textNode = (text, marks) => (marks ? { type: 'text', text, marks } : { type: 'text', text });
const paragraph = (content, indent = 0) => ({
  type: 'paragraph',
  attrs: { indent, nodeId: nodeId() },
  content,
});
const listItem = (text, nested) => ({
  type: 'listItem',
  attrs: { nodeId: nodeId() },
  content: nested ? [paragraph([textNode(text)]), nested] : [paragraph([textNode(text)])],
});

function subsectionBlocks(index) {
  const blocks = [];
  for (let p = 0; p < 6; p++) {
    blocks.push(
      paragraph([
        textNode(`${words(32)} `),
        textNode(words(4), [{ type: 'bold' }]),
        textNode(` ${words(20)} `),
        textNode('see the source', [
          {
            type: 'link',
            attrs: {
              href: `https://example.com/${index}/${p}`,
              target: '_blank',
              rel: null,
              class: null,
              title: null,
            },
          },
        ]),
        textNode('.'),
      ]),
    );
  }
  blocks.push({
    type: index % 2 ? 'orderedList' : 'bulletList',
    attrs: index % 2 ? { start: 1, type: null, nodeId: nodeId() } : { nodeId: nodeId() },
    content: [
      listItem(words(10), {
        type: 'bulletList',
        attrs: { nodeId: nodeId() },
        content: [listItem(words(8)), listItem(words(8))],
      }),
      listItem(words(10)),
      listItem(words(10)),
    ],
  });
  if (index % 3 === 0) {
    blocks.push({ type: 'heading', attrs: { level: 3, nodeId: nodeId() }, content: [textNode(words(4))] });
    blocks.push(paragraph([textNode(words(40))]));
  }
  return blocks;
}

function buildPlan(sectionCount) {
  const sections = [];
  let index = 0;
  for (let s = 1; s <= sectionCount; s++) {
    const subsections = [];
    for (let u = 1; u <= 6; u++) {
      subsections.push({
        type: 'subsection',
        attrs: { uuid: uuid(), blueprint_uuid: null, finalized: false },
        content: [
          { type: 'subsectionHeading', attrs: { level: 2 }, content: [textNode(`${s}.${u} ${words(3)}`)] },
          ...subsectionBlocks(index++),
        ],
      });
    }
    sections.push({
      type: 'section',
      attrs: { uuid: uuid(), blueprint_uuid: null, id: null, model: null },
      content: [
        { type: 'sectionHeading', attrs: { level: 1 }, content: [textNode(`${s}. ${words(3)}`)] },
        paragraph([textNode(words(80))]),
        ...subsections,
      ],
    });
  }
  return { type: 'doc', content: sections };
}

/**
 * A generated plan of `sections` sections × 6 subsections (paragraphs with bold and links, nested
 * lists, level-3 headings) and its word count. The same arguments always give the same plan.
 */
export function generatePlan({ sections = 10 } = {}) {
  seed = 0x2f6b3c1d;
  wordCount = 0;
  ids = 0;
  const document = buildPlan(sections);
  return { document, words: wordCount };
}
