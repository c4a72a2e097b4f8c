import { UNTITLED_SECTION, UNTITLED_SUBSECTION } from './document-json.js';
import { childrenOf, ownField, titleOf } from './node-text.js';

/** One subsection of the outline. */
export interface OutlineSubsection {
  uuid: string;
  blueprintUuid: string | null;
  /** The heading's text, trimmed; `''` when blank. */
  title: string;
  /** `title`, or "Untitled Subsection" when blank. */
  displayTitle: string;
  /** 1-based position inside its section. */
  order: number;
  finalized: boolean;
}

/** One section of the outline, with its subsections. */
export interface OutlineSection {
  uuid: string;
  blueprintUuid: string | null;
  title: string;
  /** `title`, or "Untitled Section" when blank. */
  displayTitle: string;
  /** 1-based position in the document. */
  order: number;
  subsections: OutlineSubsection[];
}

/** The sections and subsections of a document, in order (the sidebar, the server's rows). */
export interface DocumentOutline {
  sections: OutlineSection[];
}

function uuidAttr(node: unknown, name: 'uuid' | 'blueprint_uuid'): string | null {
  const value = ownField(ownField(node, 'attrs'), name);
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The outline of a content tree (model/SPEC.md M20–M22): each section with its title, display title and
 * 1-based order, and its subsections likewise with `finalized`. A pure walk over the JSON: it reads a
 * normalised `DocumentJson`, and tolerates anything else by skipping what it cannot read.
 */
export function outlineOf(doc: unknown): DocumentOutline {
  const sections: OutlineSection[] = [];
  let sectionOrder = 0;
  for (const section of childrenOf(doc)) {
    if (ownField(section, 'type') !== 'section') continue;
    sectionOrder += 1;
    const uuid = uuidAttr(section, 'uuid');
    if (uuid === null) continue;
    const subsections: OutlineSubsection[] = [];
    let subsectionOrder = 0;
    for (const subsection of childrenOf(section)) {
      if (ownField(subsection, 'type') !== 'subsection') continue;
      subsectionOrder += 1;
      const subsectionUuid = uuidAttr(subsection, 'uuid');
      if (subsectionUuid === null) continue;
      const title = titleOf(subsection, 'subsectionHeading');
      subsections.push({
        uuid: subsectionUuid,
        blueprintUuid: uuidAttr(subsection, 'blueprint_uuid'),
        title,
        displayTitle: title === '' ? UNTITLED_SUBSECTION : title,
        order: subsectionOrder,
        finalized: ownField(ownField(subsection, 'attrs'), 'finalized') === true,
      });
    }
    const title = titleOf(section, 'sectionHeading');
    sections.push({
      uuid,
      blueprintUuid: uuidAttr(section, 'blueprint_uuid'),
      title,
      displayTitle: title === '' ? UNTITLED_SECTION : title,
      order: sectionOrder,
      subsections,
    });
  }
  return { sections };
}
