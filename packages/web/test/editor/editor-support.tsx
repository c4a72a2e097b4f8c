import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type {
  BlockJson,
  DocumentJson,
  ParagraphJson,
  SectionJson,
  SubsectionJson,
} from '@planwright/sdk/model';
import { act, render } from '@testing-library/react';
import type { Editor } from '@tiptap/core';
import { useEffect } from 'react';
import { vi } from 'vitest';
import {
  type CanvasActions,
  type CursorContext,
  EditorToolbar,
  PlanEditorCanvas,
  type PlanEditorOptions,
  usePlanEditor,
} from '../../src/editor/index.js';

/** A UUID made from a number, so tests read `uuid(3)`. */
export function uuid(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** A deterministic `generateId`: UUIDs counting up from `start`. */
export function countingIds(start = 1000): () => string {
  let next = start;
  return () => {
    next += 1;
    return uuid(next);
  };
}

export function p(text: string, nodeId: string, indent = 0): ParagraphJson {
  return text === ''
    ? { type: 'paragraph', attrs: { indent, nodeId } }
    : { type: 'paragraph', attrs: { indent, nodeId }, content: [{ type: 'text', text }] };
}

export function subsection(
  id: number,
  title: string,
  blocks: BlockJson[],
  finalized = false,
): SubsectionJson {
  return {
    type: 'subsection',
    attrs: { uuid: uuid(id), blueprint_uuid: null, finalized },
    content: [
      title === ''
        ? { type: 'subsectionHeading', attrs: { level: 2 } }
        : { type: 'subsectionHeading', attrs: { level: 2 }, content: [{ type: 'text', text: title }] },
      ...blocks,
    ],
  };
}

export function section(
  id: number | null,
  title: string,
  blocks: BlockJson[],
  subsections: SubsectionJson[] = [],
): SectionJson {
  return {
    type: 'section',
    attrs: {
      uuid: id === null ? (null as unknown as string) : uuid(id),
      blueprint_uuid: null,
      id: null,
      model: null,
    },
    content: [
      title === ''
        ? { type: 'sectionHeading', attrs: { level: 1 } }
        : { type: 'sectionHeading', attrs: { level: 1 }, content: [{ type: 'text', text: title }] },
      ...blocks,
      ...subsections,
    ],
  };
}

/**
 * The plan most tests use: section Alpha (uuid 1) with an intro and three subsections, First (2),
 * Second (3, finalized) and Third (4); section Beta (5) with one paragraph.
 */
export function planDocument(): DocumentJson {
  return {
    type: 'doc',
    content: [
      section(
        1,
        'Alpha',
        [p('Intro text', 'p-intro')],
        [
          subsection(2, 'First', [p('One', 'p-one'), p('One more', 'p-one-more')]),
          subsection(3, 'Second', [p('Two locked', 'p-two')], true),
          subsection(4, 'Third', [p('Three', 'p-three')]),
        ],
      ),
      section(5, 'Beta', [p('Body B', 'p-beta')]),
    ],
  };
}

/** Where `text` starts in the document (the first match), for cursor placement. */
export function posOf(editor: Editor, text: string): number {
  let found = -1;
  editor.state.doc.descendants((node, pos) => {
    if (found >= 0) return false;
    if (node.isText && node.text?.includes(text)) found = pos + (node.text?.indexOf(text) ?? 0);
    return true;
  });
  if (found < 0) throw new Error(`"${text}" is not in the document`);
  return found;
}

/** Where `text` ends. */
export function endOf(editor: Editor, text: string): number {
  return posOf(editor, text) + text.length;
}

/** Presses a key in the editor as ProseMirror receives it (keydown on its element). */
export function press(editor: Editor, key: string, modifiers: KeyboardEventInit = {}): void {
  act(() => {
    editor.view.dom.dispatchEvent(
      new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...modifiers }),
    );
  });
}

/**
 * Hands a key to the editor's key handlers directly, so an exception inside one reaches the test (a
 * dispatched event would only report it). Returns whether a handler took the key.
 */
export function handleKey(editor: Editor, key: string, modifiers: KeyboardEventInit = {}): boolean {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...modifiers });
  let handled = false;
  act(() => {
    handled = editor.view.someProp('handleKeyDown', (handler) => handler(editor.view, event)) ?? false;
  });
  return handled;
}

