import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  type BlockJson,
  type DocumentJson,
  type InlineJson,
  type ListItemJson,
  normalizeDocument,
  type SectionJson,
} from '@planwright/sdk/model';
import { ensureSystemPackage, LIBREOFFICE, POPPLER } from '../../../../tests/support/system-packages.mjs';
import { readCorpusFile } from '../support/corpus.js';
import {
  countingIds,
  documentOf,
  link,
  paragraph,
  section,
  subsection,
  text,
} from '../support/model-documents.js';

/**
 * Documents and tool runners shared by the .docx and PDF export tests: a business plan with the default
 * blueprint's sections and subsections (packages/server/src/blueprints/default-blueprint.ts) and every
 * kind of block, and one made of the Big List of Naughty Strings.
 */

const run = promisify(execFile);
const systemPackages = { LIBREOFFICE, POPPLER };

/** The Debian packages the export tests need. */
export type ExportTool = 'LIBREOFFICE' | 'POPPLER';

/** Installs (or demands) the system packages a test needs with the repository's `ensureSystemPackage`. */
export async function ensureExportTools(...tools: ExportTool[]): Promise<void> {
  for (const tool of tools) ensureSystemPackage(systemPackages[tool]);
}

/** Runs a system program with a time limit and returns its standard output. */
export async function runTool(file: string, args: readonly string[], timeoutMs = 120_000): Promise<string> {
  const { stdout } = await run(file, [...args], { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** The pages of a PDF as `pdftotext -layout` reads them (split on form feeds; the empty tail dropped). */
export async function pdfPages(path: string): Promise<string[]> {
  const text = await runTool('pdftotext', ['-layout', '-enc', 'UTF-8', path, '-']);
  const pages = text.split('\f');
  if (pages.at(-1)?.trim() === '') pages.pop();
  return pages;
}

/** `pdfinfo`'s page count. */
export async function pdfPageCount(path: string): Promise<number> {
  const info = await runTool('pdfinfo', [path]);
  const match = /^Pages:\s+(\d+)/m.exec(info);
  if (!match?.[1]) throw new Error(`pdfinfo gave no page count:\n${info}`);
  return Number(match[1]);
}

/** Whitespace folded to single spaces, so wrapped lines compare with the text they came from. */
export function folded(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

const DEFAULT_BLUEPRINT: readonly [string, readonly string[]][] = [
  [
    'Executive Summary',
    [
      'Company and Mission',
      'Problem and Solution',
      'Market and Traction',
      'Financial Highlights and Funding Ask',
    ],
  ],
  ['Company Overview', ['Mission and Vision', 'Legal Structure and Ownership', 'History and Current Status']],
  [
    'Market Analysis',
    [
      'Industry Overview',
      'Target Market and Market Size',
      'Customer Segments and Needs',
      'Competitive Landscape',
    ],
  ],
  [
    'Products and Services',
    [
      'Product Description',
      'Value Proposition and Differentiation',
      'Development Stage and Roadmap',
      'Intellectual Property and Regulation',
    ],
  ],
  [
    'Marketing and Sales',
    ['Positioning and Pricing', 'Channels and Customer Acquisition', 'Sales Process and Retention'],
  ],
  [
    'Operations',
    [
      'Operating Model and Facilities',
      'Suppliers and Key Resources',
      'Milestones and Timeline',
      'Key Risks and Mitigation',
    ],
  ],
  ['Management Team', ['Founders and Key Team Members', 'Advisors and Board', 'Hiring Plan']],
  [
    'Financial Plan',
    [
      'Key Assumptions',
      'Revenue Projections',
      'Costs, Margins and Break-even',
      'Cash Flow and Funding Needs',
    ],
  ],
  ['Funding Request', ['Amount and Terms', 'Use of Funds', 'Investor Returns and Exit']],
];

/** One heading or paragraph text of the plan, with the level it is exported at. */
export interface PlanOutlineEntry {
  level: 1 | 2 | 3 | 4;
  text: string;
}

let nodeCounter = 0;
const nodeId = (prefix: string) => `${prefix}-${++nodeCounter}`;

function item(content: InlineJson[], nested: BlockJson[] = []): ListItemJson {
  return {
    type: 'listItem',
    attrs: { nodeId: nodeId('li') },
    content: [paragraph(nodeId('p'), content), ...nested],
  };
}

/** The blocks of one subsection: every block type and mark, with texts unique to the subsection. */
function subsectionBlocks(key: string, variant: number): BlockJson[] {
  const blocks: BlockJson[] = [
    paragraph(nodeId('p'), [
      text(`The ${key} plan is `),
      text('bold', [{ type: 'bold' }]),
      text(', '),
      text('italic', [{ type: 'italic' }]),
      text(', '),
      text('underlined', [{ type: 'underline' }]),
      text(', '),
      text('struck', [{ type: 'strike' }]),
      text(' and has '),
      text('inline code', [{ type: 'code' }]),
      text(' with a '),
      text(`link about ${key}`, [link(`https://example.com/${variant}`)]),
      text('.'),
    ]),
    paragraph(
      nodeId('p'),
      [text(`An indented note on ${key}.`), { type: 'hardBreak' }, text('After a hard break.')],
      1,
    ),
  ];
  if (variant % 3 === 0) {
    blocks.push(
      { type: 'heading', attrs: { level: 3, nodeId: nodeId('h') }, content: [text(`Details of ${key}`)] },
      {
        type: 'bulletList',
        attrs: { nodeId: nodeId('ul') },
        content: [
          item(
            [text(`First point on ${key}`)],
            [
              {
                type: 'bulletList',
                attrs: { nodeId: nodeId('ul') },
                content: [item([text(`Nested point on ${key}`)])],
              },
            ],
          ),
          item([text(`Second point on ${key}`)]),
        ],
      },
      { type: 'heading', attrs: { level: 4, nodeId: nodeId('h') }, content: [text(`Figures for ${key}`)] },
      {
        type: 'orderedList',
        attrs: { start: 3, type: null, nodeId: nodeId('ol') },
        content: [item([text(`Third step of ${key}`)]), item([text(`Fourth step of ${key}`)])],
      },
    );
  }
  if (variant % 3 === 1) {
    blocks.push(
      {
        type: 'blockquote',
        attrs: { nodeId: nodeId('q') },
        content: [paragraph(nodeId('p'), [text(`A customer said ${key} matters.`)])],
      },
      {
        type: 'codeBlock',
        attrs: { language: 'ts', nodeId: nodeId('c') },
        content: [{ type: 'text', text: `const plan = '${variant}';\n  return plan;` }],
      },
      { type: 'horizontalRule' },
    );
  }
  return blocks;
}

/** The default blueprint's structure filled with realistic blocks; one subsection finalized. */
export function planDocument(): DocumentJson {
  let id = 0;
  let variant = 0;
  const sections: SectionJson[] = DEFAULT_BLUEPRINT.map(([title, subsectionTitles]) =>
    section(
      ++id,
      title,
      [paragraph(nodeId('p'), [text(`Introduction to ${title}.`)])],
      subsectionTitles.map((subsectionTitle) =>
        subsection(++id, subsectionTitle, subsectionBlocks(subsectionTitle, variant++), variant === 2),
      ),
    ),
  );
  return documentOf(...sections);
}

/** The headings of a document in order, at the level they are exported at (1 section … 4). */
export function headingOutline(document: DocumentJson): PlanOutlineEntry[] {
  const entries: PlanOutlineEntry[] = [];
  const inline = (content: readonly InlineJson[] | undefined) =>
    (content ?? []).map((child) => (child.type === 'text' ? child.text : '')).join('');
  const blocks = (list: readonly BlockJson[]) => {
    for (const block of list) {
      if (block.type === 'heading') entries.push({ level: block.attrs.level, text: inline(block.content) });
    }
  };
  for (const sectionNode of document.content) {
    entries.push({ level: 1, text: inline(sectionNode.content[0].content) });
    for (const child of sectionNode.content.slice(1)) {
      if (child.type === 'subsection') {
        entries.push({ level: 2, text: inline(child.content[0].content) });
        blocks(child.content.slice(1) as BlockJson[]);
      } else if (child.type !== 'sectionHeading') {
        blocks([child]);
      }
    }
  }
  return entries;
}

/** Every paragraph's text (hard breaks as spaces), in order, nested ones included. */
export function paragraphTexts(document: DocumentJson): string[] {
  const texts: string[] = [];
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    const record = node as { type?: unknown; content?: unknown };
    if (record.type === 'paragraph' && Array.isArray(record.content)) {
      texts.push(
        (record.content as InlineJson[]).map((child) => (child.type === 'text' ? child.text : ' ')).join(''),
      );
      return;
    }
    if (Array.isArray(record.content)) for (const child of record.content) visit(child);
  };
  visit(document);
  return texts;
}

/** The Big List of Naughty Strings, without the empty one. */
export function naughtyStrings(): string[] {
  const list: unknown = JSON.parse(readCorpusFile('hostile-strings/blns.json'));
  if (!Array.isArray(list)) throw new Error('blns.json is not a list');
  return list.filter((value): value is string => typeof value === 'string' && value !== '');
}

/**
 * A document made of the naughty strings: each section titled with one of them (printable ASCII ones, so
 * the outline can be compared exactly) and holding a slice of all of them as paragraphs, list items,
 * code and link texts.
 */
export function hostileDocument(): { document: DocumentJson; titles: string[] } {
  const strings = naughtyStrings();
  const titles = strings.filter((value) => /^[\x21-\x7e][\x20-\x7e]*[\x21-\x7e]$/.test(value)).slice(0, 12);
  const sliceSize = Math.ceil(strings.length / titles.length);
  const sections = titles.map((title, index) => {
    const slice = strings.slice(index * sliceSize, (index + 1) * sliceSize);
    const blocks: BlockJson[] = slice.map((value, offset) =>
      offset % 5 === 0
        ? paragraph(nodeId('p'), [text(value, [link(`https://example.com/${offset}`), { type: 'bold' }])])
        : offset % 5 === 1
          ? {
              type: 'codeBlock',
              attrs: { language: null, nodeId: nodeId('c') },
              content: [{ type: 'text', text: value }],
            }
          : offset % 5 === 2
            ? { type: 'bulletList', attrs: { nodeId: nodeId('ul') }, content: [item([text(value)])] }
            : paragraph(nodeId('p'), [text(value)]),
    );
    return section(500 + index, title, blocks, [subsection(600 + index, slice[0] ?? 'x', [])]);
  });
  // Exports take normalised documents; normalising is what every import and the editor do first.
  const normalized = normalizeDocument(documentOf(...sections), { generateId: countingIds() });
  if (!normalized.ok) throw new Error(`The naughty document does not normalise: ${normalized.error.message}`);
  return { document: normalized.doc, titles };
}

/** Links the editor holds that an exported file must not link (M14): UNC, host-relative, file:, a relative file, tel:. */
export const NON_EXPORTABLE_HREFS = [
  '\\\\host\\share\\x.docx',
  '//host/share/x.docx',
  'file:///C:/x.docx',
  'x.docx',
  'tel:+44123',
] as const;

/** One section: a paragraph "hostile N" linking each of `hrefs`, then one linking a mailto address, then `extra`. */
export function linksDocument(hrefs: readonly string[], extra: BlockJson[] = []): DocumentJson {
  return documentOf(
    section(1, 'Links', [
      ...hrefs.map((href, index) => paragraph(`p-${index}`, [text(`hostile ${index}`, [link(href)])])),
      paragraph('p-mail', [text('mail', [link('mailto:ada@example.com')])]),
      ...extra,
    ]),
  );
}
