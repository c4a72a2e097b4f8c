import { type LiveDocument, type LiveDocumentSnapshot, readLiveContent } from '@planwright/sdk/live';
import type { DocumentJson, ParagraphJson } from '@planwright/sdk/model';
import type * as Y from 'yjs';

/**
 * What the live-plan tests (live-documents, live-scale-out, live-faults) do with replicas: wait on a
 * `LiveDocument`'s snapshot or on a replica's content, and find and read paragraphs in a content tree.
 */

/** Resolves with the first snapshot of `live` that satisfies `ready`. */
export function settled(
  live: LiveDocument,
  ready: (snapshot: LiveDocumentSnapshot) => boolean,
): Promise<LiveDocumentSnapshot> {
  return new Promise((resolve) => {
    const check = () => {
      const snapshot = live.getSnapshot();
      if (ready(snapshot)) {
        stop();
        resolve(snapshot);
      }
    };
    const stop = live.subscribe(check);
    check();
  });
}

/** Resolves when the replica's content satisfies `ready` (checked on every change it takes in). */
export function untilContent(ydoc: Y.Doc, ready: (document: DocumentJson) => boolean): Promise<DocumentJson> {
  return new Promise((resolve) => {
    const check = () => {
      const { document } = readLiveContent(ydoc);
      if (ready(document)) {
        ydoc.off('update', check);
        resolve(document);
      }
    };
    ydoc.on('update', check);
    check();
  });
}

/** The first paragraph of the plan's first subsection. */
export function firstSubsectionParagraph(document: DocumentJson): ParagraphJson {
  for (const section of document.content) {
    for (const child of section.content) {
      if (child.type !== 'subsection') continue;
      const paragraph = child.content.find((block) => block.type === 'paragraph');
      if (paragraph?.type === 'paragraph') return paragraph;
    }
  }
  throw new Error('no paragraph in a subsection');
}

/** The text of a block (its text nodes joined). */
export const blockText = (node: object): string =>
  ((node as { content?: ReadonlyArray<{ text?: unknown }> }).content ?? [])
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');

/** A copy of `content` with its first section renamed `title` (what a script's REST write does here). */
export function withFirstSectionTitle(content: DocumentJson, title: string): DocumentJson {
  const copy = structuredClone(content);
  const heading = copy.content[0]?.content[0];
  if (heading?.type !== 'sectionHeading') throw new Error('no section heading');
  heading.content = [{ type: 'text', text: title }];
  return copy;
}
