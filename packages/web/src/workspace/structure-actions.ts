import {
  ApiError,
  type DocumentOutline,
  InvalidInputError,
  type SaveController,
  type WriteOptions,
} from '@planwright/sdk';
import { type DocumentJson, NEW_SECTION_TITLE, NEW_SUBSECTION_TITLE } from '@planwright/sdk/model';
import { isStaleWrite, staleWriteMessage } from '../api/write-failure';
import type { PlanDetail, PlanResource } from './plan-resource';
import { SnapshotStore } from './snapshot-store';
import {
  canDeleteSection,
  dropOrder,
  type MoveDirection,
  moveOrder,
  type PendingStructureChange,
  subsectionCreateOrder,
} from './structure-rules';
import { TOP_BAR_TEXTS, WORKSPACE_TEXTS } from './workspace-texts';

/** What the structure calls need of the workspace around them. */
export interface StructureHost {
  readonly uuid: string;
  /** The calls on the document or blueprint being edited. */
  readonly resource: PlanResource;
  readonly controller: Pick<SaveController<DocumentJson>, 'flush' | 'getSnapshot' | 'loaded'>;
  /** Makes the editor read-only (or editable again). */
  setReadOnly(readOnly: boolean): void;
  /** Loads a server answer into the editor and the save controller. */
  reflect(document: PlanDetail): void;
  /** Reads the document again and reflects it. */
  refetch(): Promise<void>;
  /** The editor's content now. */
  currentContent(): DocumentJson;
  /** The stored title changed. */
  setTitle(title: string): void;
  /** The live outline (what the sidebar lists). */
  currentOutline(): DocumentOutline;
  /** A write changed the document (caches elsewhere are stale). */
  written(): void;
}

/** What a structure call came to; a failure carries the words to show (`''` for an ignored action). */
export type StructureOutcome<T = undefined> = { ok: true; value: T } | { ok: false; message: string };

export interface StructureSnapshot {
  /** A structure call (or a title write) is running: the editor is read-only, the actions disabled. */
  busy: boolean;
  /** What the sidebar shows before the server has answered (W22 optimistic delete, W18 drop). */
  pending: readonly PendingStructureChange[];
  /** The last failure, until dismissed or the next call. */
  alert: string | null;
  /** Something the user should know that is not a failure (a reload after a stale write). */
  notice: string | null;
}

const IDLE: StructureSnapshot = Object.freeze({ busy: false, pending: [], alert: null, notice: null });

/**
 * The words for a failed structure call: the stale-write text for a 412, the server's own `detail` for a
 * refusal it explained (`A document keeps at least one section.`), a validation message, else `fallback`.
 */
export function structureFailureMessage(
  error: unknown,
  fallback: string,
  kind: PlanResource['kind'] = 'document',
): string {
  if (isStaleWrite(error)) return staleWriteMessage(kind);
  if (ApiError.isInstance(error) && error.status < 500 && error.detail?.trim()) return error.detail;
  if (InvalidInputError.isInstance(error)) return error.message;
  return fallback;
}

interface RunOptions<A, T> {
  /** Shown in the sidebar while the call runs; dropped afterwards (the answer, or the failure, rules). */
  pending?: PendingStructureChange;
  call: (options: WriteOptions) => Promise<A>;
  /** Brings the answer into the editor and the controller; by default the document is read again. */
  reflect?: (answer: A) => void | Promise<void>;
  value: (answer: A) => T;
  /** The words when the call fails. */
  failure: string;
  /** A failed call leaves the editor behind the server (a reorder): read it again. */
  refetchOnFailure?: boolean;
  /** `alert`: failures show in the workspace's alert; `return`: the caller shows them (a dialog). */
  report: 'alert' | 'return';
}

/**
 * Every change of structure goes one way (W19): the editor turns read-only, unsaved edits are flushed (a
 * failed flush aborts with the error shown), the call is made with `If-Match` of the revision the flush
 * confirmed, and the server's answer is reflected: a create answers the whole document and is loaded as
 * it is; updates and deletes answer the item only, so the document is read again. One call at a time.
 */
export class StructureActions extends SnapshotStore<StructureSnapshot> {
  private disposed = false;

  constructor(private readonly host: StructureHost) {
    super(IDLE);
  }

  /** W20: `New Section` after `after` (the current section), else last. Resolves to the new uuid. */
  createSection(after: string | null): Promise<StructureOutcome<string>> {
    const { resource, uuid } = this.host;
    return this.run({
      call: (options) =>
        resource.sections.create(
          uuid,
          after === null ? { title: NEW_SECTION_TITLE } : { title: NEW_SECTION_TITLE, after },
          options,
        ),
      reflect: (answer) => (answer.parent ? this.host.reflect(answer.parent) : this.host.refetch()),
      value: (answer) => answer.uuid,
      failure: WORKSPACE_TEXTS.structureFailed,
      report: 'alert',
    });
  }

