import type { PlanwrightClient } from '@planwright/sdk';
import {
  LIVE_CONTENT_FIELD,
  type LiveDocument,
  type LiveDocumentSnapshot,
  readLiveContent,
} from '@planwright/sdk/live';
import type { DocumentJson, ParagraphJson } from '@planwright/sdk/model';
import * as Y from 'yjs';

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

/**
 * Resolves once `ready` holds for the document's snapshot; rejects after `deadlineMs` with `what`, the
 * snapshot and `context` (a seed to replay with).
 */
export function until(
  live: LiveDocument,
  ready: () => boolean,
  what: string,
  { deadlineMs = 30_000, context = '' }: { deadlineMs?: number; context?: string } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`timed out waiting for ${what}${context}: ${JSON.stringify(live.getSnapshot())}`));
    }, deadlineMs);
    const check = () => {
      if (!ready()) return;
      clearTimeout(timer);
      stop();
      resolve();
    };
    const stop = live.subscribe(check);
    check();
  });
}

/** Resolves once each named replica is connected, synced and has everything it made stored by the server. */
export async function allStored(
  replicas: Record<string, LiveDocument>,
  when: string,
  options: { deadlineMs?: number; context?: string } = {},
): Promise<void> {
  for (const [name, live] of Object.entries(replicas)) {
    await until(
      live,
      () => {
        const snapshot = live.getSnapshot();
        return snapshot.status === 'connected' && snapshot.synced && snapshot.saved;
      },
      `${name} stored ${when}`,
      options,
    );
  }
}

/** The `index`-th paragraph element of the replica's content (document order). */
export function paragraphElement(ydoc: Y.Doc, index: number): Y.XmlElement {
  const found = [
    ...ydoc
      .getXmlFragment(LIVE_CONTENT_FIELD)
      .createTreeWalker((node) => node instanceof Y.XmlElement && node.nodeName === 'paragraph'),
  ][index];
  if (!(found instanceof Y.XmlElement)) throw new Error(`no paragraph ${index} in the replica`);
  return found;
}

/** Types `text` at the end of the `index`-th paragraph, a transaction per character as an editor does. */
export function typeIntoParagraph(ydoc: Y.Doc, index: number, text: string): void {
  const target = paragraphElement(ydoc, index);
  for (const character of text) {
    ydoc.transact(() => {
      const existing = target.get(0);
      if (existing instanceof Y.XmlText) existing.insert(existing.length, character);
      else target.insert(0, [new Y.XmlText(character)]);
    });
  }
}

/** The texts of the stored plan's paragraphs, read over REST (which derives pending live changes first). */
export async function storedParagraphs(client: PlanwrightClient, documentId: string): Promise<string[]> {
  const detail = await client.documents.get(documentId);
  const texts: string[] = [];
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    const { type: kind, content } = node as { type?: unknown; content?: unknown };
    if (kind === 'paragraph') {
      texts.push(Array.isArray(content) ? blockText(node) : '');
      return;
    }
    if (Array.isArray(content)) for (const child of content) visit(child);
  };
  visit(detail.content);
  return texts;
}

/** A string's characters in order: two texts with the same characters typed in any interleaving match. */
export const sortedCharacters = (text: string): string => [...text].sort().join('');
