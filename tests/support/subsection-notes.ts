import type { DocumentJson } from '@planwright/sdk/model';

/** Notes a founder jotted down, which the offline assistant turns into bullet points (its edits use only them). */
export const FOUNDER_NOTES = 'Bakery in Berlin. Three staff. Opening in May 2025.';

/** What the offline assistant is asked to make a proposal of the notes (server AP32). */
export const BULLET_POINTS_REQUEST = 'Turn these notes into bullet points';

/**
 * `content` with `notes` added to a subsection as one paragraph: the offline assistant proposes edits built only
 * from the user's own text, so a test that needs a proposal gives it some.
 */
export function contentWithNotes(content: unknown, subsectionUuid: string, notes: string): DocumentJson {
  const copy = structuredClone(content) as DocumentJson;
  const subsection = copy.content
    .flatMap((section) => section.content)
    .find((node) => node.type === 'subsection' && node.attrs?.uuid === subsectionUuid);
  if (subsection?.type !== 'subsection') throw new Error('no such subsection');
  (subsection.content as unknown[]).push({ type: 'paragraph', content: [{ type: 'text', text: notes }] });
  return copy;
}
