import {
  createStorageDraftStore,
  type DocumentOutline,
  draftKey,
  type PlanRole,
  type PlanwrightClient,
  planRoleAllows,
  SaveController,
  type Section,
  type SectionSettings,
  toErrorMessage,
} from '@planwright/sdk';
import { type LiveDocument, readLiveContent } from '@planwright/sdk/live';
import { type DocumentJson, normalizeDocument } from '@planwright/sdk/model';
import { type Suggestion, SuggestionQueue, type SuggestionTurn } from '@planwright/sdk/proposals';
import { isGone } from '../api/write-failure';
import type { CommentMark } from '../editor';
import type { KeyValueStorage } from '../platform/browser-ports';
import type { Clock } from '../platform/clock';
import type { EditorBridge } from './editor-bridge';
import { ExportActions } from './export-actions';
import { browserSaveFile, type SaveFile } from './export-download';
import { ImportActions } from './import-actions';
import { LiveOutline } from './live-outline';
import { LiveSaving, type OpenedLivePlan, type PlanSaving } from './live-saving';
import { type PlanDetail, type PlanKind, type PlanResource, planResource } from './plan-resource';
import { SnapshotStore } from './snapshot-store';
import { StructureActions, type StructureHost } from './structure-actions';

/** Where the first read of the document or blueprint stands (W3). */
export type WorkspaceLoad =
  | { status: 'loading' }
  | { status: 'not-found' }
  | { status: 'failed'; message: string }
  | { status: 'ready' };

export interface WorkspaceSnapshot {
  load: WorkspaceLoad;
  /** The title as stored (`''` for none). */
  title: string;
  /** What the editor starts with: the server's content, or a restored draft of it (W5). */
  initialContent: DocumentJson | null;
  /**
   * The sections with their settings as last read (the load, a structure call's answer); settings written
   * here since are in (B5). The content tree, not this, is the truth for structure and titles.
   */
  sections: readonly Section[];
  /** A blueprint's own system prompt as last read or written (`''` for documents). */
  systemPrompt: string;
  /** B9: whether the caller may change it (a document: its owner and editors; a blueprint: its owner). */
  canEdit: boolean;
  /** The caller's role on a document (docs/teams.md); `null` for blueprints and servers without teams. */
  role: PlanRole | null;
}

const INITIAL: WorkspaceSnapshot = Object.freeze({
  load: Object.freeze({ status: 'loading' as const }),
  title: '',
  initialContent: null,
  sections: Object.freeze([]),
  systemPrompt: '',
  canEdit: true,
  role: null,
});

const READY: WorkspaceLoad = Object.freeze({ status: 'ready' });

let instances = 0;

/**
 * A content tree from the server or from storage, made safe for the editor: normalised with the SDK's own
 * rules (what fails them is no document). Storage is never trusted, the wire only as far as its schema.
 */
export function parseDocumentContent(value: unknown): DocumentJson | null {
  const result = normalizeDocument(value);
  return result.ok ? result.doc : null;
}

/** A document or blueprint answer's content as the editor takes it; one without content gets the empty tree. */
export function documentContent(document: Pick<PlanDetail, 'content'>): DocumentJson {
  const content = parseDocumentContent(document.content ?? { type: 'doc' });
  if (content === null) throw new Error('The document content could not be read.');
  return content;
}

/**
 * The user hints (spec 001 §2 "visible guidance") the editor shows under each heading, by section or
 * subsection uuid; blank hints are left out.
 */
export function hintsOf(sections: readonly Section[]): Map<string, string> {
  const hints = new Map<string, string>();
  const add = (uuid: string, hint: string) => {
    if (hint.trim() !== '') hints.set(uuid, hint);
  };
  for (const section of sections) {
    add(section.uuid, section.user_hint);
    for (const subsection of section.subsections) add(subsection.uuid, subsection.user_hint);
  }
  return hints;
}

/** `sections` with the settings of the section or subsection `uuid` replaced (the same array when none has it). */
export function withSettings(
  sections: readonly Section[],
  uuid: string,
  settings: SectionSettings,
): readonly Section[] {
  let changed = false;
  const next = sections.map((section) => {
    if (section.uuid === uuid) {
      changed = true;
      return { ...section, ...settings };
    }
    if (!section.subsections.some((subsection) => subsection.uuid === uuid)) return section;
    changed = true;
    return {
      ...section,
      subsections: section.subsections.map((subsection) =>
        subsection.uuid === uuid ? { ...subsection, ...settings } : subsection,
      ),
    };
  });
  return changed ? next : sections;
}

