import type { Suggestion, SuggestionQueueSnapshot } from '@planwright/sdk/proposals';
import { wordDiff } from '@planwright/sdk/proposals';
import { type Editor, Extension } from '@tiptap/core';
import { DOMSerializer, Fragment, type Node as ProseMirrorNode, type Schema } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';

/** What the layer's controls and keys ask of the queue's owner (E40). */
export interface SuggestionLayerActions {
  accept(id: string): void;
  reject(id: string): void;
  select(id: string): void;
  step(direction: 1 | -1): void;
}

interface LayerState {
  decorations: DecorationSet;
  currentId: string | null;
  count: number;
  actions: SuggestionLayerActions | null;
}

interface LayerMeta {
  snapshot: SuggestionQueueSnapshot;
  actions: SuggestionLayerActions;
}

const suggestionLayerKey = new PluginKey<LayerState>('suggestionLayer');

/** The texts the layer's controls carry (E40). */
export const SUGGESTION_LAYER_TEXTS = {
  accept: 'Accept suggestion',
  reject: 'Reject suggestion',
  inserted: 'Suggested insertion',
} as const;

/**
 * Draws the plan's pending AI suggestions in the text (E40–E43), as tracked changes: deleted text struck
 * through, inserted text shown where it would land, each change's Accept and Reject beside the current one.
 * Decorations only: nothing enters the document (or a live plan's shared copy) until accepted, so the others
 * editing a live plan never see someone's pending suggestions.
 */
export const SuggestionLayer = Extension.create({
  name: 'suggestionLayer',

  addKeyboardShortcuts() {
    const act = (run: (actions: SuggestionLayerActions, current: string) => void) => () => {
      const state = suggestionLayerKey.getState(this.editor.state);
      if (!state?.actions || state.currentId === null) return false;
      run(state.actions, state.currentId);
      return true;
    };
    return {
      // E42: next/previous suggestion, accept and reject the current one; nothing pending, the keys pass.
      'Alt-]': act((actions) => actions.step(1)),
      'Alt-[': act((actions) => actions.step(-1)),
      'Mod-Shift-Enter': act((actions, current) => actions.accept(current)),
      'Mod-Shift-Backspace': act((actions, current) => actions.reject(current)),
    };
  },

  addProseMirrorPlugins() {
    return [
      new Plugin<LayerState>({
        key: suggestionLayerKey,
        state: {
          init: () => ({ decorations: DecorationSet.empty, currentId: null, count: 0, actions: null }),
          apply(tr, value, _old, next) {
            const meta = tr.getMeta(suggestionLayerKey) as LayerMeta | undefined;
            if (meta) {
              const { snapshot, actions } = meta;
              return {
                decorations: buildDecorations(next.doc, next.schema, snapshot, actions),
                currentId: snapshot.currentId,
                count: snapshot.suggestions.length,
                actions,
              };
            }
            if (!tr.docChanged || value.count === 0) return value;
            // Until the queue reviews again (after a pause), the marks follow the text they are on.
            return { ...value, decorations: value.decorations.map(tr.mapping, tr.doc) };
          },
        },
        props: {
          decorations: (state) => suggestionLayerKey.getState(state)?.decorations,
          handleClick(view, pos) {
            const state = suggestionLayerKey.getState(view.state);
            if (!state?.actions || state.count === 0) return false;
            const id = suggestionAt(state.decorations, pos);
            if (id !== null && id !== state.currentId) state.actions.select(id);
            return false;
          },
        },
      }),
    ];
  },
});

/** Shows `snapshot` in the editor (E40); an empty queue clears the layer. */
export function setSuggestionLayer(
  editor: Editor,
  snapshot: SuggestionQueueSnapshot,
  actions: SuggestionLayerActions,
): void {
  if (editor.isDestroyed) return;
  const meta: LayerMeta = { snapshot, actions };
  editor.view.dispatch(editor.state.tr.setMeta(suggestionLayerKey, meta).setMeta('addToHistory', false));
}

/** Scrolls the suggestion into view (E41); false when it is not drawn (it no longer applies). */
export function revealSuggestion(editor: Editor, id: string): boolean {
  if (editor.isDestroyed) return false;
  const element = editor.view.dom.querySelector(`[data-suggestion="${CSS.escape(id)}"]`);
  if (!(element instanceof HTMLElement)) return false;
  element.scrollIntoView({ block: 'center', behavior: 'auto' });
  return true;
}

function suggestionAt(decorations: DecorationSet, pos: number): string | null {
  for (const decoration of decorations.find(pos, pos)) {
    const spec = decoration.spec as { suggestion?: string };
    if (spec.suggestion !== undefined) return spec.suggestion;
  }
  return null;
}

