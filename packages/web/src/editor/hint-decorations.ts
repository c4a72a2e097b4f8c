import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode, Slice } from '@tiptap/pm/model';
import { type EditorState, Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import { AttrStep, ReplaceAroundStep, ReplaceStep } from '@tiptap/pm/transform';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';

/** The hint's own words (SPEC.md E26–E30). */
export const HINT_TEXTS = {
  label: (hint: string) => `Hint: ${hint}`,
  more: 'Show more',
  less: 'Show less',
} as const;

/** The class of a hint's element on the canvas. */
export const HINT_CLASS = 'pw-hint';

/** A hint longer than this, or with more line breaks than {@link CLAMP_LINES}, is clamped with a toggle. */
const CLAMP_CHARACTERS = 240;
const CLAMP_LINES = 3;

const STRUCTURE_NODES = new Set(['section', 'subsection', 'sectionHeading', 'subsectionHeading']);

interface HintState {
  /** User hints by section or subsection uuid (blank ones left out). */
  hints: ReadonlyMap<string, string>;
  /** The uuids whose long hint is shown whole. */
  expanded: ReadonlySet<string>;
  decorations: DecorationSet;
  /** How many times the decorations were built from the document (E30: never per keystroke). */
  builds: number;
}

type HintMeta = { hints: ReadonlyMap<string, string> } | { toggle: string };

const hintKey = new PluginKey<HintState>('planwrightHints');

/** Whether a hint is long enough to be clamped to three lines with a toggle. */
export function isLongHint(hint: string): boolean {
  return hint.length > CLAMP_CHARACTERS || hint.split('\n').length > CLAMP_LINES;
}

function hintElement(view: EditorView, uuid: string, hint: string, expanded: boolean): HTMLElement {
  const element = document.createElement('div');
  element.className = HINT_CLASS;
  element.contentEditable = 'false';
  element.setAttribute('role', 'note');
  element.setAttribute('aria-label', HINT_TEXTS.label(hint));
  element.dataset.hintFor = uuid;
  const icon = document.createElement('span');
  icon.className = 'pw-hint-icon';
  icon.setAttribute('aria-hidden', 'true');
  // A light bulb, as plain SVG: the editor's node views use no React.
  icon.innerHTML =
    '<svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M9 18h6M10 21h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z"/></svg>';
  const text = document.createElement('span');
  text.className = 'pw-hint-text';
  // Text, never HTML: hints are other people's words.
  text.textContent = hint;
  element.append(icon, text);
  if (isLongHint(hint)) {
    element.dataset.expanded = expanded ? 'true' : 'false';
    const toggle = document.createElement('button');
    toggle.type = 'button';
    toggle.className = 'pw-hint-toggle';
    toggle.textContent = expanded ? HINT_TEXTS.less : HINT_TEXTS.more;
    toggle.setAttribute('aria-expanded', expanded ? 'true' : 'false');
    // Not a focus or selection change of the editor: the toggle only changes how the hint is shown.
    toggle.addEventListener('mousedown', (event) => event.preventDefault());
    toggle.addEventListener('click', (event) => {
      event.preventDefault();
      view.dispatch(view.state.tr.setMeta(hintKey, { toggle: uuid } satisfies HintMeta));
    });
    element.append(toggle);
  }
  return element;
}

function hintWidget(pos: number, uuid: string, hint: string, expanded: boolean): Decoration {
  return Decoration.widget(pos, (view) => hintElement(view, uuid, hint, expanded), {
    // Before anything inserted right under the heading (Enter at the end of a title), so it stays there.
    side: -1,
    ignoreSelection: true,
    // Clicks on the hint (its toggle) are the hint's, not the editor's.
    stopEvent: () => true,
    // Same key, same element: ProseMirror keeps the DOM when the set is rebuilt.
    key: `${uuid}\u0000${expanded ? 1 : 0}\u0000${hint}`,
    hintFor: uuid,
  });
}

/** The position right after the heading of a section or subsection that starts at `pos`. */
function afterHeading(node: ProseMirrorNode, pos: number): number | null {
  const heading = node.firstChild;
  if (!heading || (heading.type.name !== 'sectionHeading' && heading.type.name !== 'subsectionHeading')) {
    return null;
  }
  return pos + 1 + heading.nodeSize;
}

/** A widget under every heading whose section or subsection has a hint; only the top two levels are read. */
function buildDecorations(
  doc: ProseMirrorNode,
  hints: ReadonlyMap<string, string>,
  expanded: ReadonlySet<string>,
): DecorationSet {
  if (hints.size === 0) return DecorationSet.empty;
  const widgets: Decoration[] = [];
  const add = (node: ProseMirrorNode, pos: number) => {
    const uuid = node.attrs.uuid;
    if (typeof uuid !== 'string') return;
    const hint = hints.get(uuid);
    const at = hint === undefined ? null : afterHeading(node, pos);
    if (hint !== undefined && at !== null) widgets.push(hintWidget(at, uuid, hint, expanded.has(uuid)));
  };
  doc.forEach((section, sectionOffset) => {
    if (section.type.name !== 'section') return;
    add(section, sectionOffset);
    section.forEach((child, childOffset) => {
      if (child.type.name === 'subsection') add(child, sectionOffset + 1 + childOffset);
    });
  });
  return DecorationSet.create(doc, widgets);
}

/** Whether a step's slice holds a section, subsection or title (the schema puts them nowhere else). */
function sliceHasStructure(slice: Slice): boolean {
  let found = false;
  slice.content.descendants((node) => {
    if (found) return false;
    if (STRUCTURE_NODES.has(node.type.name)) found = true;
    return !found && (node.type.name === 'section' || node.type.name === 'subsection');
  });
  return found;
}

/**
 * Whether a replaced range touches a section, subsection or title: one that starts or ends inside it. The
 * parts that hold the whole range (the section and subsection around a deleted character, the title
 * around a word typed over) do not count. Only sections and subsections are entered (the schema puts
 * structure nowhere else), so a keystroke never walks the blocks of the document.
 */
function rangeHasStructure(doc: ProseMirrorNode, from: number, to: number): boolean {
  if (from >= to) return false;
  let found = false;
  doc.nodesBetween(from, to, (node, pos) => {
    if (found) return false;
    const holdsRange = pos < from && pos + node.nodeSize > to;
    if (!holdsRange && STRUCTURE_NODES.has(node.type.name)) found = true;
    return !found && (node.type.name === 'section' || node.type.name === 'subsection');
  });
  return found;
}

/**
 * Whether a transaction may have added, removed or moved a section, subsection or title (E30): then the
 * hints are placed again; any other edit (typing, formatting, a pasted paragraph) only maps them.
 */
export function changesStructure(tr: Transaction): boolean {
  return tr.steps.some((step, index) => {
    // A part's uuid is what its hint is found by.
    if (step instanceof AttrStep) return step.attr === 'uuid';
    if (!(step instanceof ReplaceStep || step instanceof ReplaceAroundStep)) return false;
    const doc = tr.docs[index];
    if (!doc) return true;
    const { from, to, slice } = step;
    return sliceHasStructure(slice) || rangeHasStructure(doc, from, to);
  });
}

function sameHints(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [uuid, hint] of a) if (b.get(uuid) !== hint) return false;
  return true;
}