function systemPromptOf(detail: PlanDetail): string {
  return 'system_prompt' in detail ? detail.system_prompt : '';
}

/**
 * Both results, or the REST read's failure before the live copy's: a plan that is gone is "not found"
 * (W3) even when the sync socket's refusal (which says less) comes back first.
 */
async function bothOrRestFirst<A, B>(rest: Promise<A>, live: Promise<B>): Promise<[A, B]> {
  const synced = live.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const read = await rest;
  const outcome = await synced;
  if (!outcome.ok) throw outcome.error;
  return [read, outcome.value];
}

function canEdit(detail: PlanDetail): boolean {
  return 'is_owner' in detail ? detail.is_owner : planRoleAllows(detail.role, 'edit');
}

export interface PlanWorkspaceOptions {
  client: PlanwrightClient;
  /** A document (the default) or a blueprint. */
  kind?: PlanKind;
  uuid: string;
  clock: Clock;
  /** Browser storage for drafts (W5); `null` where it is blocked. */
  storage: () => KeyValueStorage | null;
  /** For the retry jitter; the controller's default otherwise. */
  random?: () => number;
  /** A title or structure write went through: caches of the document elsewhere are stale. */
  onWritten?: () => void;
  /** Where exports go (W37); the browser's downloads otherwise. */
  saveFile?: SaveFile;
  /**
   * On a server that co-edits plans live (its config's `live_documents`): opens a plan's live copy (a
   * document's or a blueprint's). The workspace then edits it instead of saving whole over REST (W40).
   */
  openLive?: (kind: PlanKind, uuid: string) => OpenedLivePlan;
}

/**
 * One opened document or blueprint (W3–W5, B1): reads it, owns its autosave controller (one per opened
 * resource), its live outline and its structure calls, and talks to the editor through an
 * {@link EditorBridge} once there is one. Framework-free; the page reads it with `useSyncExternalStore`.
 */
/** What the chat hears of the suggestions in the text (W52). */
export interface SuggestionListener {
  decided?(turn: SuggestionTurn, decision: 'accepted' | 'rejected'): void;
  askAgain?(turnId: string, suggestions: readonly Suggestion[]): void;
}

/** How long after the last keystroke pending suggestions are reviewed against the text again (W50). */
export const SUGGESTION_REVIEW_DELAY_MS = 400;

export class PlanWorkspace extends SnapshotStore<WorkspaceSnapshot> implements StructureHost {
  readonly uuid: string;
  readonly kind: PlanKind;
  /** The calls on the edited resource. */
  readonly resource: PlanResource;
  /** Tells one workspace of the same document from the next (a React key). */
  readonly instanceKey = `workspace-${++instances}`;
  readonly client: PlanwrightClient;
  readonly controller: PlanSaving;
  /** The live copy the editor edits (W40); null where plans are saved over REST. */
  readonly live: LiveDocument | null;
  readonly outline: LiveOutline;
  readonly structure: StructureActions;
  /** Import of .docx and .md files into a document (W29–W34). */
  readonly imports: ImportActions;
  /** Export in every format (W35–W38). */
  readonly exports: ExportActions;
  private bridge: EditorBridge | null = null;
  private readOnly = false;
  private loadAbort: AbortController | null = null;
  private disposed = false;
  private stopWatchingAccess: () => void = () => {};
  /**
   * The plan's pending AI suggestions (W50): reviewed in the text, decided from the canvas, the floating bar
   * or the keyboard; a decided chat turn is reported to {@link onSuggestionDecided}'s listeners.
   */
  readonly suggestions: SuggestionQueue;
  private readonly suggestionListeners = new Set<SuggestionListener>();
  private suggestionTimer: unknown = null;
  private commentMarks: readonly CommentMark[] = [];
  private readonly commentClickListeners = new Set<(threadId: string) => void>();

  constructor(private readonly options: PlanWorkspaceOptions) {
    super(INITIAL);
    const { client, uuid, clock } = options;
    const resource = planResource(client, options.kind ?? 'document');
    this.uuid = uuid;
    this.kind = resource.kind;
    this.resource = resource;
    this.client = client;
    const opened = options.openLive ? options.openLive(resource.kind, uuid) : null;
    this.live = opened?.live ?? null;
    this.controller = opened ? new LiveSaving(opened, clock) : this.restSaving(resource, uuid);
    if (this.live) this.stopWatchingAccess = this.watchAccess(this.live);
    this.outline = new LiveOutline(clock);
    this.outline.setSource(() => this.bridge?.skeleton() ?? this.getSnapshot().initialContent);
    this.structure = new StructureActions(this);
    this.imports = new ImportActions(this);
    this.exports = new ExportActions(this, options.saveFile ?? browserSaveFile(clock));
    this.suggestions = new SuggestionQueue({
      getDocument: () => this.currentContent(),
      applyDocument: (next) => this.applyContent(next),
      onTurnDecided: (turn, decision) => {
        for (const listener of this.suggestionListeners) listener.decided?.(turn, decision);
      },
    });
  }

