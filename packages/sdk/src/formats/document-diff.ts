import { diffWordsWithSpace } from 'diff';
import type { BlockJson, DocumentJson, SectionJson, SubsectionJson } from '../model/document-json.js';
import { blocksMarkdown } from './markdown-export.js';

/** What became of a section or subsection between two versions of a plan. */
export type PartStatus = 'added' | 'removed' | 'changed' | 'unchanged';

/** One run of a word diff: text kept, added or removed. */
export interface WordChange {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** A section's or subsection's text (its blocks as Markdown), compared word by word. */
export interface TextDiff {
  /** Runs in reading order; `null` when the text did not change. */
  words: WordChange[] | null;
}

/** A subsection between two versions, matched by its uuid. */
export interface SubsectionDiff extends TextDiff {
  uuid: string;
  status: PartStatus;
  /** The title before (`null` when added) and after (`null` when removed). */
  title: { from: string | null; to: string | null };
  renamed: boolean;
  /** Now in another section, or in another place among the subsections both versions have. */
  moved: boolean;
  /** Finalized before and after (`null` where it did not exist). */
  finalized: { from: boolean | null; to: boolean | null };
}

/** A section between two versions, matched by its uuid. */
export interface SectionDiff extends TextDiff {
  uuid: string;
  status: PartStatus;
  title: { from: string | null; to: string | null };
  renamed: boolean;
  moved: boolean;
  subsections: SubsectionDiff[];
}

/** What changed between two versions of a plan, section by section (docs/versions.md "Comparing"). */
export interface DocumentDiff {
  sections: SectionDiff[];
  /** How many subsections were added, removed, changed (text, title, place or finalized state). */
  summary: { added: number; removed: number; changed: number; unchanged: number };
}

interface Part<N> {
  node: N;
  index: number;
  title: string;
  text: string;
}

function titleOf(node: SectionJson | SubsectionJson): string {
  return (node.content[0]?.content ?? []).map((leaf) => leaf.text).join('');
}

function sectionBlocks(section: SectionJson): BlockJson[] {
  return section.content.slice(1).filter((node): node is BlockJson => node.type !== 'subsection');
}

function subsectionsOf(section: SectionJson): SubsectionJson[] {
  return section.content.filter((node): node is SubsectionJson => node.type === 'subsection');
}

function keyed<N extends SectionJson | SubsectionJson>(
  nodes: readonly N[],
  blocks: (node: N) => readonly BlockJson[],
) {
  const parts = new Map<string, Part<N>>();
  nodes.forEach((node, index) => {
    parts.set(node.attrs.uuid, { node, index, title: titleOf(node), text: blocksMarkdown(blocks(node)) });
  });
  return parts;
}

/** The word diff of two texts; `null` when they are the same. */
function wordsBetween(from: string, to: string): WordChange[] | null {
  if (from === to) return null;
  return diffWordsWithSpace(from, to).map((change) => ({
    kind: change.added ? 'added' : change.removed ? 'removed' : 'same',
    text: change.value,
  }));
}

/** Whether a part kept by both sides sits elsewhere among the parts both sides have (order of the common ones). */
function movedAmongCommon<N>(from: Map<string, Part<N>>, to: Map<string, Part<N>>): Set<string> {
  const common = [...from.keys()].filter((uuid) => to.has(uuid));
  const before = common;
  const after = [...common].sort((a, b) => (to.get(a)?.index ?? 0) - (to.get(b)?.index ?? 0));
  // The longest run kept in order stays; the others moved (a single move reads as one, not as many).
  const kept = longestIncreasing(after.map((uuid) => before.indexOf(uuid)));
  const stayed = new Set(kept.map((index) => before[index] as string));
  return new Set(common.filter((uuid) => !stayed.has(uuid)));
}

/** The longest strictly increasing subsequence of `values` (patience sorting), as values. */
function longestIncreasing(values: readonly number[]): number[] {
  const tails: number[] = [];
  const tailAt: number[] = [];
  const previous: number[] = new Array(values.length).fill(-1);
  values.forEach((value, index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((tails[middle] as number) < value) low = middle + 1;
      else high = middle;
    }
    tails[low] = value;
    tailAt[low] = index;
    previous[index] = low > 0 ? (tailAt[low - 1] as number) : -1;
  });
  const result: number[] = [];
  for (let index = tailAt[tails.length - 1] ?? -1; index >= 0; index = previous[index] as number) {
    result.unshift(values[index] as number);
  }
  return result;
}

/**
 * What changed from one version of a plan to another: sections and subsections matched by uuid (so a renamed
 * or moved part is that, not a removal and an addition), each one's text compared word by word, finalized
 * states compared. Parts are listed in the order of `to`, the removed ones after what preceded them in `from`.
 */
