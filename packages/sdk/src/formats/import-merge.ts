import type {
  BlockJson,
  DocumentJson,
  SectionHeadingJson,
  SectionJson,
  SubsectionHeadingJson,
  SubsectionJson,
} from '../model/document-json.js';
import { sectionHeadingNode, subsectionHeadingNode } from '../model/node-builders.js';
import { titleOf } from '../model/node-text.js';

/** Spec 001 §4: what new sections and subsections brought in by a merge are titled with. */
export const IMPORTED_TITLE_PREFIX = '(Imported)';

/** How an imported document meets the current one (spec 001 §4). */
export type ImportMergeMode = 'merge' | 'replace';

/** Titles match when they read the same, ignoring case, surrounding and repeated spaces. */
function titleKey(title: string): string {
  return title.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('en');
}

function importedTitle(title: string): string {
  return title === '' ? IMPORTED_TITLE_PREFIX : `${IMPORTED_TITLE_PREFIX} ${title}`;
}

function bodyOf(section: SectionJson): { blocks: BlockJson[]; subsections: SubsectionJson[] } {
  const [, ...rest] = section.content;
  return {
    blocks: rest.filter((node): node is BlockJson => node.type !== 'subsection'),
    subsections: rest.filter((node): node is SubsectionJson => node.type === 'subsection'),
  };
}

function withSectionTitle(section: SectionJson, title: string): SectionJson {
  const heading: SectionHeadingJson = sectionHeadingNode(title);
  return { ...section, content: [heading, ...section.content.slice(1)] as SectionJson['content'] };
}

function withSubsectionTitle(subsection: SubsectionJson, title: string): SubsectionJson {
  const heading: SubsectionHeadingJson = subsectionHeadingNode(title);
  return { ...subsection, content: [heading, ...subsection.content.slice(1)] as SubsectionJson['content'] };
}

/** Groups by title key, in order; a repeated title is matched by its first holder only. */
function firstByTitle<T>(items: readonly T[], title: (item: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) {
    const key = titleKey(title(item));
    if (!map.has(key)) map.set(key, item);
  }
  return map;
}

const sectionTitle = (section: SectionJson) => titleOf(section, 'sectionHeading');
const subsectionTitle = (subsection: SubsectionJson) => titleOf(subsection, 'subsectionHeading');

/**
 * Merge (spec 001 §4; `src/formats/SPEC.md` F90–F95): an imported section whose title matches one of
 * the document's adds its blocks after that section's own blocks, and its subsections into it — into a
 * subsection of the same title (after its blocks) unless that one is finalized, else as a new one. What
 * matches nothing is added at the end (sections) or after the section's subsections, titled
 * "(Imported) …". Existing text is never changed or removed.
 */
function mergeInto(current: DocumentJson, imported: DocumentJson): DocumentJson {
  const sections = current.content.map((section) => ({ section, ...bodyOf(section) }));
  const byTitle = firstByTitle(sections, (entry) => sectionTitle(entry.section));
  const added: SectionJson[] = [];
  for (const incoming of imported.content) {
    const target = byTitle.get(titleKey(sectionTitle(incoming)));
    if (!target) {
      added.push(
        withSectionTitle(
          {
            ...incoming,
            content: [
              incoming.content[0],
              ...bodyOf(incoming).blocks,
              ...bodyOf(incoming).subsections.map((sub) =>
                withSubsectionTitle(sub, importedTitle(subsectionTitle(sub))),
              ),
            ] as SectionJson['content'],
          },
          importedTitle(sectionTitle(incoming)),
        ),
      );
      continue;
    }
    const body = bodyOf(incoming);
    target.blocks.push(...body.blocks);
    const subsByTitle = firstByTitle(target.subsections, subsectionTitle);
    for (const sub of body.subsections) {
      const match = subsByTitle.get(titleKey(subsectionTitle(sub)));
      if (match && match.attrs.finalized !== true) {
        const index = target.subsections.indexOf(match);
        const merged: SubsectionJson = {
          ...match,
          content: [...match.content, ...sub.content.slice(1)] as SubsectionJson['content'],
        };
        target.subsections[index] = merged;
        subsByTitle.set(titleKey(subsectionTitle(sub)), merged);
      } else {
        target.subsections.push(withSubsectionTitle(sub, importedTitle(subsectionTitle(sub))));
      }
    }
  }
  return {
    type: 'doc',
    content: [
      ...sections.map(
        ({ section, blocks, subsections }): SectionJson => ({
          ...section,
          content: [section.content[0], ...blocks, ...subsections] as SectionJson['content'],
        }),
      ),
      ...added,
    ],
  };
}

/**
 * Replace (spec 001 §4): the imported tree becomes the content, but a section (or a subsection inside a
 * kept section) whose title matches one of the document's keeps that one's uuid and blueprint link, so
 * its settings (developer prompt, hint, tool mode) stay with it.
 */
function replaceWith(current: DocumentJson, imported: DocumentJson): DocumentJson {
  const byTitle = firstByTitle(current.content, sectionTitle);
  const used = new Set<string>();
  return {
    type: 'doc',
    content: imported.content.map((incoming): SectionJson => {
      const match = byTitle.get(titleKey(sectionTitle(incoming)));
      if (!match || used.has(match.attrs.uuid)) return incoming;
      used.add(match.attrs.uuid);
      const subsByTitle = firstByTitle(bodyOf(match).subsections, subsectionTitle);
      const content = incoming.content.map((node) => {
        if (node.type !== 'subsection') return node;
        const sub = subsByTitle.get(titleKey(subsectionTitle(node)));
        if (!sub || used.has(sub.attrs.uuid)) return node;
        used.add(sub.attrs.uuid);
        return {
          ...node,
          attrs: { ...node.attrs, uuid: sub.attrs.uuid, blueprint_uuid: sub.attrs.blueprint_uuid },
        };
      });
      return {
        ...incoming,
        attrs: { ...incoming.attrs, uuid: match.attrs.uuid, blueprint_uuid: match.attrs.blueprint_uuid },
        content: content as SectionJson['content'],
      };
    }),
  };
}

/**
 * The document after importing `imported` into `current` (both normalised trees). The result is a loose
 * tree: normalise it before saving (ids made unique, structure checked). Neither input is changed.
 */
export function mergeImportedDocument(
  current: DocumentJson,
  imported: DocumentJson,
  mode: ImportMergeMode,
): DocumentJson {
  return mode === 'replace' ? replaceWith(current, imported) : mergeInto(current, imported);
}
