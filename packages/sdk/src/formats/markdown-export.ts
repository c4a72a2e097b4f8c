import type {
  BlockJson,
  CodeBlockJson,
  DocumentJson,
  ListItemJson,
  OrderedListJson,
  PlainTextJson,
  SectionJson,
  SubsectionJson,
} from '../model/document-json.js';
import { escapeText, inlineMarkdown, protectLines } from './markdown-inline.js';

/** Highest ordered-list number CommonMark reads (nine digits). */
const MAX_LIST_NUMBER = 999_999_999;

/** Markers of lists written one after another, alternated so CommonMark keeps them apart (F19). */
interface ListMarkers {
  bullet: '-' | '*';
  ordered: '.' | ')';
}

function titleMarkdown(prefix: '#' | '##', content: readonly PlainTextJson[] | undefined): string {
  const text = (content ?? []).map((node) => (typeof node.text === 'string' ? node.text : '')).join('');
  const escaped = protectLines(escapeText(text), false);
  return escaped === '' ? prefix : `${prefix} ${escaped}`;
}

function codeBlockMarkdown(node: CodeBlockJson): string {
  const text = (node.content ?? [])
    .map((child) => (typeof child.text === 'string' ? child.text : ''))
    .join('');
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const body = text === '' ? '' : `${text}\n`;
  const language = node.attrs?.language;
  return `${fence}${typeof language === 'string' ? language.replace(/[\s`]/g, '') : ''}\n${body}${fence}`;
}

/** Prefixes every line but the first with `rest`, the first with `first`; blank lines stay blank. */
function prefixLines(text: string, first: string, rest: string): string {
  const lines = text.split('\n');
  return lines
    .map((line, index) => {
      const prefix = index === 0 ? first : rest;
      return line === '' ? prefix.trimEnd() : prefix + line;
    })
    .join('\n');
}

function listItemMarkdown(item: ListItemJson, marker: string): string {
  const body = blocksMarkdown(item.content ?? [], true);
  if (body === '') return marker;
  const indent = ' '.repeat(marker.length + 1);
  // A thematic break right after a `-` or `*` marker would read as one longer break.
  const safe = body === '---' || body.startsWith('---\n') ? `___${body.slice(3)}` : body;
  return prefixLines(safe, `${marker} `, indent);
}

function orderedNumber(list: OrderedListJson, index: number): number {
  const raw = list.attrs?.start;
  const start =
    typeof raw === 'number' && Number.isFinite(raw)
      ? Math.min(MAX_LIST_NUMBER, Math.max(0, Math.trunc(raw)))
      : 1;
  return start + index > MAX_LIST_NUMBER ? start : start + index;
}

/**
 * A paragraph with no text, or nothing but white space and line breaks, has no Markdown form (F16): a
 * space-only one would be written as a `&#32;` line that nobody wrote.
 */
function isBlankParagraph(block: BlockJson): boolean {
  return (
    block.type === 'paragraph' &&
    (block.content ?? []).every(
      (node) => node.type === 'hardBreak' || (node.type === 'text' && /^\s*$/.test(node.text)),
    )
  );
}

function blockMarkdown(block: BlockJson, markers: ListMarkers): string {
  switch (block.type) {
    case 'paragraph':
      return isBlankParagraph(block) ? '' : inlineMarkdown(block.content, false);
    case 'heading': {
      const prefix = block.attrs?.level === 4 ? '####' : '###';
      const text = inlineMarkdown(block.content, true);
      return text === '' ? prefix : `${prefix} ${text}`;
    }
    case 'bulletList':
      return (block.content ?? []).map((item) => listItemMarkdown(item, markers.bullet)).join('\n');
    case 'orderedList':
      return (block.content ?? [])
        .map((item, index) => listItemMarkdown(item, `${orderedNumber(block, index)}${markers.ordered}`))
        .join('\n');
    case 'blockquote': {
      const body = blocksMarkdown(block.content ?? []);
      return body === '' ? '>' : prefixLines(body, '> ', '> ');
    }
    case 'codeBlock':
      return codeBlockMarkdown(block);
    case 'horizontalRule':
      return '---';
    default:
      return '';
  }
}

/**
 * @internal Body blocks as Markdown (also what a proposal review shows).
 * Blocks separated by blank lines; empty ones left out; lists of one kind in a row alternate markers.
 * In a list item (`tight`), a list right after a paragraph follows on the next line, as people write
 * nested lists, when CommonMark lets it interrupt the paragraph (a non-empty first item; numbered from 1).
 */
export function blocksMarkdown(blocks: readonly BlockJson[], tight = false): string {
  let out = '';
  const markers: ListMarkers = { bullet: '-', ordered: '.' };
  let previous: string | undefined;
  for (const block of blocks) {
    if (isBlankParagraph(block)) continue;
    if (block.type === previous && block.type === 'bulletList') {
      markers.bullet = markers.bullet === '-' ? '*' : '-';
    } else if (block.type === previous && block.type === 'orderedList') {
      markers.ordered = markers.ordered === '.' ? ')' : '.';
    } else if (block.type !== previous) {
      markers.bullet = '-';
      markers.ordered = '.';
    }
    const text = blockMarkdown(block, markers);
    if (previous !== undefined) {
      const interrupts = tight && previous === 'paragraph' && /^(?:[-*]|1[.)]) \S/.test(text);
      out += interrupts ? '\n' : '\n\n';
    }
    out += text;
    previous = block.type;
  }
  return out;
}

/** One section: `# title`, its blocks, then `## title` and blocks for each subsection. */
function sectionMarkdown(section: SectionJson): string {
  const children = section.content ?? [];
  const heading = children[0]?.type === 'sectionHeading' ? children[0] : undefined;
  const rest = (heading === undefined ? children : children.slice(1)) as (BlockJson | SubsectionJson)[];
  const parts = [titleMarkdown('#', heading?.content)];
  const blocks: BlockJson[] = [];
  const flush = () => {
    const text = blocksMarkdown(blocks);
    if (text !== '') parts.push(text);
    blocks.length = 0;
  };
  for (const child of rest) {
    if (child.type !== 'subsection') {
      blocks.push(child);
      continue;
    }
    flush();
    const subchildren = child.content ?? [];
    const subheading = subchildren[0]?.type === 'subsectionHeading' ? subchildren[0] : undefined;
    const subblocks = (subheading === undefined ? subchildren : subchildren.slice(1)) as BlockJson[];
    parts.push(titleMarkdown('##', subheading?.content));
    const text = blocksMarkdown(subblocks);
    if (text !== '') parts.push(text);
  }
  flush();
  return parts.join('\n\n');
}

/**
 * Writes a document as CommonMark (spec 001 §5, `formats/SPEC.md` F13–F22): section titles as `#`,
 * subsection titles as `##`, headings as `###`/`####`, lists, quotes, fenced code, `---`, hard breaks,
 * links with titles; underline as `<u>…</u>`. Reading the result back with `markdownToDocument` gives
 * the same Markdown again. Each section is written on its own and the parts joined once, so the time
 * grows linearly with the document. Not written: the finalized state, paragraph indent, list `type`,
 * link target and rel, and empty paragraphs.
 */
export function documentToMarkdown(document: DocumentJson): string {
  const parts: string[] = [];
  // Written for normalised documents; a tree that skipped normalisation loses what it misplaced, never throws.
  for (const section of document.content ?? []) parts.push(sectionMarkdown(section));
  return `${parts.join('\n\n')}\n`;
}