export function diffDocuments(from: DocumentJson, to: DocumentJson): DocumentDiff {
  const fromSections = keyed(from.content, sectionBlocks);
  const toSections = keyed(to.content, sectionBlocks);
  const movedSections = movedAmongCommon(fromSections, toSections);
  const fromSubsections = new Map<string, Part<SubsectionJson> & { section: string }>();
  for (const section of from.content) {
    for (const [uuid, part] of keyed(
      subsectionsOf(section),
      (node) => node.content.slice(1) as BlockJson[],
    )) {
      fromSubsections.set(uuid, { ...part, section: section.attrs.uuid });
    }
  }
  const summary = { added: 0, removed: 0, changed: 0, unchanged: 0 };

  const subsectionDiff = (
    uuid: string,
    before: (Part<SubsectionJson> & { section: string }) | undefined,
    after: Part<SubsectionJson> | undefined,
    moved: boolean,
  ): SubsectionDiff => {
    const words = wordsBetween(before?.text ?? '', after?.text ?? '');
    const renamed = before !== undefined && after !== undefined && before.title !== after.title;
    const finalized = {
      from: before ? before.node.attrs.finalized : null,
      to: after ? after.node.attrs.finalized : null,
    };
    const status: PartStatus = !before
      ? 'added'
      : !after
        ? 'removed'
        : words !== null || renamed || moved || finalized.from !== finalized.to
          ? 'changed'
          : 'unchanged';
    summary[status]++;
    return {
      uuid,
      status,
      title: { from: before?.title ?? null, to: after?.title ?? null },
      renamed,
      moved,
      finalized,
      words:
        status === 'added' || status === 'removed'
          ? wordsBetween(before?.text ?? '', after?.text ?? '')
          : words,
    };
  };

  const sectionDiff = (
    uuid: string,
    before: Part<SectionJson> | undefined,
    after: Part<SectionJson> | undefined,
  ) => {
    const beforeSubsections = before ? subsectionsOf(before.node) : [];
    const afterSubsections = after
      ? keyed(subsectionsOf(after.node), (node) => node.content.slice(1) as BlockJson[])
      : new Map();
    const movedHere = movedAmongCommon(
      new Map([...fromSubsections].filter(([, part]) => part.section === uuid)),
      afterSubsections,
    );
    const subsections: SubsectionDiff[] = [];
    for (const [subUuid, part] of afterSubsections as Map<string, Part<SubsectionJson>>) {
      const earlier = fromSubsections.get(subUuid);
      const moved = earlier !== undefined && (earlier.section !== uuid || movedHere.has(subUuid));
      subsections.push(subsectionDiff(subUuid, earlier, part, moved));
    }
    // The ones gone from the plan, listed where they were.
    for (const node of beforeSubsections) {
      const subUuid = node.attrs.uuid;
      if (toHasSubsection.has(subUuid)) continue;
      subsections.push(subsectionDiff(subUuid, fromSubsections.get(subUuid), undefined, false));
    }
    const words = wordsBetween(before?.text ?? '', after?.text ?? '');
    const renamed = before !== undefined && after !== undefined && before.title !== after.title;
    const moved = movedSections.has(uuid);
    const status: PartStatus = !before
      ? 'added'
      : !after
        ? 'removed'
        : words !== null || renamed || moved || subsections.some((part) => part.status !== 'unchanged')
          ? 'changed'
          : 'unchanged';
    return {
      uuid,
      status,
      title: { from: before?.title ?? null, to: after?.title ?? null },
      renamed,
      moved,
      words,
      subsections,
    } satisfies SectionDiff;
  };

  const toHasSubsection = new Set<string>();
  for (const section of to.content)
    for (const node of subsectionsOf(section)) toHasSubsection.add(node.attrs.uuid);

  const sections: SectionDiff[] = [];
  for (const [uuid, part] of toSections) sections.push(sectionDiff(uuid, fromSections.get(uuid), part));
  // A removed section goes after the section that preceded it in `from` (else first).
  for (const [uuid, part] of fromSections) {
    if (toSections.has(uuid)) continue;
    const previous = from.content[part.index - 1]?.attrs.uuid;
    const at = previous === undefined ? -1 : sections.findIndex((section) => section.uuid === previous);
    sections.splice(at + 1, 0, sectionDiff(uuid, part, undefined));
  }
  return { sections, summary };
}

/** Labels of the two sides, as a reader names them (`“Sent to bank, v3”`, `now`). */
export interface DiffLabels {
  from: string;
  to: string;
}

function criticMarkup(words: readonly WordChange[]): string {
  return words
    .map((run) =>
      run.kind === 'added' ? `{++${run.text}++}` : run.kind === 'removed' ? `{--${run.text}--}` : run.text,
    )
    .join('');
}

function notes(part: SectionDiff | SubsectionDiff): string[] {
  const said: string[] = [];
  if (part.renamed) said.push(`Renamed from “${part.title.from ?? ''}”.`);
  if (part.moved) said.push('Moved.');
  if ('finalized' in part && part.finalized.from !== null && part.finalized.to !== null) {
    if (!part.finalized.from && part.finalized.to) said.push('Finalized.');
    if (part.finalized.from && !part.finalized.to) said.push('No longer finalized.');
  }
  return said;
}

function partLines(level: '##' | '###', part: SectionDiff | SubsectionDiff): string[] {
  const title = part.title.to ?? part.title.from ?? '';
  const lines = [`${level} ${title}${part.status === 'changed' ? '' : ` (${part.status})`}`];
  const said = notes(part);
  if (said.length > 0) lines.push('', `_${said.join(' ')}_`);
  if (part.words) lines.push('', criticMarkup(part.words));
  return lines;
}

/**
 * A diff as Markdown for people (`planwright diff`, the web's export): the changed sections and subsections
 * only, each with what happened to it, and its text with additions as `{++…++}` and removals as `{--…--}`
 * (CriticMarkup, which Markdown tools that know tracked changes show as such).
 */
export function documentDiffToMarkdown(diff: DocumentDiff, labels: DiffLabels): string {
  const { added, removed, changed, unchanged } = diff.summary;
  const lines = [
    `# Changes from ${labels.from} to ${labels.to}`,
    '',
    `Subsections: ${changed} changed, ${added} added, ${removed} removed, ${unchanged} unchanged.`,
  ];
  for (const section of diff.sections) {
    if (section.status === 'unchanged') continue;
    lines.push('', ...partLines('##', section));
    for (const subsection of section.subsections) {
      if (subsection.status === 'unchanged') continue;
      lines.push('', ...partLines('###', subsection));
    }
  }
  if (diff.sections.every((section) => section.status === 'unchanged')) lines.push('', 'Nothing changed.');
  return `${lines.join('\n')}\n`;
}
