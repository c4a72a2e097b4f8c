import type { DocumentOutline, PlanRole } from '@planwright/sdk';
import {
  type ReactNode,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { Link, useNavigate } from 'react-router';
import { SIGNED_IN_TEXTS } from '../account/account-texts';
import { useOpenCommentCounts } from '../comments/comment-queries';
import type { CanvasActions, CursorContext } from '../editor';
import type { BreadcrumbItem } from '../layout/breadcrumb-store';
import { useBreadcrumbs } from '../layout/breadcrumbs';
import { useBrowserPorts } from '../platform/browser-ports-context';
import { SHARING_TEXTS } from '../sharing/sharing-texts';
import { ActionsMenu, type MenuAction } from '../ui/actions-menu';
import { Alert } from '../ui/alert';
import { LoadError, RETRY_TEXT } from '../ui/load-error';
import { LoadingStatus } from '../ui/loading-status';
import { shownTime } from '../ui/shown-time';
import { SKIP_LINK_CLASS } from '../ui/skip-link';
import { VERSION_TEXTS } from '../versions/version-texts';
import { BusyOverlay } from './busy-overlay';
import { browserClipboardWrite, ConflictDialog } from './conflict-dialog';
import { EditorPane } from './editor-pane';
import { exportMenuActions } from './export-actions';
import { HEADER_IMPORT_FORMATS, type ImportFile, MENU_IMPORT_FORMATS } from './import-actions';
import {
  ImportConfirmDialog,
  ImportDialog,
  ImportProgressDialog,
  ImportReportNotice,
} from './import-dialogs';
import { ImportFilePicker } from './import-file-picker';
import type { PlanWorkspace } from './plan-workspace';
import { ProgressReadout } from './progress-readout';
import { pageSaveState, samePageSaveState, saveFailureText } from './save-status';
import { WorkspaceSaveBadge } from './save-status-badge';
import { SectionsSidebar } from './sections-sidebar';
import type { Selection } from './selection-url';
import type { SplitSettings } from './split-layout';
import { DeleteStructureDialog, TitleDialog } from './structure-dialogs';
import {
  canDeleteSection,
  type MoveDirection,
  selectionAfterSectionDelete,
  selectionAfterSubsectionDelete,
  withPendingChanges,
} from './structure-rules';
import { TitleEditor } from './title-editor';
import { type CompanionControllers, useAutosave, useSaveSnapshot } from './use-autosave';
import { useFillViewport } from './use-fill-viewport';
import { useSelectionUrl } from './use-selection-url';
import { WorkspaceMenuBar } from './workspace-menu-bar';
import { WorkspaceSplit } from './workspace-split';
import { EXPORT_TEXTS, IMPORT_TEXTS, TOP_BAR_TEXTS, WORKSPACE_TEXTS } from './workspace-texts';

/** What the side panel is shown for. */
export interface SideContext {
  workspace: PlanWorkspace;
  selection: Selection;
  /** Where the editor's selection is (the text someone selected or clicked in), once the editor says. */
  cursor: CursorContext | null;
  /** The live outline (titles as typed). */
  outline: DocumentOutline;
}

/**
 * What tells the document editor from the blueprint editor (spec 001 §2): the words, the side panel (the chat or
 * the settings), the split, the File menu's extra entries, the System Prompt dialog and whether subsections
 * are finalized. Everything else is the same screen.
 */
export interface WorkspaceVariant {
  /** The page's `data-testid`. */
  testId: string;
  texts: {
    loading: string;
    notFound: string;
    backToList: string;
    loadFailed: string;
    /** The title shown when there is none (`Untitled Document`). */
    untitled: string;
    /** The inline title field's name. */
    titleLabel: string;
    /** The File › Rename dialog's heading. */
    renameHeading: string;
    /** B9: said above the workspace when the caller may not change it (a document's says their role). */
    readOnly?: string | ((role: PlanRole | null) => string);
  };
  /** The breadcrumb before the title, and the list `backToList` goes to. */
  list: { label: string; path: string };
  /** Where the title's breadcrumb goes. */
  detailPath: (uuid: string) => string;
  split: SplitSettings;
  /** Documents: the progress readout and the finalize controls. Blueprints have neither. */
  finalize: boolean;
  /** Rename with a blank title: closes silently (documents) or shows "Title cannot be empty" (blueprints). */
  renameBlankCloses: boolean;
  /** File menu entries after Rename and System Prompt. */
  fileActions?: (workspace: PlanWorkspace) => MenuAction[];
  side: (context: SideContext) => ReactNode;
  systemPromptDialog: (workspace: PlanWorkspace, onClose: () => void) => ReactNode;
  /** Documents: File › Share… and the header's Share button open this (docs/teams.md). */
  shareDialog?: (context: ShareContext) => ReactNode;
  /** Documents: File › Version history… opens this (docs/versions.md). */
  historyDialog?: (context: HistoryContext) => ReactNode;
}

/** What the version history is opened with. */
export interface HistoryContext {
  workspace: PlanWorkspace;
  title: string;
  canEdit: boolean;
  onClose: () => void;
}

/** What the Share dialog is opened with. */
export interface ShareContext {
  uuid: string;
  title: string;
  onClose: () => void;
  /** After the caller left the plan: it is no longer theirs to see. */
  onLeft: () => void;
}

type WorkspaceDialog =
  | { kind: 'rename' }
  | { kind: 'system-prompt' }
  | { kind: 'share' }
  | { kind: 'history' }
  | { kind: 'delete-subsection'; sectionUuid: string; subsectionUuid: string; title: string };

function Dismissable({
  kind,
  children,
  onDismiss,
}: {
  kind: 'error' | 'info';
  children: ReactNode;
  onDismiss: () => void;
}) {
  return (
    <Alert kind={kind}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span>{children}</span>
        <button type="button" className="btn btn-ghost btn-xs" onClick={onDismiss}>
          {WORKSPACE_TEXTS.dismiss}
        </button>
      </div>
    </Alert>
  );
}

/**
 * The editing workspace (spec 001 §2 "Document editor layout", "Blueprint editor layout"; SPEC.md W1–W28,
 * B1–B8): a fixed full-height page under the navbar with the top bar, the sections sidebar, the editor and the
 * side panel in a resizable split. Everything with behaviour lives in the {@link PlanWorkspace} and the pure
 * rules next to it; this wires them to the screen, as `variant` says.
 */
export function PlanWorkspaceView({
  workspace,
  variant,
  companions,
}: {
  workspace: PlanWorkspace;
  variant: WorkspaceVariant;
  /** Other autosaves of the page (the blueprint's settings): leaving waits for them too. */
  companions?: CompanionControllers;
}) {
  const { texts } = variant;
  const { clock } = useBrowserPorts();
  const state = useSyncExternalStore(workspace.subscribe, workspace.getSnapshot);
  const structure = useSyncExternalStore(workspace.structure.subscribe, workspace.structure.getSnapshot);
  const imported = useSyncExternalStore(workspace.imports.subscribe, workspace.imports.getSnapshot);
  const exported = useSyncExternalStore(workspace.exports.subscribe, workspace.exports.getSnapshot);
  const importing = imported.step.kind === 'running';
  // B9: what the caller may not change is shown as it is, with nothing that would write.
  const busy = structure.busy || importing || !state.canEdit;
  const live = useSyncExternalStore(workspace.outline.subscribe, workspace.outline.getSnapshot);
  const onLeaveFailed = useCallback(
    () => workspace.structure.showAlert(WORKSPACE_TEXTS.leaveFailed),
    [workspace],
  );
  useAutosave(workspace.controller, onLeaveFailed, companions);
  useEffect(() => {
    const onVisibility = () => workspace.setPageHidden(document.visibilityState === 'hidden');
    onVisibility();
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [workspace]);
  // Only what the page itself shows; the badge reads the rest (a live plan changes it on every keystroke).
  const save = useSaveSnapshot(workspace.controller, pageSaveState, samePageSaveState);
  const rootRef = useRef<HTMLDivElement>(null);
  const height = useFillViewport(rootRef);
  const [dialog, setDialog] = useState<WorkspaceDialog | null>(null);
  const navigate = useNavigate();
  const commentCounts = useOpenCommentCounts(workspace);
  const [cursor, setCursor] = useState<CursorContext | null>(null);
  const [editorReady, setEditorReady] = useState(false);
  const ready = state.load.status === 'ready';
  const { selection, select } = useSelectionUrl(live.outline, ready);
  const shownOutline = useMemo(
    () => withPendingChanges(live.outline, structure.pending),
    [live.outline, structure.pending],
  );

  const title = state.title.trim() === '' ? texts.untitled : state.title;
  const { list: listCrumb, detailPath } = variant;
  const crumbs = useMemo<readonly BreadcrumbItem[]>(() => {
    const list: BreadcrumbItem[] = [
      { label: SIGNED_IN_TEXTS.dashboard, to: '/dashboard' },
      { label: listCrumb.label, to: listCrumb.path },
    ];
    if (!ready) return list;
    return [
      ...list,
      {
        key: 'title',
        content: (
          <Link
            to={detailPath(workspace.uuid)}
            dir="auto"
            title={title}
            className="block max-w-[14rem] truncate lg:max-w-[24rem]"
          >
            {title}
          </Link>
        ),
      },
      { label: TOP_BAR_TEXTS.editor },
    ];
  }, [ready, title, workspace.uuid, listCrumb, detailPath]);
  useBreadcrumbs(crumbs);

  // W16: the selection from the URL is shown once the editor is there.
  const revealed = useRef(false);
  useEffect(() => {
    const { sectionUuid, subsectionUuid } = selection;
    if (!editorReady || revealed.current || sectionUuid === null) return;
    revealed.current = true;
    workspace.reveal({ sectionUuid, subsectionUuid });
  }, [editorReady, selection, workspace]);

  const choose = useCallback(
    (next: Selection, options?: { replace?: boolean }) => {
      select(next, options);
      if (next.sectionUuid !== null)
        workspace.reveal({ sectionUuid: next.sectionUuid, subsectionUuid: next.subsectionUuid });
    },
    [select, workspace],
  );

  const current = useRef({ selection, cursor, outline: live.outline });
  current.current = { selection, cursor, outline: live.outline };

  const deleteSubsection = useCallback(
    (sectionUuid: string, subsectionUuid: string) => {
      if (workspace.structure.getSnapshot().busy) return;
      const now = current.current;
      const next = selectionAfterSubsectionDelete(now.outline, sectionUuid, subsectionUuid, now.selection);
      if (next !== now.selection) choose(next, { replace: true });
      void workspace.structure.deleteSubsection(sectionUuid, subsectionUuid);
    },
    [workspace, choose],
  );

  const deleteSection = (sectionUuid: string) => {
    if (busy) return;
    if (canDeleteSection(live.outline)) {
      const next = selectionAfterSectionDelete(live.outline, sectionUuid, selection);
      if (next !== selection) choose(next, { replace: true });
    }
    void workspace.structure.deleteSection(sectionUuid);
  };

  const canvas = useMemo<CanvasActions>(
    () => ({
      moveSubsection: (sectionUuid, subsectionUuid, direction) =>
        void workspace.structure.moveSubsection(sectionUuid, subsectionUuid, direction),
      deleteSubsection: (sectionUuid, subsectionUuid) => {
        if (workspace.structure.getSnapshot().busy) return;
        const section = current.current.outline.sections.find((candidate) => candidate.uuid === sectionUuid);
        const subsection = section?.subsections.find((candidate) => candidate.uuid === subsectionUuid);
        setDialog({
          kind: 'delete-subsection',
          sectionUuid,
          subsectionUuid,
          title: subsection?.displayTitle ?? '',
        });
      },
      setFinalized: (_sectionUuid, subsectionUuid, finalized) =>
        void workspace.setFinalized(subsectionUuid, finalized),
    }),
    [workspace],
  );

  const newSection = useCallback(() => {
    const { cursor: at, selection: selected } = current.current;
    const after = at?.sectionUuid ?? selected.sectionUuid;
    void workspace.structure.createSection(after).then((outcome) => {
      if (outcome.ok) choose({ sectionUuid: outcome.value, subsectionUuid: null });
    });
  }, [workspace, choose]);

  const newSubsection = useCallback(() => {
    const { cursor: at, selection: selected } = current.current;
    const sectionUuid = at?.sectionUuid ?? selected.sectionUuid;
    if (sectionUuid === null) return;
    const after = at?.sectionUuid ? at.subsectionUuid : selected.subsectionUuid;
    void workspace.structure.createSubsection(sectionUuid, after).then((outcome) => {
      if (outcome.ok) choose({ sectionUuid, subsectionUuid: outcome.value });
    });
  }, [workspace, choose]);

  const onEditorReady = useCallback(() => setEditorReady(true), []);
  const { fileActions: makeFileActions } = variant;
  const menuPicker = useRef<HTMLInputElement>(null);
  const headerPicker = useRef<HTMLInputElement>(null);
  // W29: import is for documents (the server imports into documents only), by whoever may change them.
  const canImport = workspace.kind === 'document' && state.canEdit;
  const exportActions = useMemo(() => exportMenuActions(workspace.exports), [workspace]);
  const shares = variant.shareDialog !== undefined;
  const keepsVersions = variant.historyDialog !== undefined;
  const fileActions = useMemo(
    () => [
      ...(shares
        ? [{ label: SHARING_TEXTS.shareMenuItem, onSelect: () => setDialog({ kind: 'share' }) }]
        : []),
      ...(keepsVersions
        ? [{ label: VERSION_TEXTS.menuItem, onSelect: () => setDialog({ kind: 'history' }) }]
        : []),
      ...(canImport ? [{ label: IMPORT_TEXTS.menuItem, onSelect: () => menuPicker.current?.click() }] : []),
      ...exportActions,
      ...(makeFileActions?.(workspace) ?? []),
    ],
    [makeFileActions, workspace, canImport, exportActions, shares, keepsVersions],
  );
  const pick = useCallback(
    (accepted: typeof MENU_IMPORT_FORMATS) => (file: ImportFile) => workspace.imports.choose(file, accepted),
    [workspace],
  );
  const onCursorContext = useCallback((context: CursorContext) => setCursor(context), []);

  const failed = state.load.status === 'failed';
  // A failed first read has its own alert and Try again (the load's).
  const saveFailure = failed ? null : save.failure;

  let body: ReactNode;
  if (state.load.status === 'not-found') {
    body = (
      <div className="flex flex-col items-start gap-4 p-6">
        <h1 className="text-2xl font-bold">{texts.notFound}</h1>
        <Link to={listCrumb.path} className="btn">
          {texts.backToList}
        </Link>
      </div>
    );
  } else if (state.load.status === 'failed') {
    body = (
      <div className="p-6">
        <LoadError
          title={texts.loadFailed}
          detail={state.load.message}
          onRetry={() => void workspace.load()}
        />
      </div>
    );
  } else if (!ready || state.initialContent === null) {
    body = (
      <div className="p-6">
        <LoadingStatus>{texts.loading}</LoadingStatus>
      </div>
    );
  } else {
    body = (
      <div className="flex min-h-0 flex-1">
        <SectionsSidebar
          commentCounts={commentCounts}
          resource={workspace.kind}
          documentUuid={workspace.uuid}
          outline={shownOutline}
          selection={selection}
          cursor={cursor}
          busy={busy}
          onSelect={choose}
          onRenameSection={(uuid, newTitle) => workspace.structure.renameSection(uuid, newTitle)}
          onRenameSubsection={(sectionUuid, uuid, newTitle) =>
            workspace.structure.renameSubsection(sectionUuid, uuid, newTitle)
          }
          onDeleteSection={deleteSection}
          onDeleteSubsection={deleteSubsection}
          onMoveSection={(uuid, direction: MoveDirection) =>
            void workspace.structure.moveSection(uuid, direction)
          }
          onMoveSubsection={(sectionUuid, uuid, direction) =>
            void workspace.structure.moveSubsection(sectionUuid, uuid, direction)
          }
          onDropSection={(uuid, toIndex) => void workspace.structure.moveSectionTo(uuid, toIndex)}
        />
        <WorkspaceSplit
          settings={variant.split}
          editor={
            <EditorPane
              workspace={workspace}
              initialContent={state.initialContent}
              busy={busy}
              canvas={canvas}
              finalize={variant.finalize}
              onCursorContext={onCursorContext}
              onNewSection={newSection}
              onNewSubsection={newSubsection}
              onReady={onEditorReady}
            />
          }
          chat={variant.side({ workspace, selection, cursor, outline: live.outline })}
        />
      </div>
    );
  }

  return (
    <div
      ref={rootRef}
      className="flex flex-col overflow-hidden"
      style={height === undefined ? undefined : { height }}
      data-testid={variant.testId}
    >
      <title>{`${ready ? title : texts.loading} · ${TOP_BAR_TEXTS.editor} · Planwright`}</title>
      {editorReady && (
        // W39: past the header and the sidebar's many tab stops straight into the text.
        <button type="button" className={SKIP_LINK_CLASS} onClick={() => workspace.focusEditor()}>
          {WORKSPACE_TEXTS.skipToEditor}
        </button>
      )}
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-base-300 px-3 py-1.5">
        <div className="flex min-w-0 flex-1 flex-col">
          <div className="flex min-w-0 items-center gap-2">
            {ready && (
              <>
                <h1 className="sr-only">{title}</h1>
                <TitleEditor
                  title={state.title}
                  placeholder={texts.untitled}
                  label={texts.titleLabel}
                  disabled={busy}
                  onSave={(newTitle) => workspace.structure.saveTitle(newTitle)}
                />
              </>
            )}
          </div>
          <WorkspaceMenuBar
            disabled={!ready}
            onRename={state.canEdit ? () => setDialog({ kind: 'rename' }) : undefined}
            onSystemPrompt={() => setDialog({ kind: 'system-prompt' })}
            extraActions={fileActions}
          />
        </div>
        {ready && (
          <div className="flex items-center gap-1">
            {canImport && (
              <button
                type="button"
                className="btn btn-ghost btn-sm font-normal"
                disabled={busy}
                onClick={() => headerPicker.current?.click()}
              >
                {IMPORT_TEXTS.headerButton}
              </button>
            )}
            <ActionsMenu labelled label={EXPORT_TEXTS.menu} actions={exportActions} />
            {shares && (
              <button
                type="button"
                className="btn btn-primary btn-sm"
                onClick={() => setDialog({ kind: 'share' })}
              >
                {SHARING_TEXTS.share}
              </button>
            )}
          </div>
        )}
        {canImport && (
          <>
            <ImportFilePicker
              ref={menuPicker}
              label={IMPORT_TEXTS.menuFileLabel}
              formats={MENU_IMPORT_FORMATS}
              onPick={pick(MENU_IMPORT_FORMATS)}
            />
            <ImportFilePicker
              ref={headerPicker}
              label={IMPORT_TEXTS.headerFileLabel}
              formats={HEADER_IMPORT_FORMATS}
              onPick={pick(HEADER_IMPORT_FORMATS)}
            />
          </>
        )}
        {ready && variant.finalize && <ProgressReadout progress={live.progress} />}
        {(ready || failed) && <WorkspaceSaveBadge controller={workspace.controller} loadFailed={failed} />}
      </header>
      {ready && !state.canEdit && variant.texts.readOnly && (
        <div className="border-b border-base-300 px-3 py-2">
          <Alert kind="info">
            {typeof variant.texts.readOnly === 'function'
              ? variant.texts.readOnly(state.role)
              : variant.texts.readOnly}
          </Alert>
        </div>
      )}
      {(structure.alert ||
        structure.notice ||
        save.restoredDraft ||
        saveFailure ||
        imported.alert ||
        imported.report ||
        exported.alert) && (
        <div className="flex flex-col gap-2 border-b border-base-300 px-3 py-2">
          {saveFailure && (
            <Alert kind="error">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span>{`${WORKSPACE_TEXTS.saveFailed}: ${saveFailureText(saveFailure)}`}</span>
                <button type="button" className="btn btn-xs" onClick={() => workspace.controller.retryNow()}>
                  {RETRY_TEXT}
                </button>
              </div>
            </Alert>
          )}
          {structure.alert && (
            <Dismissable kind="error" onDismiss={() => workspace.structure.dismissAlert()}>
              {structure.alert}
            </Dismissable>
          )}
          {imported.alert && (
            <Dismissable kind="error" onDismiss={() => workspace.imports.dismissAlert()}>
              {imported.alert}
            </Dismissable>
          )}
          {exported.alert && (
            <Dismissable kind="error" onDismiss={() => workspace.exports.dismissAlert()}>
              {exported.alert}
            </Dismissable>
          )}
          {imported.report && (
            <ImportReportNotice
              report={imported.report}
              onDismiss={() => workspace.imports.dismissReport()}
            />
          )}
          {structure.notice && (
            <Dismissable kind="info" onDismiss={() => workspace.structure.dismissNotice()}>
              {structure.notice}
            </Dismissable>
          )}
          {save.restoredDraft && (
            <Dismissable kind="info" onDismiss={() => workspace.dismissRestoredDraft()}>
              {WORKSPACE_TEXTS.restoredDraft(
                shownTime(new Date(save.restoredDraft.savedAt).toISOString(), clock.now()).exact,
              )}
            </Dismissable>
          )}
        </div>
      )}
      {body}
      {save.conflict && (
        <ConflictDialog
          mine={save.conflict.mine}
          onReloadTheirs={() => workspace.reloadTheirs()}
          onKeepMine={() => workspace.keepMine()}
          writeClipboard={browserClipboardWrite}
        />
      )}
      {dialog?.kind === 'rename' && (
        <TitleDialog
          heading={texts.renameHeading}
          current={state.title}
          placeholder={texts.untitled}
          blankCloses={variant.renameBlankCloses}
          onSave={(newTitle) => workspace.structure.saveTitle(newTitle)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'system-prompt' && variant.systemPromptDialog(workspace, () => setDialog(null))}
      {dialog?.kind === 'share' &&
        variant.shareDialog?.({
          uuid: workspace.uuid,
          title: state.title || texts.untitled,
          onClose: () => setDialog(null),
          onLeft: () => navigate(variant.list.path),
        })}
      {dialog?.kind === 'history' &&
        variant.historyDialog?.({
          workspace,
          title: state.title || texts.untitled,
          canEdit: state.canEdit,
          onClose: () => setDialog(null),
        })}
      {imported.step.kind === 'choose' && (
        <ImportDialog
          imports={workspace.imports}
          fileName={imported.step.file.name}
          replace={imported.step.replace}
        />
      )}
      {imported.step.kind === 'confirm' && (
        <ImportConfirmDialog imports={workspace.imports} fileName={imported.step.file.name} />
      )}
      {imported.step.kind === 'running' && (
        <ImportProgressDialog fileName={imported.step.fileName} progress={imported.step.progress} />
      )}
      {exported.running && (
        <BusyOverlay
          title={EXPORT_TEXTS.busyTitle}
          message={EXPORT_TEXTS.busyMessage(exported.running.fileName)}
        />
      )}
      {dialog?.kind === 'delete-subsection' && (
        <DeleteStructureDialog
          kind="subsection"
          title={dialog.title}
          onDelete={() => deleteSubsection(dialog.sectionUuid, dialog.subsectionUuid)}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}