/** Only non-blank hints count (E26); every line break becomes `\n`, which `pre-line` keeps. */
function cleanHints(hints: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  const clean = new Map<string, string>();
  for (const [uuid, hint] of hints) {
    if (typeof uuid === 'string' && typeof hint === 'string' && hint.trim() !== '') {
      clean.set(uuid, hint.replace(/\r\n?/g, '\n'));
    }
  }
  return clean;
}

/**
 * The user hints under section and subsection headings (SPEC.md E26–E30): widget decorations, so they are
 * never content — not saved, copied, undone or exported. Rebuilt only when hints are set, a long hint is
 * toggled, or a transaction changes structure; otherwise mapped.
 */
export function hintPlugin(): Plugin<HintState> {
  return new Plugin<HintState>({
    key: hintKey,
    state: {
      init: () => ({ hints: new Map(), expanded: new Set(), decorations: DecorationSet.empty, builds: 0 }),
      apply(tr, value, _old, state: EditorState): HintState {
        const meta = tr.getMeta(hintKey) as HintMeta | undefined;
        if (meta && 'hints' in meta) {
          if (sameHints(meta.hints, value.hints) && !tr.docChanged) return value;
          return {
            ...value,
            hints: meta.hints,
            decorations: buildDecorations(state.doc, meta.hints, value.expanded),
            builds: value.builds + 1,
          };
        }
        if (meta && 'toggle' in meta) {
          const expanded = new Set(value.expanded);
          if (!expanded.delete(meta.toggle)) expanded.add(meta.toggle);
          return {
            ...value,
            expanded,
            decorations: buildDecorations(state.doc, value.hints, expanded),
            builds: value.builds + 1,
          };
        }
        if (!tr.docChanged || value.hints.size === 0) return value;
        if (changesStructure(tr)) {
          return {
            ...value,
            decorations: buildDecorations(state.doc, value.hints, value.expanded),
            builds: value.builds + 1,
          };
        }
        return { ...value, decorations: value.decorations.map(tr.mapping, tr.doc) };
      },
    },
    props: {
      decorations: (state) => hintKey.getState(state)?.decorations ?? DecorationSet.empty,
    },
  });
}

/**
 * Shows `hints` (user hints by section or subsection uuid) under their headings. A transaction with meta
 * only: no content change, no undo step, not an edit. Blank hints show nothing; setting the same hints
 * again does nothing.
 */
export function setStructureHints(editor: Editor, hints: ReadonlyMap<string, string>): void {
  if (editor.isDestroyed) return;
  const { view } = editor;
  view.dispatch(
    view.state.tr
      .setMeta(hintKey, { hints: cleanHints(hints) } satisfies HintMeta)
      .setMeta('addToHistory', false),
  );
}

/** @internal How many times the hints were placed from the document (tests of E30). */
export function hintBuilds(state: EditorState): number {
  return hintKey.getState(state)?.builds ?? 0;
}

/** @internal Where the hints are, as [position, uuid] in document order (tests of E29 and E30). */
export function hintPlacements(state: EditorState): Array<[number, string]> {
  const decorations = hintKey.getState(state)?.decorations ?? DecorationSet.empty;
  return decorations
    .find()
    .map((decoration): [number, string] => [decoration.from, String(decoration.spec.hintFor)])
    .sort((a, b) => a[0] - b[0]);
}