  /** W4: the REST autosave of a plan that is not live. */
  private restSaving(resource: PlanResource, uuid: string): SaveController<DocumentJson> {
    const { options } = this;
    const { clock } = options;
    return new SaveController<DocumentJson>({
      read: () => this.currentContent(),
      write: async (content, context) => {
        const answer = await resource.update(
          uuid,
          { content },
          {
            ...(context.ifMatch === null ? {} : { ifMatch: context.ifMatch }),
            keepalive: context.keepalive,
            signal: context.signal,
          },
        );
        return { revision: answer.revision };
      },
      fetchLatest: async (signal) => {
        const latest = await resource.get(uuid, { signal });
        return { content: documentContent(latest), revision: latest.revision };
      },
      debounceMs: resource.debounceMs,
      drafts: createStorageDraftStore({
        storage: options.storage,
        key: draftKey(resource.kind, uuid),
        parse: parseDocumentContent,
      }),
      clock,
      ...(options.random ? { random: options.random } : {}),
    });
  }

  /**
   * docs/teams.md: the live socket is told at once when who may open the plan changes (a role changed, a
   * member removed): it comes back read-only, or refused. Then the REST read says what the caller has now,
   * so the page follows: read-only, editable again, or gone (not found).
   */
  private watchAccess(live: LiveDocument): () => void {
    let seen = live.getSnapshot();
    return live.subscribe(() => {
      const now = live.getSnapshot();
      const changed =
        now.readOnly !== seen.readOnly || (now.error?.code === 'refused' && seen.error?.code !== 'refused');
      seen = now;
      if (changed && this.getSnapshot().load.status === 'ready') void this.recheckAccess();
    });
  }

  private async recheckAccess(): Promise<void> {
    try {
      const read = await this.resource.get(this.uuid);
      if (this.disposed) return;
      this.update({ canEdit: canEdit(read), role: 'role' in read ? read.role : null });
    } catch (error) {
      if (!this.disposed && isGone(error)) this.update({ load: { status: 'not-found' } });
    }
  }

