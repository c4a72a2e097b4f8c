// @vitest-environment happy-dom

import {
  createPlanwrightExtensions,
  NodeIdAttribute,
  normalizeDocument,
  type SectionJson,
} from '@planwright/sdk/model';
import { Editor, type JSONContent } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { countingIds, paragraph, specDocument, text, uuid } from '../support/model-documents.js';

let editor: Editor | undefined;

/** The editor's JSON as plain `JSONContent` (Tiptap 3 types it per node, which only gets in the way here). */
function jsonOf(instance: Editor): JSONContent {
  return instance.getJSON() as JSONContent;
}

/** Where the text of the spec document's first paragraph starts: section, title open, 17 letters, close, paragraph. */
const FIRST_PARAGRAPH = 1 + 1 + 17 + 1 + 1;

afterEach(() => {
  editor?.destroy();
  editor = undefined;
});

/** Not required by the model (the schema is built headlessly), but proof that the editor reads the same JSON. */
describe('the extensions in a Tiptap editor (M1, M2)', () => {
  it('M1: load the spec document and give back the same JSON', () => {
    editor = new Editor({ extensions: createPlanwrightExtensions(), content: specDocument() });
    expect(editor.getJSON()).toEqual(specDocument());
  });

  it('M2: a paragraph split in the middle gets a new nodeId; the first half keeps its own', () => {
    const extensions = createPlanwrightExtensions({
      nodeId: NodeIdAttribute.configure({ generateId: countingIds() }),
    });
    editor = new Editor({ extensions, content: specDocument() });
    // After "We" in the first paragraph.
    editor.commands.setTextSelection(FIRST_PARAGRAPH + 2);
    editor.commands.splitBlock();
    const [, first, second] = jsonOf(editor).content?.[0]?.content ?? [];
    expect(first?.attrs?.nodeId).toBe('p-1');
    expect(second?.attrs?.nodeId).toBe(uuid(1001));
    // Nothing left for the server to fix.
    const result = normalizeDocument(editor.getJSON(), { generateId: countingIds(5000) });
    expect(result.ok && result.report).toMatchObject({ changed: false, assignedNodeIds: 0 });
  });

  it('M2: blocks that arrive without ids, or with repeated ones, get fresh ones', () => {
    const extensions = createPlanwrightExtensions({
      nodeId: NodeIdAttribute.configure({ generateId: countingIds() }),
    });
    editor = new Editor({ extensions, content: specDocument() });
    const doc = specDocument();
    const first = doc.content[0] as SectionJson;
    first.content.push(paragraph('p-1', [text('copy')]), {
      type: 'paragraph',
      attrs: { indent: 0, nodeId: null },
    });
    editor.commands.setContent(doc);
    const blocks = jsonOf(editor).content?.[0]?.content?.slice(1) ?? [];
    expect(blocks.map((block) => block.attrs?.nodeId)).toEqual(['p-1', 'p-2', uuid(1001), uuid(1002)]);
  });

  it('M13: setLink refuses a javascript: href', () => {
    editor = new Editor({ extensions: createPlanwrightExtensions(), content: specDocument() });
    editor.commands.setTextSelection({ from: FIRST_PARAGRAPH, to: FIRST_PARAGRAPH + 2 });
    expect(editor.commands.setLink({ href: 'javascript:alert(1)' })).toBe(false);
    expect(editor.commands.setLink({ href: 'https://example.com' })).toBe(true);
  });
});
