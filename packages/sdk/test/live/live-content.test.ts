import {
  createLiveContent,
  LIVE_CONTENT_FIELD,
  liveContentOf,
  needsRepair,
  readLiveContent,
  writeLiveContent,
} from '@planwright/sdk/live';
import {
  type DocumentJson,
  DocumentStructureError,
  type ParagraphJson,
  type SectionJson,
} from '@planwright/sdk/model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { documentArb } from '../formats/markdown-documents.js';
import {
  documentOf,
  paragraph,
  section,
  specDocument,
  subsection,
  text,
} from '../support/model-documents.js';

/** A replica of `ydoc` (another person's copy), made from its state like a fresh client gets it. */
function replicaOf(ydoc: Y.Doc): Y.Doc {
  const replica = new Y.Doc();
  Y.applyUpdate(replica, Y.encodeStateAsUpdate(ydoc));
  return replica;
}

/** Brings two replicas together both ways, as the sync protocol does. */
function exchange(a: Y.Doc, b: Y.Doc): void {
  const forB = Y.encodeStateAsUpdate(a, Y.encodeStateVector(b));
  const forA = Y.encodeStateAsUpdate(b, Y.encodeStateVector(a));
  Y.applyUpdate(b, forB);
  Y.applyUpdate(a, forA);
}

/** Ten subsections of three paragraphs each, every block with its own id and text. */
function planDocument(): DocumentJson {
  const sections: SectionJson[] = [1, 2].map((s) =>
    section(
      s,
      `Section ${s}`,
      [],
      [1, 2, 3, 4, 5].map((n) =>
        subsection(
          s * 10 + n,
          `Subsection ${s}.${n}`,
          [1, 2, 3].map((p) => paragraph(`p-${s}-${n}-${p}`, [text(`Text of ${s}.${n}.${p}, as typed.`)])),
        ),
      ),
    ),
  );
  return documentOf(...sections);
}

/** `document` with the text of the paragraph whose nodeId is `nodeId` replaced. */
function withParagraphText(document: DocumentJson, nodeId: string, value: string): DocumentJson {
  const copy = structuredClone(document);
  const visit = (node: { type: string; attrs?: unknown; content?: unknown[] }): boolean => {
    if (node.type === 'paragraph' && (node.attrs as { nodeId?: string } | undefined)?.nodeId === nodeId) {
      (node as ParagraphJson).content = [text(value)];
      return true;
    }
    return (node.content ?? []).some((child) => visit(child as { type: string; content?: unknown[] }));
  };
  if (!visit(copy)) throw new Error(`no paragraph ${nodeId}`);
  return copy;
}

/** The Y.XmlText of the paragraph whose nodeId is `nodeId`. */
function paragraphText(ydoc: Y.Doc, nodeId: string): Y.XmlText {
  for (const element of liveContentOf(ydoc).createTreeWalker(
    (node) => node instanceof Y.XmlElement && node.nodeName === 'paragraph',
  )) {
    if (element instanceof Y.XmlElement && element.getAttribute('nodeId') === nodeId) {
      const first = element.get(0);
      if (first instanceof Y.XmlText) return first;
    }
  }
  throw new Error(`no paragraph ${nodeId}`);
}

/**
 * `document` without marks on hard breaks: Yjs keeps marks on text only (y-tiptap stores them as text
 * formatting), and a hard break's marks show nothing (L1).
 */
function withoutHardBreakMarks(document: DocumentJson): DocumentJson {
  return JSON.parse(
    JSON.stringify(document, function (this: unknown, key, value: unknown) {
      const holder = this as { type?: unknown };
      return key === 'marks' && holder.type === 'hardBreak' ? undefined : value;
    }),
  ) as DocumentJson;
}

