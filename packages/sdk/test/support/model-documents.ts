import {
  type BlockJson,
  type DocumentJson,
  getPlanwrightSchema,
  type InlineJson,
  type MarkJson,
  type ParagraphJson,
  type SectionJson,
  type SubsectionJson,
  type TextJson,
} from '@planwright/sdk/model';

/**
 * Content trees for the model tests, written in the canonical JSON (what ProseMirror's `toJSON()`
 * gives), so a test can compare the output of a command or of `normalizeDocument` with `toEqual`.
 */

/** A UUID made from a number, so tests read `uuid(3)` instead of a random string. */
export function uuid(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** A deterministic `generateId`: UUIDs counting up from `start`. */
export function countingIds(start = 1000): () => string {
  let next = start;
  return () => {
    next += 1;
    return uuid(next);
  };
}

export function text(value: string, marks?: MarkJson[]): TextJson {
  return marks === undefined || marks.length === 0
    ? { type: 'text', text: value }
    : { type: 'text', text: value, marks };
}

export function paragraph(nodeId: string, content: InlineJson[] = [], indent = 0): ParagraphJson {
  return content.length === 0
    ? { type: 'paragraph', attrs: { indent, nodeId } }
    : { type: 'paragraph', attrs: { indent, nodeId }, content };
}

export function link(href: string): MarkJson {
  return {
    type: 'link',
    attrs: { href, target: '_blank', rel: 'noopener noreferrer nofollow', class: null, title: null },
  };
}

export function subsection(
  id: number,
  title: string,
  blocks: BlockJson[] = [],
  finalized = false,
): SubsectionJson {
  return {
    type: 'subsection',
    attrs: { uuid: uuid(id), blueprint_uuid: null, finalized },
    content: [
      title === ''
        ? { type: 'subsectionHeading', attrs: { level: 2 } }
        : { type: 'subsectionHeading', attrs: { level: 2 }, content: [{ type: 'text', text: title }] },
      ...blocks,
    ],
  };
}

export function section(
  id: number,
  title: string,
  blocks: BlockJson[] = [],
  subsections: SubsectionJson[] = [],
): SectionJson {
  return {
    type: 'section',
    attrs: { uuid: uuid(id), blueprint_uuid: null, id: null, model: null },
    content: [
      title === ''
        ? { type: 'sectionHeading', attrs: { level: 1 } }
        : { type: 'sectionHeading', attrs: { level: 1 }, content: [{ type: 'text', text: title }] },
      ...blocks,
      ...subsections,
    ],
  };
}

export function documentOf(...sections: SectionJson[]): DocumentJson {
  return { type: 'doc', content: sections };
}

/**
 * Every node type, mark and attribute of spec 001 §3 in one normalised document: two sections, the
 * first with blocks before its subsections, one subsection finalized.
 */
export function specDocument(): DocumentJson {
  return documentOf(
    {
      ...section(1, 'Executive Summary', [
        paragraph('p-1', [
          text('We make '),
          text('plans', [{ type: 'bold' }, { type: 'italic' }]),
          text(' that '),
          text('work', [link('https://example.com/plans'), { type: 'underline' }]),
          { type: 'hardBreak' },
          text('old', [{ type: 'strike' }]),
          text(' and '),
          text('npm test', [{ type: 'code' }]),
        ]),
        paragraph('p-2', [text('Indented twice.')], 2),
      ]),
      attrs: { uuid: uuid(1), blueprint_uuid: uuid(901), id: 17, model: 'documents.section' },
    },
    section(
      2,
      'Market',
      [],
      [
        subsection(
          3,
          'Overview',
          [
            { type: 'heading', attrs: { level: 3, nodeId: 'h-1' }, content: [text('Customers')] },
            {
              type: 'bulletList',
              attrs: { nodeId: 'ul-1' },
              content: [
                {
                  type: 'listItem',
                  attrs: { nodeId: 'li-1' },
                  content: [
                    paragraph('p-3', [text('Small firms')]),
                    {
                      type: 'orderedList',
                      attrs: { start: 3, type: 'a', nodeId: 'ol-1' },
                      content: [
                        {
                          type: 'listItem',
                          attrs: { nodeId: 'li-2' },
                          content: [paragraph('p-4', [text('Bakers')])],
                        },
                      ],
                    },
                  ],
                },
              ],
            },
            { type: 'blockquote', attrs: { nodeId: 'q-1' }, content: [paragraph('p-5', [text('A quote.')])] },
            {
              type: 'codeBlock',
              attrs: { language: 'ts', nodeId: 'c-1' },
              content: [{ type: 'text', text: 'const a = 1;\nconst b = 2;' }],
            },
            { type: 'horizontalRule' },
            { type: 'heading', attrs: { level: 4, nodeId: 'h-2' }, content: [text('Competitors')] },
          ],
          true,
        ),
        subsection(4, '', [paragraph('p-6')]),
      ],
    ),
  );
}

/** Loads a tree in the ProseMirror schema, checks it, and gives back its JSON. */
export function checkedJson(doc: unknown): unknown {
  const node = getPlanwrightSchema().nodeFromJSON(doc);
  node.check();
  return node.toJSON();
}
