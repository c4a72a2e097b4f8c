import { type DocumentJson, normalizeDocument } from '@planwright/sdk/model';
import fc from 'fast-check';

/**
 * Generated documents for the Markdown property tests: loose trees, normalised, with text drawn from an
 * alphabet heavy in characters Markdown gives a meaning to.
 */

const TRICKY = [
  ...'*_~`[]()<>#!&\\-+=.:|"\'',
  ' ',
  '  ',
  '\t',
  '\n',
  '1.',
  '2)',
  '---',
  '***',
  '```',
  '~~~',
  '&amp;',
  '&#42;',
  '<u>',
  '</em>',
  '<br>',
  'http://x.y',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\ufeff',
  'é',
  '😀',
];

/** Text of 1–8 pieces: words, Markdown punctuation, spaces, entities, emoji. */
export const trickyText = fc
  .array(
    fc.oneof(
      fc.constantFrom(...TRICKY),
      fc.string({ minLength: 1, maxLength: 3, unit: 'grapheme-ascii' }),
      fc.constantFrom('a', 'b', 'word'),
    ),
    {
      minLength: 1,
      maxLength: 5,
    },
  )
  .map((parts) => parts.join(''));

const hrefs = [
  'https://example.com/a?b=c&d=e',
  '/relative path',
  '#anchor',
  'mailto:ada@example.com',
  'https://x.y/(p)',
  'https://x.y/a<b>',
];

const inline = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        text: trickyText,
        marks: fc.subarray(['bold', 'italic', 'underline', 'strike', 'code'] as const),
        link: fc.option(
          fc.record({ href: fc.constantFrom(...hrefs), title: fc.option(trickyText, { nil: null }) }),
          { nil: null },
        ),
      })
      .map(({ text, marks, link }) => ({
        type: 'text',
        text,
        marks: [
          ...marks.map((type) => ({ type })),
          ...(link === null ? [] : [{ type: 'link', attrs: link }]),
        ],
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .subarray(['bold', 'italic'] as const)
      .map((marks) => ({ type: 'hardBreak', marks: marks.map((type) => ({ type })) })),
  },
);

const inlines = fc.array(inline, { maxLength: 5 });

const leaf = fc.oneof(
  { weight: 4, arbitrary: inlines.map((content) => ({ type: 'paragraph', content })) },
  {
    weight: 1,
    arbitrary: fc
      .record({ level: fc.constantFrom(3, 4), content: inlines })
      .map(({ level, content }) => ({ type: 'heading', attrs: { level }, content })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ text: fc.oneof(trickyText, fc.constant('')), language: fc.constantFrom(null, 'ts', 'c++') })
      .map(({ text, language }) => ({
        type: 'codeBlock',
        attrs: { language },
        content: text === '' ? [] : [{ type: 'text', text }],
      })),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'horizontalRule' }) },
);

const { block } = fc.letrec<{ block: unknown }>((tie) => ({
  block: fc.oneof(
    { maxDepth: 2, depthIdentifier: 'block' },
    leaf,
    fc
      .array(tie('block'), { minLength: 0, maxLength: 3 })
      .map((content) => ({ type: 'blockquote', content })),
    fc.array(fc.array(tie('block'), { maxLength: 3 }), { minLength: 1, maxLength: 3 }).map((items) => ({
      type: 'bulletList',
      content: items.map((content) => ({ type: 'listItem', content })),
    })),
    fc
      .record({
        start: fc.integer({ min: -3, max: 1_000_000_001 }),
        items: fc.array(fc.array(tie('block'), { maxLength: 3 }), { minLength: 1, maxLength: 3 }),
      })
      .map(({ start, items }) => ({
        type: 'orderedList',
        attrs: { start },
        content: items.map((content) => ({ type: 'listItem', content })),
      })),
  ),
}));

const title = fc.oneof(trickyText, fc.constant(''));

const subsection = fc
  .record({ title, blocks: fc.array(block, { maxLength: 4 }), finalized: fc.boolean() })
  .map(({ title: text, blocks, finalized }) => ({
    type: 'subsection',
    attrs: { finalized },
    content: [{ type: 'subsectionHeading', content: text === '' ? [] : [{ type: 'text', text }] }, ...blocks],
  }));

const section = fc
  .record({
    title,
    blocks: fc.array(block, { maxLength: 4 }),
    subsections: fc.array(subsection, { maxLength: 2 }),
  })
  .map(({ title: text, blocks, subsections }) => ({
    type: 'section',
    content: [
      { type: 'sectionHeading', content: text === '' ? [] : [{ type: 'text', text }] },
      ...blocks,
      ...subsections,
    ],
  }));

/** Normalised documents of 1–3 sections. */
export const documentArb: fc.Arbitrary<DocumentJson> = fc
  .array(section, { minLength: 1, maxLength: 3 })
  .map((sections) => {
    const result = normalizeDocument({ type: 'doc', content: sections });
    if (!result.ok) throw result.error;
    return result.doc;
  });

/** The JSON of a document without its generated ids, for comparing two imports. */
export function withoutIds(document: DocumentJson): unknown {
  return JSON.parse(
    JSON.stringify(document, (key, value: unknown) =>
      key === 'uuid' || key === 'nodeId' ? undefined : value,
    ),
  );
}