interface Located {
  pos: number;
  node: ProseMirrorNode;
}

/** Every block with a nodeId and every subsection by uuid, in one walk. */
function indexDocument(doc: ProseMirrorNode): Map<string, Located> {
  const index = new Map<string, Located>();
  doc.descendants((node, pos) => {
    if (node.isInline) return false;
    const key = node.type.name === 'subsection' ? node.attrs.uuid : node.attrs.nodeId;
    if (typeof key === 'string' && key !== '') index.set(key, { pos, node });
    return !node.isTextblock;
  });
  return index;
}

function buildDecorations(
  doc: ProseMirrorNode,
  schema: Schema,
  snapshot: SuggestionQueueSnapshot,
  actions: SuggestionLayerActions,
): DecorationSet {
  if (snapshot.suggestions.length === 0) return DecorationSet.empty;
  const index = indexDocument(doc);
  const serializer = DOMSerializer.fromSchema(schema);
  const decorations: Decoration[] = [];
  snapshot.suggestions.forEach((suggestion, order) => {
    if (suggestion.item.problem !== null) return;
    const current = suggestion.id === snapshot.currentId;
    const draw = new Drawing(suggestion, current, schema, serializer, decorations);
    const start = draw.change(index);
    // A suggestion still being written has nothing to decide yet (S9).
    if (start !== null && current && !suggestion.streaming)
      decorations.push(controls(start, suggestion, order, actions));
  });
  return DecorationSet.create(doc, decorations);
}

/** Draws one suggestion's change (E40) into `out`. */
class Drawing {
  private readonly className: string;

  constructor(
    private readonly suggestion: Suggestion,
    current: boolean,
    private readonly schema: Schema,
    private readonly serializer: DOMSerializer,
    private readonly out: Decoration[],
  ) {
    this.className = `${current ? ' pw-suggestion-current' : ''}${suggestion.streaming ? ' pw-suggestion-streaming' : ''}`;
  }

  /** Answers where the change starts (for its controls), or null when its target is not in the text. */
  change(index: Map<string, Located>): number | null {
    const { item } = this.suggestion;
    const target = index.get(item.target);
    if (target === undefined) return null;
    const proposed = this.proposedNodes();
    switch (item.kind) {
      case 'replace_subsection': {
        const body: Located[] = [];
        target.node.forEach((child, offset, i) => {
          if (i > 0) body.push({ pos: target.pos + 1 + offset, node: child });
        });
        const end = target.pos + target.node.nodeSize - 1;
        return this.blocks(body, proposed, end);
      }
      case 'replace':
        return this.blocks([target], proposed, target.pos + target.node.nodeSize);
      case 'delete':
        return this.blocks([target], [], target.pos + target.node.nodeSize);
      case 'insert_after':
        return this.insertBlocks(target.pos + target.node.nodeSize, proposed);
      case 'insert_before':
        return this.insertBlocks(target.pos, proposed);
    }
  }

  private proposedNodes(): ProseMirrorNode[] {
    const nodes: ProseMirrorNode[] = [];
    for (const block of this.suggestion.item.blocks) {
      try {
        nodes.push(this.schema.nodeFromJSON(block));
      } catch {
        // The SDK read it against the same schema; a block it cannot draw is left out of the picture only.
      }
    }
    return nodes;
  }

  /**
   * Old blocks against new ones, like a tracked-changes view: blocks that stay as they are unmarked, a block
   * rewritten into one of its kind as a word diff inside it, the rest struck out or shown inserted.
   */
  private blocks(old: Located[], proposed: ProseMirrorNode[], end: number): number | null {
    let start: number | null = null;
    const note = (pos: number) => {
      if (start === null || pos < start) start = pos;
    };
    let o = 0;
    let p = 0;
    while (o < old.length || p < proposed.length) {
      const before = old[o];
      const after = proposed[p];
      if (before && after && sameBlock(before.node, after)) {
        o++;
        p++;
        continue;
      }
      if (before && after && before.node.isTextblock && before.node.type === after.type) {
        note(this.words(before, after));
        o++;
        p++;
        continue;
      }
      // An old block with no counterpart among the next new ones goes; else the new one comes in before it.
      if (before && !proposed.slice(p).some((node) => sameBlock(before.node, node))) {
        this.deleteBlock(before);
        note(before.pos);
        o++;
        continue;
      }
      if (after) {
        const at = before ? before.pos : end;
        const run: ProseMirrorNode[] = [];
        while (p < proposed.length && !(before && sameBlock(before.node, proposed[p] as ProseMirrorNode))) {
          run.push(proposed[p] as ProseMirrorNode);
          p++;
        }
        note(this.insertBlocks(at, run));
        continue;
      }
      o++;
    }
    return start;
  }

