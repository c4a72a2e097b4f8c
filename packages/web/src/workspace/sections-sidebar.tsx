import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import type { DocumentOutline, OutlineSection, OutlineSubsection } from '@planwright/sdk';
import { useId, useMemo, useState } from 'react';
import { useBrowserPorts } from '../platform/browser-ports-context';
import { ActionsMenu } from '../ui/actions-menu';
import { Icon } from '../ui/icon';
import {
  collapsedSectionsKey,
  readCollapsedSections,
  serializeCollapsedSections,
  writeCollapsedSections,
} from './collapsed-sections';
import type { Selection } from './selection-url';
import type { StructureOutcome } from './structure-actions';
import { DeleteStructureDialog, TitleDialog } from './structure-dialogs';
import type { MoveDirection } from './structure-rules';
import { SIDEBAR_TEXTS as TEXTS } from './workspace-texts';

/** The sidebar's width (spec 001 §9). */
export const SIDEBAR_WIDTH_PX = 260;

/** Where the editor's cursor is, marked in the list. */
export interface CursorMark {
  sectionUuid: string | null;
  subsectionUuid: string | null;
}

export interface SectionsSidebarProps {
  /** What the outline belongs to: the collapsed sections are kept per resource type and uuid (W15). */
  resource?: 'document' | 'blueprint';
  /** The document's (or blueprint's) uuid. */
  documentUuid: string;
  /** What to list (sections without a uuid are never in an outline). */
  outline: DocumentOutline;
  selection: Selection;
  cursor: CursorMark | null;
  /** A structure call runs: actions wait. */
  busy: boolean;
  onSelect: (selection: Selection) => void;
  onRenameSection: (sectionUuid: string, title: string) => Promise<StructureOutcome>;
  onRenameSubsection: (
    sectionUuid: string,
    subsectionUuid: string,
    title: string,
  ) => Promise<StructureOutcome>;
  /** Confirmed deletes (the dialog was answered). */
  onDeleteSection: (sectionUuid: string) => void;
  onDeleteSubsection: (sectionUuid: string, subsectionUuid: string) => void;
  onMoveSection: (sectionUuid: string, direction: MoveDirection) => void;
  onMoveSubsection: (sectionUuid: string, subsectionUuid: string, direction: MoveDirection) => void;
  /** A section dropped at `toIndex` (0-based) by drag and drop. */
  onDropSection: (sectionUuid: string, toIndex: number) => void;
  /** A document's open comment threads per subsection uuid (W44); a section shows its subsections' sum. */
  commentCounts?: ReadonlyMap<string, number>;
}

/** How many open comment threads a row has; nothing for none. */
function CommentCount({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <span className="badge badge-ghost badge-xs ms-auto shrink-0 gap-0.5">
      {/* An icon, not an emoji: a machine without an emoji font draws a box. */}
      <svg
        aria-hidden="true"
        className="size-3"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z" />
      </svg>
      <span aria-hidden="true">{count}</span>
      <span className="sr-only">{TEXTS.openComments(count)}</span>
    </span>
  );
}

type SidebarDialog =
  | { kind: 'rename-section'; section: OutlineSection }
  | { kind: 'rename-subsection'; section: OutlineSection; subsection: OutlineSubsection }
  | { kind: 'delete-section'; section: OutlineSection }
  | { kind: 'delete-subsection'; section: OutlineSection; subsection: OutlineSubsection };

/**
 * The sections sidebar (spec 001 §2; SPEC.md W14–W18): "Sections" with a hide button (a thin rail then
 * shows it again), each section with its subsections, expand/collapse kept per document in the browser,
 * selection, the cursor's place, per-item actions with their dialogs, and drag and drop of sections.
 */
