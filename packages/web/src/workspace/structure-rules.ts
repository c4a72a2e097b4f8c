import type { DocumentOutline, OutlineSection } from '@planwright/sdk';
import { NO_SELECTION, type Selection } from './selection-url';

/** Up or down one place. */
export type MoveDirection = 'up' | 'down';

/**
 * W21: the `order` a move sends, or `null` when the move is ignored (the first item up, the last down).
 * `index` is the item's 0-based place among `count`. Our server takes `order` as the item's new 1-based
 * position (docs/http-api.md "Sections and subsections"): moving up is `index` (the spec's "old index"),
 * moving down `index + 2` (the spec's "index+2"). With a 0-based index the spec and our contract agree.
 */
export function moveOrder(index: number, count: number, direction: MoveDirection): number | null {
  if (index < 0 || index >= count) return null;
  if (direction === 'up') return index === 0 ? null : index;
  return index === count - 1 ? null : index + 2;
}

/** W18: the `order` a drag-and-drop from `from` to `to` (0-based) sends, or `null` for a drop in place. */
export function dropOrder(from: number, to: number, count: number): number | null {
  if (from === to || from < 0 || to < 0 || from >= count || to >= count) return null;
  return to + 1;
}

/** W22: the only section left cannot be deleted (the server would answer 409 `last_section`). */
export function canDeleteSection(outline: DocumentOutline): boolean {
  return outline.sections.length > 1;
}

/**
 * W22: where the selection goes when a section is deleted. If the deleted section was selected: the
 * previous section, or the next when the first was deleted (spec 001 §4); another section's delete leaves
 * the selection alone.
 */
export function selectionAfterSectionDelete(
  outline: DocumentOutline,
  deleted: string,
  current: Selection,
): Selection {
  if (current.sectionUuid !== deleted) return current;
  const index = outline.sections.findIndex((section) => section.uuid === deleted);
  if (index < 0) return current;
  const target = outline.sections[index - 1] ?? outline.sections[index + 1];
  return target ? { sectionUuid: target.uuid, subsectionUuid: null } : NO_SELECTION;
}

/**
 * W22: the same rule one level down: the previous subsection of the section, else the next, else the
 * section itself. Only when the deleted subsection was selected.
 */
export function selectionAfterSubsectionDelete(
  outline: DocumentOutline,
  sectionUuid: string,
  deleted: string,
  current: Selection,
): Selection {
  if (current.subsectionUuid !== deleted) return current;
  const section = outline.sections.find((candidate) => candidate.uuid === sectionUuid);
  const index = section?.subsections.findIndex((subsection) => subsection.uuid === deleted) ?? -1;
  if (!section || index < 0) return { sectionUuid, subsectionUuid: null };
  const target = section.subsections[index - 1] ?? section.subsections[index + 1];
  return { sectionUuid, subsectionUuid: target?.uuid ?? null };
}

/**
 * W20: where New Subsection goes in `section`: right after `afterSubsection`, else first (right after the
 * section's own text, where the cursor is).
 */
export function subsectionCreateOrder(section: OutlineSection, afterSubsection: string | null): number {
  const index = section.subsections.findIndex((subsection) => subsection.uuid === afterSubsection);
  return index < 0 ? 1 : index + 2;
}

/** An optimistic change the sidebar shows while its call runs (W22, W18). */
export type PendingStructureChange =
  | { kind: 'hide'; uuid: string }
  | { kind: 'move-section'; uuid: string; order: number }
  | { kind: 'move-subsection'; sectionUuid: string; uuid: string; order: number };

function moveTo<T extends { uuid: string }>(items: readonly T[], uuid: string, order: number): T[] {
  const from = items.findIndex((item) => item.uuid === uuid);
  const item = items[from];
  if (from < 0 || item === undefined) return [...items];
  const rest = items.filter((_, index) => index !== from);
  const to = Math.min(Math.max(order - 1, 0), rest.length);
  return [...rest.slice(0, to), item, ...rest.slice(to)];
}

/**
 * The outline the sidebar shows: the live one with the pending changes applied (hidden items left out,
 * moved items at their new place), so a delete or a drop shows at once and is undone by dropping the
 * change when its call fails.
 */
export function withPendingChanges(
  outline: DocumentOutline,
  changes: readonly PendingStructureChange[],
): DocumentOutline {
  if (changes.length === 0) return outline;
  const hidden = new Set(changes.flatMap((change) => (change.kind === 'hide' ? [change.uuid] : [])));
  let sections = outline.sections
    .filter((section) => !hidden.has(section.uuid))
    .map((section) => {
      const subsections = section.subsections.filter((subsection) => !hidden.has(subsection.uuid));
      return subsections.length === section.subsections.length ? section : { ...section, subsections };
    });
  for (const change of changes) {
    if (change.kind === 'move-section') sections = moveTo(sections, change.uuid, change.order);
    else if (change.kind === 'move-subsection') {
      sections = sections.map((section) =>
        section.uuid === change.sectionUuid
          ? { ...section, subsections: moveTo(section.subsections, change.uuid, change.order) }
          : section,
      );
    }
  }
  return { sections };
}