  private words(before: Located, after: ProseMirrorNode): number {
    const id = this.suggestion.id;
    const oldText = before.node.textBetween(0, before.node.content.size, undefined, '\n');
    const newText = after.textBetween(0, after.content.size, undefined, '\n');
    // Inline positions of a textblock are its characters (a hard break is one), so offsets map one to one.
    let pos = before.pos + 1;
    let first: number | null = null;
    let widget = 0;
    for (const part of wordDiff(oldText, newText)) {
      if (part.kind === 'equal') {
        pos += part.text.length;
      } else if (part.kind === 'delete') {
        first ??= pos;
        this.out.push(
          Decoration.inline(
            pos,
            pos + part.text.length,
            // `<del>`, so assistive technology reads it as deleted text.
            { nodeName: 'del', class: `pw-suggestion-del${this.className}`, 'data-suggestion': id },
            { suggestion: id },
          ),
        );
        pos += part.text.length;
      } else {
        first ??= pos;
        const text = part.text;
        const className = this.className;
        this.out.push(
          Decoration.widget(
            pos,
            () => {
              const span = document.createElement('ins');
              span.className = `pw-suggestion-ins${className}`;
              span.dataset.suggestion = id;
              span.textContent = text;
              return span;
            },
            { side: 1, key: `${id}:w${widget++}:${text}${className}`, suggestion: id, marks: [] },
          ),
        );
      }
    }
    return first ?? before.pos;
  }

  private deleteBlock(block: Located): void {
    this.out.push(
      Decoration.node(
        block.pos,
        block.pos + block.node.nodeSize,
        { class: `pw-suggestion-del-block${this.className}`, 'data-suggestion': this.suggestion.id },
        { suggestion: this.suggestion.id },
      ),
    );
  }

  private insertBlocks(pos: number, nodes: ProseMirrorNode[]): number {
    if (nodes.length === 0) return pos;
    const id = this.suggestion.id;
    const className = this.className;
    const fragment = Fragment.from(nodes);
    const serializer = this.serializer;
    this.out.push(
      Decoration.widget(
        pos,
        () => {
          const box = document.createElement('div');
          box.className = `pw-suggestion-ins-block${className}`;
          box.dataset.suggestion = id;
          box.contentEditable = 'false';
          box.setAttribute('role', 'group');
          box.setAttribute('aria-label', SUGGESTION_LAYER_TEXTS.inserted);
          box.append(serializer.serializeFragment(fragment));
          return box;
        },
        {
          side: -1,
          key: `${id}:b${pos}:${nodes.map((node) => node.textContent).join('|')}${className}`,
          suggestion: id,
          ignoreSelection: true,
          stopEvent: () => false,
        },
      ),
    );
    return pos;
  }
}

function sameBlock(a: ProseMirrorNode, b: ProseMirrorNode): boolean {
  // nodeIds differ (new blocks get new ones): the same kind and the same content is the same block.
  return a.type === b.type && a.content.eq(b.content);
}

/** The current suggestion's Accept and Reject, drawn where its change starts (E41). */
function controls(
  pos: number,
  suggestion: Suggestion,
  order: number,
  actions: SuggestionLayerActions,
): Decoration {
  return Decoration.widget(
    pos,
    (view: EditorView) => {
      const box = document.createElement('span');
      box.className = 'pw-suggestion-controls';
      box.contentEditable = 'false';
      box.dataset.suggestionControls = suggestion.id;
      const button = (label: string, mark: string, run: () => void) => {
        const element = document.createElement('button');
        element.type = 'button';
        element.className = `pw-suggestion-${mark}`;
        element.setAttribute('aria-label', `${label} ${order + 1}`);
        element.title = label;
        element.textContent = mark === 'accept' ? '✓' : '✕';
        // The text keeps its selection and focus: the button acts, the caret stays where it was.
        element.addEventListener('mousedown', (event) => event.preventDefault());
        element.addEventListener('click', (event) => {
          event.preventDefault();
          run();
          view.focus();
        });
        return element;
      };
      box.append(
        button(SUGGESTION_LAYER_TEXTS.accept, 'accept', () => actions.accept(suggestion.id)),
        button(SUGGESTION_LAYER_TEXTS.reject, 'reject', () => actions.reject(suggestion.id)),
      );
      return box;
    },
    { side: -1, key: `controls:${suggestion.id}`, ignoreSelection: true, stopEvent: () => true },
  );
}