export function SectionsSidebar(props: SectionsSidebarProps) {
  const { outline, documentUuid, busy } = props;
  const { storage } = useBrowserPorts();
  const listId = useId();
  const [hidden, setHidden] = useState(false);
  const [dialog, setDialog] = useState<SidebarDialog | null>(null);
  const storageKey = collapsedSectionsKey(props.resource ?? 'document', documentUuid);
  const [collapsed, setCollapsed] = useState(() => readCollapsedSections(storage(), storageKey));

  const toggleCollapsed = (uuid: string) => {
    const next = new Set(collapsed);
    if (next.has(uuid)) next.delete(uuid);
    else next.add(uuid);
    setCollapsed(next);
    writeCollapsedSections(
      storage(),
      storageKey,
      serializeCollapsedSections(
        next,
        outline.sections.map((section) => section.uuid),
      ),
    );
  };

  const open = (next: SidebarDialog) => {
    if (!busy) setDialog(next);
  };

  if (hidden) {
    return (
      <nav
        aria-label={TEXTS.heading}
        className="flex w-10 shrink-0 flex-col items-center border-r border-base-300 py-2"
      >
        <button
          type="button"
          className="btn btn-ghost btn-sm btn-square"
          aria-label={TEXTS.show}
          aria-expanded={false}
          title={TEXTS.show}
          onClick={() => setHidden(false)}
        >
          <Icon>
            <path d="M9 6l6 6-6 6" />
          </Icon>
        </button>
      </nav>
    );
  }

  return (
    <nav
      aria-label={TEXTS.heading}
      className="flex shrink-0 flex-col border-r border-base-300 bg-base-100"
      style={{ width: SIDEBAR_WIDTH_PX }}
    >
      <div className="flex items-center justify-between gap-2 border-b border-base-300 px-3 py-2">
        <h2 className="font-semibold">{TEXTS.heading}</h2>
        <button
          type="button"
          className="btn btn-ghost btn-sm btn-square"
          aria-label={TEXTS.hide}
          aria-expanded={true}
          aria-controls={listId}
          title={TEXTS.hide}
          onClick={() => setHidden(true)}
        >
          <Icon>
            <path d="M15 6l-6 6 6 6" />
          </Icon>
        </button>
      </div>
      <div id={listId} className="min-h-0 flex-1 overflow-y-auto px-1 py-2">
        {outline.sections.length === 0 ? (
          <p className="px-2 text-sm opacity-80">{TEXTS.empty}</p>
        ) : (
          <SectionList {...props} collapsed={collapsed} onToggle={toggleCollapsed} onOpenDialog={open} />
        )}
      </div>
      {dialog && <SidebarDialogs dialog={dialog} props={props} onClose={() => setDialog(null)} />}
    </nav>
  );
}

function SidebarDialogs({
  dialog,
  props,
  onClose,
}: {
  dialog: SidebarDialog;
  props: SectionsSidebarProps;
  onClose: () => void;
}) {
  switch (dialog.kind) {
    case 'rename-section':
      return (
        <TitleDialog
          heading={TEXTS.renameSection}
          current={dialog.section.title}
          placeholder={TEXTS.untitledSection}
          onSave={(title) => props.onRenameSection(dialog.section.uuid, title)}
          onClose={onClose}
        />
      );
    case 'rename-subsection':
      return (
        <TitleDialog
          heading={TEXTS.renameSubsection}
          current={dialog.subsection.title}
          placeholder={TEXTS.untitledSubsection}
          onSave={(title) => props.onRenameSubsection(dialog.section.uuid, dialog.subsection.uuid, title)}
          onClose={onClose}
        />
      );
    case 'delete-section':
      return (
        <DeleteStructureDialog
          kind="section"
          title={dialog.section.displayTitle}
          onDelete={() => props.onDeleteSection(dialog.section.uuid)}
          onClose={onClose}
        />
      );
    case 'delete-subsection':
      return (
        <DeleteStructureDialog
          kind="subsection"
          title={dialog.subsection.displayTitle}
          onDelete={() => props.onDeleteSubsection(dialog.section.uuid, dialog.subsection.uuid)}
          onClose={onClose}
        />
      );
  }
}