  /** W40: resolves once the live copy holds the server's state; throws when the server refused it. */
  private async liveSynced(live: LiveDocument, signal: AbortSignal): Promise<DocumentJson> {
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        const snapshot = live.getSnapshot();
        if (signal.aborted) done(() => resolve());
        else if (snapshot.synced) done(() => resolve());
        else if (snapshot.error && snapshot.error.code !== 'busy')
          done(() => reject(new Error(snapshot.error?.message)));
      };
      const done = (settle: () => void) => {
        stop();
        signal.removeEventListener('abort', check);
        settle();
      };
      const stop = live.subscribe(check);
      signal.addEventListener('abort', check);
      check();
    });
    return readLiveContent(live.document).document;
  }

  /** W3: reads the resource; saving is suppressed until it is loaded (`beginLoading` / `loaded`). */
  async load(): Promise<void> {
    this.loadAbort?.abort();
    const abort = new AbortController();
    this.loadAbort = abort;
    this.controller.beginLoading();
    this.update({ load: INITIAL.load });
    let document: PlanDetail;
    let content: DocumentJson;
    try {
      const live = this.live;
      [document, content] = live
        ? await bothOrRestFirst(
            this.resource.get(this.uuid, { signal: abort.signal }),
            this.liveSynced(live, abort.signal),
          )
        : await this.resource
            .get(this.uuid, { signal: abort.signal })
            .then((read) => [read, documentContent(read)]);
    } catch (error) {
      if (abort.signal.aborted || this.disposed) return;
      if (isGone(error)) this.update({ load: { status: 'not-found' } });
      else {
        // Spec 001 §4: a load failure sets the save status to error too.
        this.controller.loadFailed(error);
        this.update({ load: { status: 'failed', message: toErrorMessage(error) } });
      }
      return;
    }
    if (abort.signal.aborted || this.disposed) return;
    // W5: a draft kept in the browser that differs from the server's copy comes back (the controller's
    // `restoredDraft` shows the notice).
    const draft = this.controller.loaded(content, document.revision);
    const initial = draft?.content ?? content;
    this.update({
      load: READY,
      title: document.title,
      initialContent: initial,
      sections: document.sections,
      systemPrompt: systemPromptOf(document),
      canEdit: canEdit(document),
      role: 'role' in document ? document.role : null,
    });
    // A live editor is filled from the live copy itself.
    if (!this.live) this.bridge?.load(initial);
    this.showHints();
    this.outline.refreshNow();
  }

  /** W41: the page was hidden or shown (a live plan lets go of its connection while hidden for long). */
  setPageHidden(hidden: boolean): void {
    if (this.controller instanceof LiveSaving) this.controller.setPageHidden(hidden);
  }

  /** The editor exists (it starts with `initialContent`). */
  attachEditor(bridge: EditorBridge): void {
    if (this.commentMarks.length > 0) bridge.setCommentMarks(this.commentMarks);
    this.bridge = bridge;
    if (this.readOnly) bridge.setReadOnly(true);
    this.showHints();
    this.outline.refreshNow();
  }

  /**
   * B5: the settings of a section or subsection as the settings panel holds them (saved or not): kept in the
   * snapshot, and a changed hint shows in the editor at once, as founders will see it.
   */
  setSettings(uuid: string, settings: SectionSettings): void {
    const { sections } = this.getSnapshot();
    const next = withSettings(sections, uuid, settings);
    if (next === sections) return;
    this.update({ sections: next });
    this.showHints();
  }

  /** The blueprint's own system prompt was written. */
  setSystemPrompt(systemPrompt: string): void {
    this.update({ systemPrompt });
  }

  /** The editor is gone. */
  detachEditor(bridge: EditorBridge): void {
    if (this.bridge === bridge) this.bridge = null;
  }

  /** Every user edit (the editor's `onEdit`): cheap, nothing is serialised here. */
  edited(): void {
    this.controller.edit();
    this.outline.invalidate();
    this.reviewSuggestionsSoon();
  }

  /** Listens for AI turns decided in the text, and for "Ask again" on ones that no longer apply (W52). */
  onSuggestionEvents(listener: SuggestionListener): () => void {
    this.suggestionListeners.add(listener);
    return () => this.suggestionListeners.delete(listener);
  }

  /** Makes the turn's first pending suggestion current and scrolls to it (a chat card's "Show in text"). */
  showSuggestionTurn(turnId: string): boolean {
    const id = this.suggestions.selectTurn(turnId);
    return id !== null && (this.bridge?.revealSuggestion(id) ?? false);
  }

  /** W52: asks the chat that made `turnId` to propose its change again against the current text. */
  askAgain(turnId: string): void {
    const turn = this.suggestions
      .getSnapshot()
      .suggestions.filter((suggestion) => suggestion.turnId === turnId);
    if (turn.length === 0) return;
    for (const listener of this.suggestionListeners) listener.askAgain?.(turnId, turn);
  }

  /** W50: typing moves what suggestions apply to; they are reviewed again after a pause, not per keystroke. */
  private reviewSuggestionsSoon(): void {
    if (this.suggestionTimer !== null || this.suggestions.getSnapshot().suggestions.length === 0) return;
    this.suggestionTimer = this.options.clock.setTimeout(() => {
      this.suggestionTimer = null;
      if (!this.disposed && this.bridge) this.suggestions.refresh();
    }, SUGGESTION_REVIEW_DELAY_MS);
  }

  /** The cursor's section or subsection is finalized or reopened (W24): an edit, saved at once. */
  async setFinalized(subsectionUuid: string, finalized: boolean): Promise<boolean> {
    if (this.structure.getSnapshot().busy || !this.bridge) return false;
    if (!this.bridge.setFinalized(subsectionUuid, finalized)) return false;
    this.outline.refreshNow();
    return this.controller.flush();
  }

  /**
   * Makes the editor's content `next` (an accepted proposal) as one undoable user edit that autosave saves
   * (R1–R3). Refused while a structure call runs (the editor is read-only then) or without an editor.
   */
  applyContent(next: DocumentJson): boolean {
    if (this.structure.getSnapshot().busy || !this.bridge) return false;
    if (!this.bridge.applyContent(next)) return false;
    this.outline.refreshNow();
    return true;
  }

  /** A new paragraph holding `text` after the cursor's block (R4: "Insert" on an AI message's code block). */
  insertParagraphAfterCursor(text: string): boolean {
    if (this.structure.getSnapshot().busy || !this.bridge) return false;
    return this.bridge.insertParagraphAfterCursor(text);
  }

  /** Moves the keyboard focus into the editor's text; false before the editor is there. */
  focusEditor(): boolean {
    if (!this.bridge) return false;
    this.bridge.focus();
    return true;
  }

  /** The text selected in the editor (`''` for none, or before the editor exists). */
  selectedText(): string {
    return this.bridge?.selectedText() ?? '';
  }

  /** The anchor of the editor's selection for a new comment, or null. */
  commentAnchor(): string | null {
    return this.bridge?.commentAnchor() ?? null;
  }

  /** Marks these comment threads on the canvas (W44), now and on an editor attached later. */
  setCommentMarks(marks: readonly CommentMark[]): void {
    this.commentMarks = marks;
    this.bridge?.setCommentMarks(marks);
  }

  /** Someone clicked a comment's highlighted text in the editor: the side panel shows that thread (W44). */
  commentClicked(threadId: string): void {
    for (const listener of this.commentClickListeners) listener(threadId);
  }

  /** Listens for clicks on comments' highlighted text; answers the function that stops listening. */
  onCommentClick(listener: (threadId: string) => void): () => void {
    this.commentClickListeners.add(listener);
    return () => this.commentClickListeners.delete(listener);
  }

  /** Selects a comment's text in the editor; false when it cannot be found. */
  revealComment(anchor: string): boolean {
    return this.bridge?.revealComment(anchor) ?? false;
  }

  /** Scrolls the editor to a section or subsection. */
  reveal(target: { sectionUuid: string; subsectionUuid?: string | null }): boolean {
    return this.bridge?.reveal(target) ?? false;
  }

  /** W9 "Reload theirs": the server's version replaces the editor's. */
  async reloadTheirs(): Promise<void> {
    const theirs = this.controller.resolveConflict('theirs');
    if (theirs) {
      this.bridge?.load(theirs.content);
      this.controller.loaded(theirs.content, theirs.revision);
      this.outline.refreshNow();
      return;
    }
    // Their version could not be read when the conflict happened: read it now.
    try {
      await this.refetch();
    } catch (error) {
      // Saving was suppressed for the reload; it resumes with what the editor holds, and says why.
      this.controller.loadFailed(error);
      throw error;
    }
  }

  /** W9 "Keep mine (overwrite)". */
  keepMine(): Promise<boolean> {
    return this.controller.resolveConflict('mine');
  }

  dismissRestoredDraft(): void {
    this.controller.dismissRestoredDraft();
  }

  /** Stops everything: timers, the load in flight, answers that come later. */
  dispose(): void {
    this.disposed = true;
    this.stopWatchingAccess();
    this.loadAbort?.abort();
    this.structure.dispose();
    this.imports.dispose();
    this.exports.dispose();
    this.controller.dispose();
    this.outline.dispose();
    if (this.suggestionTimer !== null) this.options.clock.clearTimeout(this.suggestionTimer);
    this.suggestionListeners.clear();
    this.bridge = null;
  }

  // StructureHost

  setReadOnly(readOnly: boolean): void {
    this.readOnly = readOnly;
    this.bridge?.setReadOnly(readOnly);
  }

  reflect(document: PlanDetail): void {
    if (this.disposed) return;
    const content = documentContent(document);
    // W40: a live plan's change from the server arrives through the live copy, merged with what is typed.
    if (!this.live) {
      this.bridge?.load(content);
      // Only a controller's first `loaded()` restores a draft (save SPEC S15), so nothing comes back here.
      this.controller.loaded(content, document.revision);
    }
    this.update({
      title: document.title,
      sections: document.sections,
      systemPrompt: systemPromptOf(document),
      ...(this.bridge ? {} : { initialContent: content }),
    });
    this.showHints();
    this.outline.refreshNow();
  }

  async refetch(): Promise<void> {
    this.reflect(await this.resource.get(this.uuid));
  }

  currentContent(): DocumentJson {
    const content = this.bridge?.getJSON() ?? this.getSnapshot().initialContent;
    if (content === null) throw new Error('The document is not loaded yet.');
    return content;
  }

  /** The stored title (`''` for none), for an export's file name. */
  currentTitle(): string {
    return this.getSnapshot().title;
  }

  /** Whether a structure call runs (an import waits for none). */
  structureBusy(): boolean {
    return this.structure.getSnapshot().busy;
  }

  setTitle(title: string): void {
    this.update({ title });
  }

  currentOutline(): DocumentOutline {
    return this.outline.getSnapshot().outline;
  }

  written(): void {
    this.options.onWritten?.();
  }

  private showHints(): void {
    this.bridge?.setHints(hintsOf(this.getSnapshot().sections));
  }
}
