import { LIVE_CONTENT_FIELD } from '@planwright/sdk/live';
import type { GenerateId } from '@planwright/sdk/model';
import { type AnyExtension, Extension } from '@tiptap/core';
import Collaboration from '@tiptap/extension-collaboration';
import { Dropcursor, Gapcursor, UndoRedo } from '@tiptap/extensions';
import type { Awareness } from 'y-protocols/awareness';
import type * as Y from 'yjs';
import { applyBlockType } from './block-commands.js';
import { CommentHighlights } from './comment-highlights.js';
import { UNDO_DEPTH, UNDO_NEW_GROUP_DELAY_MS } from './editor-meta.js';
import { FastNodeIdAttribute } from './fast-node-ids.js';
import { hintPlugin } from './hint-decorations.js';
import { liveCarets } from './live-carets.js';
import { changeIndent } from './paragraph-indent.js';
import { pastePlugin } from './paste-handling.js';
import { placeholderPlugin } from './placeholder-plugin.js';
import { createPlanwrightExtensions, Section, Subsection } from './sdk-extensions.js';
import { structureGuardPlugin } from './structure-guard.js';
import {
  backspaceAtStructure,
  deleteAtStructure,
  enterInEmptyBodyParagraph,
  enterInTitle,
  enterOverStructure,
} from './structure-keys.js';
import { type CanvasActionsRef, SectionView, SubsectionView } from './structure-node-views.js';
import { isTitleNode } from './structure-queries.js';
import { SuggestionLayer } from './suggestion-layer.js';
import type { BlockTypeValue } from './toolbar-state.js';

/** Options of {@link createPlanEditorExtensions}. */
export interface PlanEditorExtensionOptions {
  /** Where the subsection controls find the workspace's callbacks (read on every click). */
  actions: CanvasActionsRef;
  /** Ids for pasted subsections and new blocks; `crypto.randomUUID()` by default. Tests pass a counter. */
  generateId?: GenerateId;
  /**
   * A live plan (docs/editor.md "Live plans"): the editor edits its Yjs document, undo is Yjs's (each
   * person undoes their own changes), and the others' carets show.
   */
  live?: { document: Y.Doc; awareness: Awareness };
}

/**
 * The plan editor's own behaviour: structure guard, title keys, placeholders, hints, paste, indent keys. Its
 * priority puts its keys and paste handling before Tiptap's defaults and the list keymaps.
 */
function planEditorBehaviour(generateId: GenerateId | undefined): Extension {
  return Extension.create({
    name: 'planEditorBehaviour',
    priority: 1000,

    addKeyboardShortcuts() {
      const enter = () =>
        enterInTitle(this.editor) ||
        enterOverStructure(this.editor) ||
        enterInEmptyBodyParagraph(this.editor);
      const backspace = () => backspaceAtStructure(this.editor);
      const remove = () => deleteAtStructure(this.editor);
      const indent = (direction: 1 | -1) => () =>
        this.editor.commands.command(({ state, dispatch }) => changeIndent(state, dispatch, direction));
      // The SDK extensions' block-type shortcuts go through Tiptap's `setNode`, which throws in section
      // bodies and would turn titles into blocks (see block-commands.ts): ours run instead, never in titles.
      const block = (value: BlockTypeValue | null) => () => {
        if (value !== null && !isTitleNode(this.editor.state.selection.$from.parent))
          applyBlockType(this.editor, value);
        return true;
      };
      const blockShortcuts = {
        'Mod-Alt-0': block('paragraph'),
        'Mod-Alt-1': block(null),
        'Mod-Alt-2': block(null),
        'Mod-Alt-3': block('heading3'),
        'Mod-Alt-4': block('heading4'),
        'Mod-Alt-5': block(null),
        'Mod-Alt-6': block(null),
        'Mod-Alt-c': block('codeBlock'),
        'Mod-Shift-b': block('blockquote'),
        // Lists are fine in bodies (Tiptap's own commands); in titles, nothing.
        'Mod-Shift-7': () => isTitleNode(this.editor.state.selection.$from.parent),
        'Mod-Shift-8': () => isTitleNode(this.editor.state.selection.$from.parent),
      };
      return {
        ...blockShortcuts,
        Enter: enter,
        'Shift-Enter': () => enterInTitle(this.editor),
        'Mod-Enter': () => enterInTitle(this.editor),
        Backspace: backspace,
        'Mod-Backspace': backspace,
        'Shift-Backspace': backspace,
        Delete: remove,
        'Mod-Delete': remove,
        'Mod-]': indent(1),
        'Mod-[': indent(-1),
      };
    },

    addProseMirrorPlugins() {
      return [
        structureGuardPlugin(),
        placeholderPlugin(() => this.editor.isEditable),
        hintPlugin(),
        pastePlugin(this.editor.schema, generateId),
      ];
    },
  });
}

/**
 * Every extension of the plan editor: the SDK's schema (`createPlanwrightExtensions`, the one definition
 * shared with the server) with plain-DOM node views for sections and subsections and the fast nodeId
 * path, undo and redo (depth 100, a new step after 500 ms, spec 001 §9), the drop and gap cursors, and
 * the plan editor's behaviour. No StarterKit: it would bring nodes the schema does not have.
 */
export function createPlanEditorExtensions(options: PlanEditorExtensionOptions): AnyExtension[] {
  const { actions, generateId } = options;
  const section = Section.extend({
    addNodeView:
      () =>
      ({ node }) =>
        new SectionView(node),
  });
  const subsection = Subsection.extend({
    addNodeView:
      () =>
      ({ node, view, getPos }) =>
        new SubsectionView(node, view, getPos, actions),
  });
  const nodeId =
    generateId === undefined ? FastNodeIdAttribute : FastNodeIdAttribute.configure({ generateId });
  const history = options.live
    ? [
        Collaboration.configure({ document: options.live.document, field: LIVE_CONTENT_FIELD }),
        liveCarets(options.live.awareness),
        CommentHighlights,
      ]
    : [UndoRedo.configure({ depth: UNDO_DEPTH, newGroupDelay: UNDO_NEW_GROUP_DELAY_MS })];
  return [
    ...createPlanwrightExtensions({ section, subsection, nodeId }),
    ...history,
    Dropcursor,
    Gapcursor,
    SuggestionLayer,
    planEditorBehaviour(generateId),
  ];
}
