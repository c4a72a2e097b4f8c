import type { BlockJson, DocumentJson } from './document-json.js';
import { DocumentStructureError } from './document-structure-error.js';
import { isUuid } from './model-ids.js';
import { paragraphNode, sectionHeadingNode, subsectionHeadingNode } from './node-builders.js';
import { type NormalizeOptions, normalizeDocument } from './normalize-document.js';

/** One subsection of a new document. */
export interface NewSubsectionContent {
  uuid: string;
  blueprintUuid?: string | null;
  title: string;
  /** Its blocks; one empty paragraph when left out. */
  content?: BlockJson[];
  finalized?: boolean;
}

/** One section of a new document. */
export interface NewSectionContent {
  uuid: string;
  blueprintUuid?: string | null;
  title: string;
  /** Its blocks before the subsections; one empty paragraph when left out and there are no subsections. */
  content?: BlockJson[];
  subsections: NewSubsectionContent[];
}

function checkedUuid(value: string, path: string, seen: Set<string>): string {
  if (!isUuid(value)) throw new DocumentStructureError({ path, problem: 'uuid must be a UUID' });
  const uuid = value.toLowerCase();
  if (seen.has(uuid)) throw new DocumentStructureError({ path, problem: 'uuid is used twice' });
  seen.add(uuid);
  return uuid;
}

function checkedBlueprintUuid(value: string | null | undefined, path: string): string | null {
  if (value === undefined || value === null) return null;
  if (!isUuid(value)) throw new DocumentStructureError({ path, problem: 'blueprintUuid must be a UUID' });
  return value.toLowerCase();
}

/**
 * Builds a normalised content tree from sections and subsections, as the server does for a new
 * document made from a blueprint (M39). Titles are trimmed. The uuids given are kept; a uuid that is
 * not a UUID or is used twice throws a `DocumentStructureError` whose `path` names the input
 * (`sections[1].subsections[0].uuid`). Blocks go through `normalizeDocument` (links checked, ids
 * assigned). No sections gives one untitled section (M7).
 */
export function createDocumentContent(
  sections: readonly NewSectionContent[],
  options: NormalizeOptions = {},
): DocumentJson {
  const seen = new Set<string>();
  const tree = {
    type: 'doc',
    content: sections.map((section, i) => {
      const path = `sections[${i}]`;
      const subsections = section.subsections.map((subsection, j) => {
        const subPath = `${path}.subsections[${j}]`;
        return {
          type: 'subsection',
          attrs: {
            uuid: checkedUuid(subsection.uuid, `${subPath}.uuid`, seen),
            blueprint_uuid: checkedBlueprintUuid(subsection.blueprintUuid, `${subPath}.blueprintUuid`),
            finalized: subsection.finalized === true,
          },
          content: [
            subsectionHeadingNode(subsection.title.trim()),
            ...(subsection.content ?? [paragraphNode()]),
          ],
        };
      });
      const blocks = section.content ?? (subsections.length === 0 ? [paragraphNode()] : []);
      return {
        type: 'section',
        attrs: {
          uuid: checkedUuid(section.uuid, `${path}.uuid`, seen),
          blueprint_uuid: checkedBlueprintUuid(section.blueprintUuid, `${path}.blueprintUuid`),
          id: null,
          model: null,
        },
        content: [sectionHeadingNode(section.title.trim()), ...blocks, ...subsections],
      };
    }),
  };
  const result = normalizeDocument(tree, options);
  if (!result.ok) throw result.error;
  return result.doc;
}