interface SectionListProps extends SectionsSidebarProps {
  collapsed: ReadonlySet<string>;
  onToggle: (uuid: string) => void;
  onOpenDialog: (dialog: SidebarDialog) => void;
}

function SectionList(props: SectionListProps) {
  const { outline, onDropSection } = props;
  const sensors = useSensors(
    // A few pixels of travel before a drag starts, so a click on the handle stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = useMemo(() => outline.sections.map((section) => section.uuid), [outline.sections]);
  const titleOf = (id: UniqueIdentifier | undefined) =>
    outline.sections.find((section) => section.uuid === id)?.displayTitle ?? '';
  const announcements: Announcements = {
    onDragStart: ({ active }) => TEXTS.pickedUp(titleOf(active.id)),
    onDragOver: ({ active, over }) =>
      over ? TEXTS.movedOver(titleOf(active.id), titleOf(over.id)) : undefined,
    onDragEnd: ({ active, over }) =>
      over ? TEXTS.dropped(titleOf(active.id), ids.indexOf(String(over.id)) + 1) : undefined,
    onDragCancel: ({ active }) => TEXTS.dragCancelled(titleOf(active.id)),
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const toIndex = ids.indexOf(String(over.id));
    if (toIndex >= 0) onDropSection(String(active.id), toIndex);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ul className="flex flex-col gap-0.5">
          {outline.sections.map((section) => (
            <SectionItem key={section.uuid} {...props} section={section} />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

const ROW = 'group flex min-w-0 items-center gap-0.5 rounded-box pr-0.5';

function rowClass(selected: boolean): string {
  return `${ROW} ${selected ? 'bg-primary/15' : 'hover:bg-base-200'}`;
}

function DropLine() {
  return <div aria-hidden="true" data-testid="drop-indicator" className="mx-2 h-0.5 rounded bg-primary" />;
}

/** The editor cursor's place: a dot, kept out of the item's name so the names stay the titles. */
function CursorDot() {
  return (
    <span aria-hidden="true" className="inline-flex shrink-0 items-center" title={TEXTS.cursorHere}>
      <span className="size-1.5 rounded-full bg-secondary" />
    </span>
  );
}

function SectionItem(props: SectionListProps & { section: OutlineSection }) {
  const { section, selection, cursor, collapsed, busy } = props;
  const subsectionsId = useId();
  const sortable = useSortable({ id: section.uuid, disabled: busy });
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging, isOver, activeIndex, index } =
    sortable;
  const dropBefore = isOver && !isDragging && activeIndex > index;
  const dropAfter = isOver && !isDragging && activeIndex >= 0 && activeIndex < index;
  const hasSubsections = section.subsections.length > 0;
  const isCollapsed = collapsed.has(section.uuid);
  const selected = selection.sectionUuid === section.uuid && selection.subsectionUuid === null;
  const cursorHere = cursor?.sectionUuid === section.uuid && cursor.subsectionUuid === null;
  const title = section.displayTitle;

  return (
    <li ref={setNodeRef} data-section-uuid={section.uuid} className={isDragging ? 'opacity-50' : undefined}>
      {dropBefore && <DropLine />}
      <div className={rowClass(selected)}>
        {hasSubsections ? (
          <button
            type="button"
            className="btn btn-ghost btn-xs btn-square shrink-0"
            aria-label={isCollapsed ? TEXTS.expand(title) : TEXTS.collapse(title)}
            aria-expanded={!isCollapsed}
            aria-controls={subsectionsId}
            onClick={() => props.onToggle(section.uuid)}
          >
            <span className={`transition-transform ${isCollapsed ? '' : 'rotate-90'}`}>
              <Icon>
                <path d="M9 6l6 6-6 6" />
              </Icon>
            </span>
          </button>
        ) : (
          <span aria-hidden="true" className="w-6 shrink-0" />
        )}
        <button
          type="button"
          className="flex min-w-0 flex-1 items-center gap-1.5 py-1.5 text-left text-sm font-medium"
          aria-current={selected ? 'true' : undefined}
          data-cursor={cursorHere ? 'true' : undefined}
          onClick={() => props.onSelect({ sectionUuid: section.uuid, subsectionUuid: null })}
        >
          <span dir="auto" className="truncate" title={title}>
            {title}
          </span>
          {cursorHere && <CursorDot />}
          <CommentCount
            count={section.subsections.reduce(
              (sum, sub) => sum + (props.commentCounts?.get(sub.uuid) ?? 0),
              0,
            )}
          />
        </button>
        <button
          ref={setActivatorNodeRef}
          type="button"
          {...attributes}
          {...listeners}
          aria-label={TEXTS.reorder(title)}
          className="btn btn-ghost btn-xs btn-square shrink-0 cursor-grab opacity-60 group-hover:opacity-100"
        >
          <svg aria-hidden="true" className="size-4" viewBox="0 0 24 24" fill="currentColor">
            <circle cx="9" cy="6" r="1.5" />
            <circle cx="15" cy="6" r="1.5" />
            <circle cx="9" cy="12" r="1.5" />
            <circle cx="15" cy="12" r="1.5" />
            <circle cx="9" cy="18" r="1.5" />
            <circle cx="15" cy="18" r="1.5" />
          </svg>
        </button>
        <ActionsMenu
          label={TEXTS.actions(title)}
          actions={[
            { label: TEXTS.rename, onSelect: () => props.onOpenDialog({ kind: 'rename-section', section }) },
            {
              label: TEXTS.delete,
              danger: true,
              onSelect: () => props.onOpenDialog({ kind: 'delete-section', section }),
            },
            { label: TEXTS.moveUp, onSelect: () => props.onMoveSection(section.uuid, 'up') },
            { label: TEXTS.moveDown, onSelect: () => props.onMoveSection(section.uuid, 'down') },
          ]}
        />
      </div>
      {hasSubsections && !isCollapsed && (
        <ul id={subsectionsId} className="ml-6 flex flex-col gap-0.5 border-l border-base-300 pl-1">
          {section.subsections.map((subsection) => {
            const subSelected =
              selection.sectionUuid === section.uuid && selection.subsectionUuid === subsection.uuid;
            const subCursor = cursor?.subsectionUuid === subsection.uuid;
            const subTitle = subsection.displayTitle;
            return (
              <li key={subsection.uuid} data-subsection-uuid={subsection.uuid}>
                <div className={rowClass(subSelected)}>
                  <button
                    type="button"
                    className="flex min-w-0 flex-1 items-center gap-1.5 py-1 pl-2 text-left text-sm"
                    aria-current={subSelected ? 'true' : undefined}
                    data-cursor={subCursor ? 'true' : undefined}
                    onClick={() =>
                      props.onSelect({ sectionUuid: section.uuid, subsectionUuid: subsection.uuid })
                    }
                  >
                    {subsection.finalized && (
                      <span aria-hidden="true" className="text-success">
                        ✓
                      </span>
                    )}
                    <span dir="auto" className="truncate" title={subTitle}>
                      {subTitle}
                    </span>
                    {subCursor && <CursorDot />}
                    <CommentCount count={props.commentCounts?.get(subsection.uuid) ?? 0} />
                  </button>
                  <ActionsMenu
                    label={TEXTS.actions(subTitle)}
                    actions={[
                      {
                        label: TEXTS.rename,
                        onSelect: () =>
                          props.onOpenDialog({ kind: 'rename-subsection', section, subsection }),
                      },
                      {
                        label: TEXTS.delete,
                        danger: true,
                        onSelect: () =>
                          props.onOpenDialog({ kind: 'delete-subsection', section, subsection }),
                      },
                      {
                        label: TEXTS.moveUp,
                        onSelect: () => props.onMoveSubsection(section.uuid, subsection.uuid, 'up'),
                      },
                      {
                        label: TEXTS.moveDown,
                        onSelect: () => props.onMoveSubsection(section.uuid, subsection.uuid, 'down'),
                      },
                    ]}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {dropAfter && <DropLine />}
    </li>
  );
}