describe('live content (L1–L5)', () => {
  it('L1 the content lives in the fragment the editor binds to', () => {
    const ydoc = createLiveContent(specDocument());
    expect(ydoc.share.has(LIVE_CONTENT_FIELD)).toBe(true);
    expect(liveContentOf(ydoc).length).toBe(2);
  });

  it('L1 every node, mark and attribute survives a round trip through Yjs, and needs no repair', () => {
    const document = specDocument();
    const read = readLiveContent(createLiveContent(document));
    expect(read.document).toEqual(document);
    expect(needsRepair(read.report)).toBe(false);
  });

  it('L1 any normalised document reads back as itself (property)', () => {
    fc.assert(
      fc.property(documentArb, (document) => {
        const read = readLiveContent(createLiveContent(document));
        expect(read.document).toEqual(withoutHardBreakMarks(document));
        expect(needsRepair(read.report)).toBe(false);
      }),
      { numRuns: 150 },
    );
  });

  it('L2 writing the same document again changes nothing and sends nothing', () => {
    const document = planDocument();
    const ydoc = createLiveContent(document);
    const updates: Uint8Array[] = [];
    ydoc.on('update', (update: Uint8Array) => updates.push(update));
    expect(writeLiveContent(ydoc, structuredClone(document))).toBe(false);
    expect(updates).toEqual([]);
  });

  it('L2 a one-word change is written in place: a small update, with the origin given', () => {
    const document = planDocument();
    const ydoc = createLiveContent(document);
    const updates: Array<{ update: Uint8Array; origin: unknown }> = [];
    ydoc.on('update', (update: Uint8Array, origin: unknown) => updates.push({ update, origin }));
    const changed = withParagraphText(document, 'p-2-3-2', 'Text of 2.3.2, as edited.');
    expect(writeLiveContent(ydoc, changed, 'rest')).toBe(true);
    expect(updates).toHaveLength(1);
    expect(updates[0]?.origin).toBe('rest');
    // The whole plan is ~6 KB as an update; a word's change is a few dozen bytes.
    expect(updates[0]?.update.byteLength).toBeLessThan(120);
    expect(readLiveContent(ydoc).document).toEqual(changed);
  });

  it('L3 a REST write and someone typing elsewhere both survive the merge', () => {
    const document = planDocument();
    const server = createLiveContent(document);
    const person = replicaOf(server);
    // The person types into one paragraph while a REST client rewrites another.
    paragraphText(person, 'p-1-1-1').insert(0, 'Typed: ');
    const rest = withParagraphText(document, 'p-2-5-3', 'Rewritten by a script.');
    writeLiveContent(server, rest, 'rest');
    exchange(server, person);
    const expected = withParagraphText(rest, 'p-1-1-1', 'Typed: Text of 1.1.1, as typed.');
    expect(readLiveContent(server).document).toEqual(expected);
    expect(readLiveContent(person).document).toEqual(expected);
  });

  it('L3 a REST write of the same paragraph someone is typing in keeps their characters', () => {
    const document = planDocument();
    const server = createLiveContent(document);
    const person = replicaOf(server);
    // The person appends to the paragraph's end; the REST write changes its start.
    const typed = paragraphText(person, 'p-1-2-1');
    typed.insert(typed.length, ' More.');
    writeLiveContent(server, withParagraphText(document, 'p-1-2-1', 'Words of 1.2.1, as typed.'), 'rest');
    exchange(server, person);
    const merged = readLiveContent(person).document;
    expect(merged).toEqual(readLiveContent(server).document);
    expect(JSON.stringify(merged)).toContain('Words of 1.2.1, as typed. More.');
  });

  it('L3 structure changes from two replicas merge: a renamed section and an added subsection', () => {
    const document = planDocument();
    const a = createLiveContent(document);
    const b = replicaOf(a);
    const renamed = structuredClone(document);
    const first = renamed.content[0];
    if (first) first.content[0] = { type: 'sectionHeading', attrs: { level: 1 }, content: [text('Summary')] };
    writeLiveContent(a, renamed);
    const added = structuredClone(document);
    added.content[1]?.content.push(subsection(99, 'Added', [paragraph('p-new', [text('New text.')])]));
    writeLiveContent(b, added);
    exchange(a, b);
    const merged = readLiveContent(a).document;
    expect(readLiveContent(b).document).toEqual(merged);
    expect(merged.content[0]?.content[0]).toEqual({
      type: 'sectionHeading',
      attrs: { level: 1 },
      content: [text('Summary')],
    });
    expect(merged.content[1]?.content.at(-1)).toEqual(added.content[1]?.content.at(-1));
  });

  it('L4 a state that is not canonical reads as the repaired tree and says so; writing it back settles it', () => {
    const ydoc = createLiveContent(planDocument());
    // Two paragraphs with one id, as a client that skipped the id plugin could send.
    paragraphText(ydoc, 'p-1-1-2').parent instanceof Y.XmlElement &&
      (paragraphText(ydoc, 'p-1-1-2').parent as Y.XmlElement).setAttribute('nodeId', 'p-1-1-1');
    const read = readLiveContent(ydoc, { generateId: () => 'fresh-id' });
    expect(read.report.assignedNodeIds).toBe(1);
    expect(needsRepair(read.report)).toBe(true);
    writeLiveContent(ydoc, read.document, 'repair');
    const again = readLiveContent(ydoc);
    expect(needsRepair(again.report)).toBe(false);
    expect(again.document).toEqual(read.document);
  });

  it('L4 an empty state reads as one untitled section', () => {
    const read = readLiveContent(new Y.Doc(), { generateId: () => '4a1c3c55-5d55-4b1e-9a55-111111111111' });
    expect(read.document.content).toHaveLength(1);
    expect(read.document.content[0]?.type).toBe('section');
  });

  it('L5 a tree that does not fit the schema is refused before anything is written', () => {
    const ydoc = createLiveContent(planDocument());
    const before = Y.encodeStateAsUpdate(ydoc);
    const bad = { type: 'doc', content: [{ type: 'paragraph' }] } as unknown as DocumentJson;
    expect(() => writeLiveContent(ydoc, bad)).toThrow(DocumentStructureError);
    expect(Y.encodeStateAsUpdate(ydoc)).toEqual(before);
  });
});
