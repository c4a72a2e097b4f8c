import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { EditorView, NodeView, ViewMutationRecord } from '@tiptap/pm/view';
import type { CanvasActions } from './canvas-actions.js';
import { uuidOf } from './structure-queries.js';

/** A mutable box the node views read the workspace's current callbacks from. */
export interface CanvasActionsRef {
  current: CanvasActions;
}

/** The labels of the subsection controls (SPEC.md E10, E11); browser tests find the buttons by them. */
export const SUBSECTION_LABELS = {
  moveUp: 'Move subsection up',
  moveDown: 'Move subsection down',
  delete: 'Delete subsection',
  finalize: 'Finalize subsection',
  continueEditing: 'Continue editing',
} as const;

const SVG_NS = 'http://www.w3.org/2000/svg';

/** A 24×24 stroked icon like `ui/icon.tsx`, built with DOM calls (node views are not React). */
function icon(paths: readonly string[]): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  for (const [name, value] of Object.entries({
    'aria-hidden': 'true',
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    class: 'pw-icon',
  })) {
    svg.setAttribute(name, value);
  }
  for (const d of paths) {
    const path = document.createElementNS(SVG_NS, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

const ICONS = {
  up: ['M12 19V5', 'M5 12l7-7 7 7'],
  down: ['M12 5v14', 'M19 12l-7 7-7-7'],
  trash: ['M3 6h18', 'M8 6V4h8v2', 'M19 6l-1 14H6L5 6', 'M10 11v6', 'M14 11v6'],
  check: ['M20 6L9 17l-5-5'],
  pencil: ['M12 20h9', 'M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z'],
} as const;

function button(label: string, className: string, paths: readonly string[]): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = className;
  element.setAttribute('aria-label', label);
  element.title = label;
  element.append(icon(paths));
  return element;
}

/**
 * A section: one `<section>` that is also the content element, carrying `data-section-uuid` for tests
 * and for `revealInEditor`. No controls: sections are moved and deleted from the sidebar.
 */
export class SectionView implements NodeView {
  readonly dom: HTMLElement;
  readonly contentDOM: HTMLElement;

  constructor(node: ProseMirrorNode) {
    this.dom = document.createElement('section');
    this.dom.className = 'pw-section';
    this.dom.dataset.type = 'section';
    this.contentDOM = this.dom;
    this.render(node);
  }

  update(node: ProseMirrorNode): boolean {
    if (node.type.name !== 'section') return false;
    this.render(node);
    return true;
  }

  ignoreMutation(mutation: ViewMutationRecord): boolean {
    return (
      mutation.type === 'attributes' && mutation.target === this.dom && mutation.attributeName !== 'class'
    );
  }

  private render(node: ProseMirrorNode): void {
    setData(this.dom, 'sectionUuid', uuidOf(node));
  }
}

/**
 * A subsection: a wrapper with a controls bar (move up, move down, delete, finalize) that is not
 * editable, and the content element. The controls read the section uuid from the parent when clicked,
 * so they stay right after moves; a finalized subsection's content is not editable (E3, E10, E11).
 */
export class SubsectionView implements NodeView {
  readonly dom: HTMLElement;
  readonly contentDOM: HTMLElement;
  private readonly controls: HTMLElement;
  private readonly moveUp: HTMLButtonElement;
  private readonly moveDown: HTMLButtonElement;
  private readonly remove: HTMLButtonElement;
  private readonly finalize: HTMLButtonElement;
  private readonly finalizeLabel: HTMLSpanElement;
  private node: ProseMirrorNode;
  private renderedFinalized: boolean | null = null;

  constructor(
    node: ProseMirrorNode,
    private readonly view: EditorView,
    private readonly getPos: () => number | undefined,
    private readonly actions: CanvasActionsRef,
  ) {
    this.node = node;
    this.dom = document.createElement('div');
    this.dom.className = 'pw-subsection';
    this.controls = document.createElement('div');
    this.controls.className = 'pw-subsection-controls';
    this.controls.contentEditable = 'false';
    this.moveUp = button(SUBSECTION_LABELS.moveUp, 'pw-control', ICONS.up);
    this.moveDown = button(SUBSECTION_LABELS.moveDown, 'pw-control', ICONS.down);
    this.remove = button(SUBSECTION_LABELS.delete, 'pw-control pw-control-danger', ICONS.trash);
    this.finalize = button(SUBSECTION_LABELS.finalize, 'pw-control pw-finalize', ICONS.check);
    this.finalizeLabel = document.createElement('span');
    this.finalizeLabel.className = 'pw-finalize-label';
    this.finalize.append(this.finalizeLabel);
    this.controls.append(this.moveUp, this.moveDown, this.remove, this.finalize);
    this.contentDOM = document.createElement('div');
    this.contentDOM.className = 'pw-subsection-content';
    this.dom.append(this.controls, this.contentDOM);

    this.moveUp.addEventListener('click', () => this.act((section, uuid) => this.move(section, uuid, 'up')));
    this.moveDown.addEventListener('click', () =>
      this.act((section, uuid) => this.move(section, uuid, 'down')),
    );
    this.remove.addEventListener('click', () =>
      this.act((section, uuid) => this.actions.current.deleteSubsection(section, uuid)),
    );
    this.finalize.addEventListener('click', () =>
      this.act((section, uuid) =>
        this.actions.current.setFinalized(section, uuid, this.node.attrs.finalized !== true),
      ),
    );
    // Edge states depend on the siblings, which do not re-render this view: refresh them when it is used.
    this.dom.addEventListener('pointerenter', () => this.refreshEdges());
    this.controls.addEventListener('focusin', () => this.refreshEdges());
    this.render();
  }

  update(node: ProseMirrorNode): boolean {
    if (node.type.name !== 'subsection') return false;
    this.node = node;
    this.render();
    return true;
  }

  /** Clicks and keys on the controls are theirs, not the editor's. */
  stopEvent(event: Event): boolean {
    return event.target instanceof Node && this.controls.contains(event.target);
  }

  ignoreMutation(mutation: ViewMutationRecord): boolean {
    if (mutation.type === 'selection') return false;
    if (this.controls.contains(mutation.target)) return true;
    return (
      mutation.type === 'attributes' && (mutation.target === this.dom || mutation.target === this.contentDOM)
    );
  }

  /** Writes to the DOM only what changed: update() runs on every keystroke inside the subsection. */
  private render(): void {
    const finalized = this.node.attrs.finalized === true;
    const place = this.place();
    setData(this.dom, 'subsectionUuid', uuidOf(this.node));
    setData(this.dom, 'sectionUuid', place?.sectionUuid ?? null);
    this.showEdges(place);
    if (this.renderedFinalized === finalized) return;
    this.renderedFinalized = finalized;
    this.dom.dataset.finalized = finalized ? 'true' : 'false';
    this.dom.classList.toggle('pw-finalized', finalized);
    // Inherit otherwise: an explicit "true" would make the content editable in a read-only editor.
    if (finalized) this.contentDOM.contentEditable = 'false';
    else this.contentDOM.removeAttribute('contenteditable');
    const label = finalized ? SUBSECTION_LABELS.continueEditing : SUBSECTION_LABELS.finalize;
    this.finalize.setAttribute('aria-label', label);
    this.finalize.title = label;
    this.finalizeLabel.textContent = label;
    this.finalize.replaceChildren(icon(finalized ? ICONS.pencil : ICONS.check), this.finalizeLabel);
  }

  /** The section holding this subsection, from the document (subsections move only inside theirs). */
  private place(): { sectionUuid: string; index: number; first: boolean; last: boolean } | null {
    const pos = this.getPos();
    if (pos === undefined) return null;
    const $pos = this.view.state.doc.resolve(pos);
    const section = $pos.parent;
    const sectionUuid = uuidOf(section);
    if (section.type.name !== 'section' || sectionUuid === null) return null;
    const index = $pos.index();
    const before = index > 0 ? section.child(index - 1) : null;
    const after = index + 1 < section.childCount ? section.child(index + 1) : null;
    return {
      sectionUuid,
      index,
      first: before?.type.name !== 'subsection',
      last: after?.type.name !== 'subsection',
    };
  }

  private refreshEdges(): void {
    this.showEdges(this.place());
  }

  /** The first subsection cannot move up, the last cannot move down. */
  private showEdges(place: { first: boolean; last: boolean } | null): void {
    const upDisabled = place === null || place.first;
    const downDisabled = place === null || place.last;
    if (this.moveUp.disabled !== upDisabled) this.moveUp.disabled = upDisabled;
    if (this.moveDown.disabled !== downDisabled) this.moveDown.disabled = downDisabled;
  }

  private move(sectionUuid: string, uuid: string, direction: 'up' | 'down'): void {
    const place = this.place();
    // Moves at the edges are ignored (spec 001 §4 "Reorder").
    if (place === null || (direction === 'up' ? place.first : place.last)) return;
    this.actions.current.moveSubsection(sectionUuid, uuid, direction);
  }

  /** Runs a control's action with this subsection's ids, only in an editable editor. */
  private act(action: (sectionUuid: string, subsectionUuid: string) => void): void {
    if (!this.view.editable) return;
    const place = this.place();
    const uuid = uuidOf(this.node);
    if (place === null || uuid === null) return;
    action(place.sectionUuid, uuid);
  }
}

function setData(element: HTMLElement, key: string, value: string | null): void {
  const current = element.dataset[key] ?? null;
  if (current === value) return;
  if (value === null) delete element.dataset[key];
  else element.dataset[key] = value;
}
