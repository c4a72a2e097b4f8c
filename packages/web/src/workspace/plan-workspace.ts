import {
  createStorageDraftStore,
  DOCUMENT_SAVE_DEBOUNCE_MS,
  type DocumentDetail,
  type DocumentOutline,
  draftKey,
  type PlanwrightClient,
  SaveController,
  toErrorMessage,
} from '@planwright/sdk';
import { type DocumentJson, normalizeDocument } from '@planwright/sdk/model';
import { isGone } from '../api/write-failure';
import type { KeyValueStorage } from '../platform/browser-ports';
import type { Clock } from '../platform/clock';
import type { EditorBridge } from './editor-bridge';
import { LiveOutline } from './live-outline';
import { SnapshotStore } from './snapshot-store';
import { StructureActions, type StructureHost } from './structure-actions';

/** Where the first read of the document stands (W3). */
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
}

const INITIAL: WorkspaceSnapshot = Object.freeze({
  load: Object.freeze({ status: 'loading' as const }),
  title: '',
  initialContent: null,
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

/** A document answer's content as the editor takes it; a document without content gets the empty tree. */
export function documentContent(document: DocumentDetail): DocumentJson {
  const content = parseDocumentContent(document.content ?? { type: 'doc' });
  if (content === null) throw new Error('The document content could not be read.');
  return content;
}

export interface DocumentWorkspaceOptions {
  client: PlanwrightClient;
  uuid: string;
  clock: Clock;
  /** Browser storage for drafts (W5); `null` where it is blocked. */
  storage: () => KeyValueStorage | null;
  /** For the retry jitter; the controller's default otherwise. */
  random?: () => number;
  /** A title or structure write went through: caches of the document elsewhere are stale. */
  onWritten?: () => void;
}

/**
 * One opened document (W3–W5): reads it, owns its autosave controller (one per opened document), its live
 * outline and its structure calls, and talks to the editor through an {@link EditorBridge} once there is
 * one. Framework-free; the page reads it with `useSyncExternalStore`.
 */
export class DocumentWorkspace extends SnapshotStore<WorkspaceSnapshot> implements StructureHost {
  readonly uuid: string;
  /** Tells one workspace of the same document from the next (a React key). */
  readonly instanceKey = `workspace-${++instances}`;
  readonly client: PlanwrightClient;
  readonly controller: SaveController<DocumentJson>;
  readonly outline: LiveOutline;
  readonly structure: StructureActions;
  private bridge: EditorBridge | null = null;
  private readOnly = false;
  private loadAbort: AbortController | null = null;
  private disposed = false;

  constructor(private readonly options: DocumentWorkspaceOptions) {
    super(INITIAL);
    const { client, uuid, clock } = options;
    this.uuid = uuid;
    this.client = client;
    this.controller = new SaveController<DocumentJson>({
      read: () => this.currentContent(),
      write: async (content, context) => {
        const answer = await client.documents.update(
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
        const latest = await client.documents.get(uuid, { signal });
        return { content: documentContent(latest), revision: latest.revision };
      },
      debounceMs: DOCUMENT_SAVE_DEBOUNCE_MS,
      drafts: createStorageDraftStore({
        storage: options.storage,
        key: draftKey('document', uuid),
        parse: parseDocumentContent,
      }),
      clock,
      ...(options.random ? { random: options.random } : {}),
    });
    this.outline = new LiveOutline(clock);
    this.outline.setSource(() => this.bridge?.skeleton() ?? this.getSnapshot().initialContent);
    this.structure = new StructureActions(this);
  }

  /** W3: reads the document; saving is suppressed until it is loaded (`beginLoading` / `loaded`). */
  async load(): Promise<void> {
    this.loadAbort?.abort();
    const abort = new AbortController();
    this.loadAbort = abort;
    this.controller.beginLoading();
    this.update({ load: INITIAL.load });
    let document: DocumentDetail;
    let content: DocumentJson;
    try {
      document = await this.client.documents.get(this.uuid, { signal: abort.signal });
      content = documentContent(document);
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
    this.update({ load: READY, title: document.title, initialContent: initial });
    this.bridge?.load(initial);
    this.outline.refreshNow();
  }

  /** The editor exists (it starts with `initialContent`). */
  attachEditor(bridge: EditorBridge): void {
    this.bridge = bridge;
    if (this.readOnly) bridge.setReadOnly(true);
    this.outline.refreshNow();
  }

  /** The editor is gone. */
  detachEditor(bridge: EditorBridge): void {
    if (this.bridge === bridge) this.bridge = null;
  }

  /** Every user edit (the editor's `onEdit`): cheap, nothing is serialised here. */
  edited(): void {
    this.controller.edit();
    this.outline.invalidate();
  }

  /** The cursor's section or subsection is finalized or reopened (W24): an edit, saved at once. */
  async setFinalized(subsectionUuid: string, finalized: boolean): Promise<boolean> {
    if (this.structure.getSnapshot().busy || !this.bridge) return false;
    if (!this.bridge.setFinalized(subsectionUuid, finalized)) return false;
    this.outline.refreshNow();
    return this.controller.flush();
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
    this.loadAbort?.abort();
    this.structure.dispose();
    this.controller.dispose();
    this.outline.dispose();
    this.bridge = null;
  }

  // StructureHost

  setReadOnly(readOnly: boolean): void {
    this.readOnly = readOnly;
    this.bridge?.setReadOnly(readOnly);
  }

  reflect(document: DocumentDetail): void {
    if (this.disposed) return;
    const content = documentContent(document);
    this.bridge?.load(content);
    // Only a controller's first `loaded()` restores a draft (save SPEC S15), so nothing comes back here.
    this.controller.loaded(content, document.revision);
    this.update({ title: document.title, ...(this.bridge ? {} : { initialContent: content }) });
    this.outline.refreshNow();
  }

  async refetch(): Promise<void> {
    const document = await this.client.documents.get(this.uuid);
    this.reflect(document);
  }

  currentContent(): DocumentJson {
    const content = this.bridge?.getJSON() ?? this.getSnapshot().initialContent;
    if (content === null) throw new Error('The document is not loaded yet.');
    return content;
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
}
