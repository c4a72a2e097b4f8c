import type { GenerateId } from '@planwright/sdk/model';
import { type AnyExtension, Extension } from '@tiptap/core';
import { Dropcursor, Gapcursor, UndoRedo } from '@tiptap/extensions';
import { applyBlockType } from './block-commands.js';
import { UNDO_DEPTH, UNDO_NEW_GROUP_DELAY_MS } from './editor-meta.js';
import { FastNodeIdAttribute } from './fast-node-ids.js';
import { hintPlugin } from './hint-decorations.js';
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
import type { BlockTypeValue } from './toolbar-state.js';

/** Options of {@link createPlanEditorExtensions}. */
export interface PlanEditorExtensionOptions {
  /** Where the subsection controls find the workspace's callbacks (read on every click). */
  actions: CanvasActionsRef;
  /** Ids for pasted subsections and new blocks; `crypto.randomUUID()` by default. Tests pass a counter. */
  generateId?: GenerateId;
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
  return [
    ...createPlanwrightExtensions({ section, subsection, nodeId }),
    UndoRedo.configure({ depth: UNDO_DEPTH, newGroupDelay: UNDO_NEW_GROUP_DELAY_MS }),
    Dropcursor,
    Gapcursor,
    planEditorBehaviour(generateId),
  ];
}