/** Text nodes of {@link trickyText} with any marks, and hard breaks: what a paragraph can hold in Markdown. */
export const paragraphsArb = fc
  .array(
    fc
      .array(
        fc.oneof(
          {
            weight: 5,
            arbitrary: fc
              .record({
                text: trickyText,
                marks: fc.subarray(['bold', 'italic', 'underline', 'strike'] as const),
                code: fc.boolean(),
                link: fc.option(
                  fc.record({ href: fc.constantFrom(...hrefs), title: fc.option(trickyText, { nil: null }) }),
                  { nil: null },
                ),
              })
              .map(({ text, marks, code, link }) => ({
                type: 'text',
                text: code ? text.replace(/[\r\n\u2028\u2029]/g, ' ') : text,
                marks: code
                  ? [{ type: 'code' }]
                  : [
                      ...marks.map((type) => ({ type })),
                      ...(link === null ? [] : [{ type: 'link', attrs: link }]),
                    ],
              })),
          },
          { weight: 1, arbitrary: fc.constant({ type: 'hardBreak' }) },
        ),
        { minLength: 1, maxLength: 6 },
      )
      // A paragraph of white space only is left out of Markdown (F16), so it has no Markdown form.
      .filter((content) => content.some((node) => node.type === 'text' && /\S/.test(node.text ?? ''))),
    { minLength: 1, maxLength: 3 },
  )
  .map((paragraphs) => {
    const result = normalizeDocument({
      type: 'doc',
      content: [
        {
          type: 'section',
          content: [
            { type: 'sectionHeading', content: [{ type: 'text', text: 'T' }] },
            ...paragraphs.map((content) => ({ type: 'paragraph', content })),
          ],
        },
      ],
    });
    if (!result.ok) throw result.error;
    return result.doc;
  });

/** Inline content of {@link paragraphsArb}: at least one text, so the paragraph has a Markdown form. */
const filledInline = fc
  .array(
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .record({
            text: trickyText,
            marks: fc.subarray(['bold', 'italic', 'underline', 'strike'] as const),
            code: fc.boolean(),
          })
          .map(({ text, marks, code }) => ({
            type: 'text',
            text: code ? text.replace(/[\r\n\u2028\u2029]/g, ' ') : text,
            marks: code ? [{ type: 'code' }] : marks.map((type) => ({ type })),
          })),
      },
      { weight: 1, arbitrary: fc.constant({ type: 'hardBreak' }) },
    ),
    { minLength: 1, maxLength: 4 },
  )
  .filter((content) => content.some((node) => node.type === 'text' && /\S/.test(node.text ?? '')));

const filledParagraph = filledInline.map((content) => ({ type: 'paragraph', content }));

/** {@link inline} without line breaks in code (a code span cannot hold one, F17). */
const codeSafeInline = inline.map((node) =>
  'text' in node && node.marks.some((mark) => mark.type === 'code')
    ? { ...node, text: node.text.replace(/[\r\n\u2028\u2029]/g, ' ') }
    : node,
);

const { structuredBlock } = fc.letrec<{ structuredBlock: unknown }>((tie) => ({
  structuredBlock: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'structured' },
    { weight: 3, arbitrary: filledParagraph },
    fc
      .record({ level: fc.constantFrom(3, 4), content: fc.array(codeSafeInline, { maxLength: 3 }) })
      .map(({ level, content }) => ({ type: 'heading', attrs: { level }, content })),
    fc
      .record({ text: fc.oneof(trickyText, fc.constant('')), language: fc.constantFrom(null, 'ts', 'c++') })
      .map(({ text, language }) => ({
        type: 'codeBlock',
        attrs: { language },
        content: text === '' ? [] : [{ type: 'text', text: text.replace(/\r/g, '\n') }],
      })),
    fc.constant({ type: 'horizontalRule' }),
    fc
      .array(tie('structuredBlock'), { minLength: 1, maxLength: 3 })
      .map((content) => ({ type: 'blockquote', content })),
    fc
      .record({
        ordered: fc.boolean(),
        start: fc.integer({ min: 0, max: 999_999_999 }),
        items: fc.array(fc.tuple(filledParagraph, fc.array(tie('structuredBlock'), { maxLength: 2 })), {
          minLength: 1,
          maxLength: 3,
        }),
      })
      .map(({ ordered, start, items }) => ({
        type: ordered ? 'orderedList' : 'bulletList',
        ...(ordered ? { attrs: { start } } : {}),
        content: items.map(([first, rest]) => ({ type: 'listItem', content: [first, ...rest] })),
      })),
  ),
}));

/**
 * Documents whose every part has a Markdown form (F21): no empty paragraphs, no indents, list numbers
 * CommonMark reads, no carriage returns in code. These come back from a round trip exactly.
 */
export const representableDocumentArb: fc.Arbitrary<DocumentJson> = fc
  .array(
    fc.record({
      title: trickyText,
      blocks: fc.array(structuredBlock, { maxLength: 4 }),
      subsections: fc.array(
        fc.record({ title: trickyText, blocks: fc.array(structuredBlock, { maxLength: 3 }) }),
        { maxLength: 2 },
      ),
    }),
    { minLength: 1, maxLength: 2 },
  )
  .map((sections) => {
    const result = normalizeDocument({
      type: 'doc',
      content: sections.map(({ title: text, blocks, subsections }) => ({
        type: 'section',
        content: [
          { type: 'sectionHeading', content: [{ type: 'text', text }] },
          ...blocks,
          ...subsections.map((entry) => ({
            type: 'subsection',
            content: [
              { type: 'subsectionHeading', content: [{ type: 'text', text: entry.title }] },
              ...entry.blocks,
            ],
          })),
        ],
      })),
    });
    if (!result.ok) throw result.error;
    return result.doc;
  });