/** Sets the selection (a cursor, or a range). */
export function select(editor: Editor, from: number, to = from): void {
  act(() => {
    editor.commands.setTextSelection({ from, to });
  });
}

/** Runs something that dispatches, inside act. */
export function run<T>(action: () => T): T {
  let result: T | undefined;
  act(() => {
    result = action();
  });
  return result as T;
}

/** The texts of the section and subsection titles, in order, with their uuids: the structure at a glance. */
export function structureOf(editor: Editor): string[] {
  const out: string[] = [];
  editor.state.doc.forEach((sectionNode) => {
    out.push(`S ${sectionNode.attrs.uuid as string} ${sectionNode.firstChild?.textContent ?? ''}`);
    sectionNode.forEach((child) => {
      if (child.type.name === 'subsection') {
        out.push(`  s ${child.attrs.uuid as string} ${child.firstChild?.textContent ?? ''}`);
      }
    });
  });
  return out;
}

export interface RenderedEditor {
  editor: Editor;
  actions: { [K in keyof CanvasActions]: ReturnType<typeof vi.fn> };
  onEdit: ReturnType<typeof vi.fn>;
  onCursorContext: ReturnType<typeof vi.fn<(context: CursorContext) => void>>;
  onNewSection: ReturnType<typeof vi.fn>;
  onNewSubsection: ReturnType<typeof vi.fn>;
  container: HTMLElement;
  rerender(options: Partial<PlanEditorOptions> & { disabled?: boolean }): void;
}

/**
 * Renders the toolbar and the canvas around `usePlanEditor`, as the workspace does, with spies for every
 * callback and counting ids.
 */
export function renderPlanEditor(
  options: Partial<PlanEditorOptions> & { disabled?: boolean } = {},
): RenderedEditor {
  const actions = { moveSubsection: vi.fn(), deleteSubsection: vi.fn(), setFinalized: vi.fn() };
  const onEdit = vi.fn();
  const onCursorContext = vi.fn<(context: CursorContext) => void>();
  const onNewSection = vi.fn();
  const onNewSubsection = vi.fn();
  let current: Editor | null = null;
  const base: PlanEditorOptions = {
    content: planDocument(),
    editable: true,
    canvas: actions,
    onEdit,
    onCursorContext,
    generateId: countingIds(),
  };

  function Harness(props: PlanEditorOptions & { disabled?: boolean }) {
    const editor = usePlanEditor(props);
    useEffect(() => {
      current = editor;
    }, [editor]);
    return (
      <>
        <EditorToolbar
          editor={editor}
          onNewSection={onNewSection}
          onNewSubsection={onNewSubsection}
          disabled={props.disabled}
        />
        <PlanEditorCanvas editor={editor} />
      </>
    );
  }

  let props = { ...base, ...options };
  const view = render(<Harness {...props} />);
  if (current === null) throw new Error('the editor was not created');
  return {
    editor: current,
    actions,
    onEdit,
    onCursorContext,
    onNewSection,
    onNewSubsection,
    container: view.container,
    rerender: (next) => {
      props = { ...props, ...next };
      view.rerender(<Harness {...props} />);
    },
  };
}

/**
 * A file of the shared corpus, which lives beside the repository in `../shared/corpus`
 * (PLANWRIGHT_CORPUS_DIR overrides it). Found from the working directory upwards, since the web
 * project's module URLs are not file URLs. A missing file fails the test; it is never skipped.
 */
export function corpusPath(relative: string): string {
  let root = process.env.PLANWRIGHT_CORPUS_DIR;
  for (let dir = process.cwd(); root === undefined; dir = dirname(dir)) {
    if (existsSync(join(dir, '../shared/corpus'))) root = resolve(dir, '../shared/corpus');
    else if (dirname(dir) === dir) break;
  }
  const path = join(root ?? '', relative);
  if (root === undefined || !existsSync(path)) {
    throw new Error(
      `Test corpus file not found: ${path}. Clone the repository beside shared/ or set PLANWRIGHT_CORPUS_DIR.`,
    );
  }
  return path;
}

export function readCorpus(relative: string): string {
  return readFileSync(corpusPath(relative), 'utf8');
}