  /** W20: `New Subsection` in `sectionUuid`, right after `afterSubsection`, else first. */
  createSubsection(sectionUuid: string, afterSubsection: string | null): Promise<StructureOutcome<string>> {
    const { resource, uuid } = this.host;
    const section = this.host.currentOutline().sections.find((candidate) => candidate.uuid === sectionUuid);
    if (!section) return Promise.resolve({ ok: false, message: '' });
    const order = subsectionCreateOrder(section, afterSubsection);
    return this.run({
      call: (options) =>
        resource.sections.subsections.create(
          uuid,
          sectionUuid,
          { title: NEW_SUBSECTION_TITLE, order },
          options,
        ),
      reflect: (answer) => (answer.parent ? this.host.reflect(answer.parent) : this.host.refetch()),
      value: (answer) => answer.uuid,
      failure: WORKSPACE_TEXTS.structureFailed,
      report: 'alert',
    });
  }

  /** Renames a section (`PATCH …/sections/{sid}/` with `title`); the dialog shows a failure. */
  renameSection(sectionUuid: string, title: string): Promise<StructureOutcome> {
    const { resource, uuid } = this.host;
    return this.run({
      call: (options) => resource.sections.update(uuid, sectionUuid, { title }, options),
      value: () => undefined,
      failure: WORKSPACE_TEXTS.structureFailed,
      report: 'return',
    });
  }

  /** Renames a subsection; the dialog shows a failure. */
  renameSubsection(sectionUuid: string, subsectionUuid: string, title: string): Promise<StructureOutcome> {
    const { resource, uuid } = this.host;
    return this.run({
      call: (options) =>
        resource.sections.subsections.update(uuid, sectionUuid, subsectionUuid, { title }, options),
      value: () => undefined,
      failure: WORKSPACE_TEXTS.structureFailed,
      report: 'return',
    });
  }

  /**
   * W22: deletes a section, hidden from the sidebar at once and back with an alert if the call fails. The
   * only section left is refused here, with the reason shown, without a call.
   */
  deleteSection(sectionUuid: string): Promise<StructureOutcome> {
    if (!canDeleteSection(this.host.currentOutline())) {
      const message = WORKSPACE_TEXTS.lastSection(this.host.resource.kind);
      this.update({ alert: message });
      return Promise.resolve({ ok: false, message });
    }
    const { resource, uuid } = this.host;
    return this.run({
      pending: { kind: 'hide', uuid: sectionUuid },
      call: (options) => resource.sections.delete(uuid, sectionUuid, options),
      value: () => undefined,
      failure: WORKSPACE_TEXTS.deleteFailed,
      report: 'alert',
    });
  }

  /** W22: deletes a subsection, optimistically like a section. */
  deleteSubsection(sectionUuid: string, subsectionUuid: string): Promise<StructureOutcome> {
    const { resource, uuid } = this.host;
    return this.run({
      pending: { kind: 'hide', uuid: subsectionUuid },
      call: (options) => resource.sections.subsections.delete(uuid, sectionUuid, subsectionUuid, options),
      value: () => undefined,
      failure: WORKSPACE_TEXTS.deleteFailed,
      report: 'alert',
    });
  }

  /** W21: one place up or down; ignored without a call at the list's edges. */
  moveSection(sectionUuid: string, direction: MoveDirection): Promise<StructureOutcome> {
    const sections = this.host.currentOutline().sections;
    const index = sections.findIndex((section) => section.uuid === sectionUuid);
    return this.reorderSection(sectionUuid, moveOrder(index, sections.length, direction));
  }

  /** W18: a drop at `toIndex` (0-based, in the sidebar's list); a drop in place sends nothing. */
  moveSectionTo(sectionUuid: string, toIndex: number): Promise<StructureOutcome> {
    const sections = this.host.currentOutline().sections;
    const index = sections.findIndex((section) => section.uuid === sectionUuid);
    return this.reorderSection(sectionUuid, dropOrder(index, toIndex, sections.length));
  }

