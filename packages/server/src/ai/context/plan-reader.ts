import { documentToMarkdown } from '@planwright/sdk/formats';
import type { BlockJson, DocumentJson, SectionJson, SubsectionJson } from '@planwright/sdk/model';

/** A subsection of the plan as the context engine reads it. */
export interface PlanSubsection {
  uuid: string;
  title: string;
  finalized: boolean;
  blocks: BlockJson[];
}

/** A section of the plan with its own blocks and its subsections, in document order. */
export interface PlanSection {
  uuid: string;
  title: string;
  blocks: BlockJson[];
  subsections: PlanSubsection[];
}

const NODE_ID = /^[A-Za-z0-9_-]{1,128}$/;

function headingText(content: ReadonlyArray<{ text?: unknown }> | undefined): string {
  return (content ?? [])
    .map((node) => (typeof node.text === 'string' ? node.text : ''))
    .join('')
    .trim();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function readSubsection(node: SubsectionJson): PlanSubsection {
  const children = Array.isArray(node.content) ? node.content : [];
  const heading = children[0]?.type === 'subsectionHeading' ? children[0] : undefined;
  const blocks = (heading ? children.slice(1) : children).filter(isObject) as BlockJson[];
  return {
    uuid: String(node.attrs?.uuid ?? '').toLowerCase(),
    title: headingText(heading?.content),
    finalized: node.attrs?.finalized === true,
    blocks,
  };
}

function readSection(node: SectionJson): PlanSection {
  const children = Array.isArray(node.content) ? node.content : [];
  const heading = children[0]?.type === 'sectionHeading' ? children[0] : undefined;
  const blocks: BlockJson[] = [];
  const subsections: PlanSubsection[] = [];
  for (const child of heading ? children.slice(1) : children) {
    if (!isObject(child)) continue;
    if (child.type === 'subsection') subsections.push(readSubsection(child));
    else blocks.push(child as BlockJson);
  }
  return {
    uuid: String(node.attrs?.uuid ?? '').toLowerCase(),
    title: headingText(heading?.content),
    blocks,
    subsections,
  };
}

/**
 * The sections and subsections of a normalised tree in one pass. Written for stored (normalised) trees;
 * anything it cannot read is skipped, never a throw.
 */
export function readPlan(doc: DocumentJson): PlanSection[] {
  const sections = Array.isArray(doc?.content) ? doc.content : [];
  return sections.filter((node) => isObject(node) && node.type === 'section').map(readSection);
}

/** The block's `nodeId` when it is a well-formed one (M11), else null. */
export function nodeIdOf(block: BlockJson): string | null {
  if (block.type === 'horizontalRule') return null;
  const id = block.attrs?.nodeId;
  return typeof id === 'string' && NODE_ID.test(id) ? id : null;
}

/** Blocks as the SDK's Markdown export writes them (F13–F22), without a heading. */
export function blocksToMarkdown(blocks: readonly BlockJson[]): string {
  if (blocks.length === 0) return '';
  // The exporter writes whole documents: a section with a blank title writes `#` first, removed here.
  const markdown = documentToMarkdown({
    type: 'doc',
    content: [
      {
        type: 'section',
        attrs: { uuid: '', blueprint_uuid: null, id: null, model: null },
        content: [{ type: 'sectionHeading', attrs: { level: 1 } }, ...blocks],
      },
    ],
  });
  return markdown.replace(/^#(?:\n\n|\n|$)/, '').replace(/\n$/, '');
}

function collectText(node: unknown, out: string[], state: { length: number }, maxChars: number): void {
  if (state.length >= maxChars || !isObject(node)) return;
  if (node.type === 'text' && typeof node.text === 'string') {
    out.push(node.text);
    state.length += node.text.length;
    return;
  }
  if (node.type === 'hardBreak') {
    out.push(' ');
    return;
  }
  if (!Array.isArray(node.content)) return;
  for (const child of node.content) collectText(child, out, state, maxChars);
  // Blocks read as separate sentences.
  out.push(' ');
}

/**
 * About the first `maxChars` characters of plain text of a section (its blocks, then each subsection's
 * title and blocks), whitespace collapsed. Stops walking once it has enough, so big sections cost little.
 */
export function sectionPlainText(section: PlanSection, maxChars: number): string {
  const out: string[] = [];
  const state = { length: 0 };
  for (const block of section.blocks) collectText(block, out, state, maxChars);
  for (const subsection of section.subsections) {
    if (state.length >= maxChars) break;
    if (subsection.title !== '') {
      out.push(` ${subsection.title}: `);
      state.length += subsection.title.length + 3;
    }
    for (const block of subsection.blocks) collectText(block, out, state, maxChars);
  }
  return out.join('').replace(/\s+/g, ' ').trim().slice(0, maxChars);
}
