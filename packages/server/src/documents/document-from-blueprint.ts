import { randomUUID } from 'node:crypto';
import type { DocumentJson } from '@planwright/sdk/model';
import { normalizeContentInput } from '../structure/content-input.js';

/**
 * The content tree of a new document made from a blueprint's tree: the same sections, subsections
 * and text, each part under a fresh uuid with `blueprint_uuid` naming the blueprint part it came from
 * (so its settings can be copied), and nothing finalized.
 */
export function documentContentFromBlueprint(blueprintContent: unknown): DocumentJson {
  const blueprint = normalizeContentInput(blueprintContent);
  const doc: DocumentJson = {
    type: 'doc',
    content: blueprint.content.map((section) => ({
      ...section,
      attrs: { ...section.attrs, uuid: randomUUID(), blueprint_uuid: section.attrs.uuid },
      content: section.content.map((child) =>
        child.type === 'subsection'
          ? {
              ...child,
              attrs: {
                ...child.attrs,
                uuid: randomUUID(),
                blueprint_uuid: child.attrs.uuid,
                finalized: false,
              },
            }
          : child,
      ) as typeof section.content,
    })),
  };
  return normalizeContentInput(doc);
}