  /** W21: a subsection one place up or down in its section; the first up and the last down are ignored. */
  moveSubsection(
    sectionUuid: string,
    subsectionUuid: string,
    direction: MoveDirection,
  ): Promise<StructureOutcome> {
    const section = this.host.currentOutline().sections.find((candidate) => candidate.uuid === sectionUuid);
    const subsections = section?.subsections ?? [];
    const index = subsections.findIndex((subsection) => subsection.uuid === subsectionUuid);
    const order = moveOrder(index, subsections.length, direction);
    if (order === null) return Promise.resolve({ ok: false, message: '' });
    const { resource, uuid } = this.host;
    return this.run({
      pending: { kind: 'move-subsection', sectionUuid, uuid: subsectionUuid, order },
      call: (options) =>
        resource.sections.subsections.update(uuid, sectionUuid, subsectionUuid, { order }, options),
      value: () => undefined,
      failure: WORKSPACE_TEXTS.reorderFailed,
      refetchOnFailure: true,
      report: 'alert',
    });
  }

  /**
   * W12: the document's title, through the same path: flush, read-only, `PATCH` with `If-Match`. The answer's
   * revision becomes the controller's base with the editor's content as it is (read-only since the flush
   * confirmed it), so the next autosave is not refused as stale. The title editor shows a failure.
   */
  saveTitle(title: string): Promise<StructureOutcome> {
    const { resource, uuid } = this.host;
    return this.run({
      call: (options) => resource.update(uuid, { title }, options),
      reflect: (answer) => {
        this.host.setTitle(answer.title);
        this.host.controller.loaded(this.host.currentContent(), answer.revision);
      },
      value: () => undefined,
      failure: TOP_BAR_TEXTS.titleFailed,
      report: 'return',
    });
  }

  /** Shows a failure that happened outside a structure call (a save before leaving the page). */
  showAlert(message: string): void {
    this.update({ alert: message });
  }

  dismissAlert(): void {
    this.update({ alert: null });
  }

  dismissNotice(): void {
    this.update({ notice: null });
  }

  dispose(): void {
    this.disposed = true;
  }

  private reorderSection(sectionUuid: string, order: number | null): Promise<StructureOutcome> {
    if (order === null) return Promise.resolve({ ok: false, message: '' });
    const { resource, uuid } = this.host;
    return this.run({
      pending: { kind: 'move-section', uuid: sectionUuid, order },
      call: (options) => resource.sections.update(uuid, sectionUuid, { order }, options),
      value: () => undefined,
      failure: WORKSPACE_TEXTS.reorderFailed,
      refetchOnFailure: true,
      report: 'alert',
    });
  }

  private async run<A, T>(options: RunOptions<A, T>): Promise<StructureOutcome<T>> {
    if (this.getSnapshot().busy || this.disposed) return { ok: false, message: '' };
    const { host } = this;
    const pending = options.pending ? [options.pending] : [];
    this.update({ busy: true, pending, alert: null, notice: null });
    // Read-only before the flush: an edit typed while it runs would be lost when the answer is loaded.
    host.setReadOnly(true);
    let outcome: StructureOutcome<T>;
    try {
      outcome = await this.attempt(options);
    } finally {
      host.setReadOnly(false);
      if (!this.disposed) this.update({ busy: false, pending: [] });
    }
    if (!outcome.ok && outcome.message !== '' && options.report === 'alert' && !this.disposed) {
      this.update({ alert: outcome.message });
    }
    return outcome;
  }

  private async attempt<A, T>(options: RunOptions<A, T>): Promise<StructureOutcome<T>> {
    const { host } = this;
    const saved = await host.controller.flush();
    if (!saved) return { ok: false, message: WORKSPACE_TEXTS.saveFailed };
    const revision = host.controller.getSnapshot().revision;
    let answer: A;
    try {
      answer = await options.call(revision === null ? {} : { ifMatch: revision });
    } catch (error) {
      if (isStaleWrite(error)) {
        // The flush just confirmed there was nothing unsaved: loading the newer version loses nothing.
        await this.refetchQuietly();
        const message = staleWriteMessage(host.resource.kind);
        if (options.report === 'alert') {
          this.update({ notice: message });
          return { ok: false, message: '' };
        }
        return { ok: false, message };
      }
      if (options.refetchOnFailure) await this.refetchQuietly();
      return { ok: false, message: structureFailureMessage(error, options.failure, host.resource.kind) };
    }
    host.written();
    try {
      await (options.reflect ? options.reflect(answer) : host.refetch());
    } catch (error) {
      // The change is made; only reading it back failed. The next autosave's If-Match tells the rest.
      return {
        ok: false,
        message: structureFailureMessage(error, WORKSPACE_TEXTS.loadFailed, host.resource.kind),
      };
    }
    return { ok: true, value: options.value(answer) };
  }

  private async refetchQuietly(): Promise<void> {
    try {
      await this.host.refetch();
    } catch {
      // The editor keeps what it shows; the next save's If-Match finds out if it is behind.
    }
  }
}
