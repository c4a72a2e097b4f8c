import {
  ApiError,
  DOCUMENT_IMPORT_FORMATS,
  type DocumentImportResult,
  type ImportFormat,
  type ImportMode,
  type ImportNote,
  type ImportProgress,
  type PlanwrightClient,
  requireImportFormat,
  type SaveController,
  toErrorMessage,
} from '@planwright/sdk';
import type { DocumentJson } from '@planwright/sdk/model';
import type { PlanDetail } from './plan-resource';
import { SnapshotStore } from './snapshot-store';
import { IMPORT_TEXTS } from './workspace-texts';

export type { ImportMode };

/** A file the user picked (a `File`: a Blob with its name). */
export type ImportFile = Blob & { readonly name: string };

/** What the File menu's Import… takes (spec 001 §2: .docx). */
export const MENU_IMPORT_FORMATS: readonly ImportFormat[] = ['docx'];
/** What the header's Import takes (spec 001 §2: "the header import also accepts .md"). */
export const HEADER_IMPORT_FORMATS: readonly ImportFormat[] = DOCUMENT_IMPORT_FORMATS;

const ACCEPT: Readonly<Record<ImportFormat, string>> = {
  docx: '.docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  md: '.md,.markdown,text/markdown',
  html: '.html,.htm,text/html',
  json: '.json,application/json',
};

/** The file input's `accept` for `formats`. */
export function acceptFor(formats: readonly ImportFormat[]): string {
  return formats.map((format) => ACCEPT[format]).join(',');
}

/** What the import needs of the workspace around it. */
export interface ImportHost {
  readonly uuid: string;
  readonly client: PlanwrightClient;
  readonly controller: Pick<SaveController<DocumentJson>, 'flush' | 'getSnapshot'>;
  /** Whether a structure call runs (the two never overlap). */
  structureBusy(): boolean;
  /** Read-only while the import runs: an edit typed meanwhile would be lost when the answer is loaded. */
  setReadOnly(readOnly: boolean): void;
  /** Loads a server answer into the editor and the save controller. */
  reflect(document: PlanDetail): void;
  /** Reads the document again and reflects it. */
  refetch(): Promise<void>;
  /** A write changed the document (caches elsewhere are stale). */
  written(): void;
}

/** Where an import stands (W29): a dialog open, the confirm, the progress dialog, or nothing. */
export type ImportStep =
  | { kind: 'idle' }
  | { kind: 'choose'; file: ImportFile; replace: boolean }
  | { kind: 'confirm'; file: ImportFile }
  | {
      kind: 'running';
      fileName: string;
      mode: ImportMode;
      /** The server's last progress event; null until the file is sent (unsaved edits are flushed first). */
      progress: ImportProgress | null;
    };

/** The report of the last import, shown until dismissed. */
export interface ShownImportReport {
  fileName: string;
  mode: ImportMode;
  notes: readonly ImportNote[];
}

export interface ImportSnapshot {
  step: ImportStep;
  report: ShownImportReport | null;
  /** The last failure (`Import failed: …`), until dismissed or the next import. */
  alert: string | null;
}

const IDLE_STEP: ImportStep = Object.freeze({ kind: 'idle' });
const IDLE: ImportSnapshot = Object.freeze({ step: IDLE_STEP, report: null, alert: null });

/** W34: the words for a failed import: the server's one-line `detail`, else the error's message. */
export function importFailureMessage(error: unknown): string {
  const detail = ApiError.isInstance(error) ? error.detail?.trim() : undefined;
  return IMPORT_TEXTS.failed(detail || toErrorMessage(error, IMPORT_TEXTS.unknownFailure));
}

/**
 * Importing a .docx or .md file into the opened document (W29–W34): pick, the dialog (merge, or replace
 * after a confirm), then the import as a structure call: read-only, unsaved edits flushed, `POST
 * documents/{uuid}/import/` (multipart `file`, `mode`), and the answered document loaded as the new content
 * and revision. A refused file changes nothing. Framework-free; the view reads it with `useSyncExternalStore`.
 */
export class ImportActions extends SnapshotStore<ImportSnapshot> {
  private disposed = false;

  constructor(private readonly host: ImportHost) {
    super(IDLE);
  }

  /**
   * A file was picked where `accepted` formats are taken: the dialog opens, or a file of another type is
   * refused (the alert names what is taken) before any request. False when refused or busy.
   */
  choose(file: ImportFile, accepted: readonly ImportFormat[]): boolean {
    if (this.getSnapshot().step.kind !== 'idle' || this.disposed) return false;
    try {
      requireImportFormat(file.name, accepted);
    } catch (error) {
      this.update({ alert: IMPORT_TEXTS.failed(toErrorMessage(error)) });
      return false;
    }
    this.update({ step: { kind: 'choose', file, replace: false }, alert: null });
    return true;
  }

  /** The dialog's `Replace document` checkbox. */
  setReplace(replace: boolean): void {
    const { step } = this.getSnapshot();
    if (step.kind === 'choose' && step.replace !== replace) this.update({ step: { ...step, replace } });
  }

  /** Cancel in the dialog or the confirm: nothing was sent. */
  cancel(): void {
    const { kind } = this.getSnapshot().step;
    if (kind === 'choose' || kind === 'confirm') this.update({ step: IDLE_STEP });
  }

  /** The dialog's Import: a merge starts; a replace asks first. */
  submit(): Promise<boolean> {
    const { step } = this.getSnapshot();
    if (step.kind !== 'choose') return Promise.resolve(false);
    if (step.replace) {
      this.update({ step: { kind: 'confirm', file: step.file } });
      return Promise.resolve(false);
    }
    return this.run(step.file, 'merge');
  }

  /** The confirm's Replace. */
  confirmReplace(): Promise<boolean> {
    const { step } = this.getSnapshot();
    if (step.kind !== 'confirm') return Promise.resolve(false);
    return this.run(step.file, 'replace');
  }

  dismissReport(): void {
    this.update({ report: null });
  }

  dismissAlert(): void {
    this.update({ alert: null });
  }

  /** Answers that come later are ignored. */
  dispose(): void {
    this.disposed = true;
  }

  private async run(file: ImportFile, mode: ImportMode): Promise<boolean> {
    const { host } = this;
    if (host.structureBusy()) {
      this.update({ step: IDLE_STEP });
      return false;
    }
    this.update({
      step: { kind: 'running', fileName: file.name, mode, progress: null },
      alert: null,
      report: null,
    });
    host.setReadOnly(true);
    const send = () =>
      host.client.documents.importFile(host.uuid, file, {
        mode,
        onProgress: (progress) => this.progressed(progress),
      });
    // Nothing unsaved: the upload starts now, while the progress dialog renders (awaiting first would wait
    // for that render, a whole-page restyle: 70–280 ms before the request left).
    const early = host.controller.getSnapshot().dirty ? undefined : send();
    try {
      // Unsaved edits first: a replace must not be overwritten by a save of the old text, a merge keeps them.
      if (!early && !(await host.controller.flush())) {
        this.finish({ alert: IMPORT_TEXTS.failed(IMPORT_TEXTS.saveFirstFailed) });
        return false;
      }
      let answer: DocumentImportResult;
      try {
        answer = await (early ?? send());
      } catch (error) {
        this.finish({ alert: importFailureMessage(error) });
        return false;
      }
      if (this.disposed) return false;
      host.written();
      try {
        // The answer is the whole updated document: its content and revision become the editor's base.
        if (answer.document.revision === null) await host.refetch();
        else host.reflect(answer.document);
      } catch (error) {
        // The import is stored; only reading it back failed. Said, and the report still shows.
        this.finish({
          alert: IMPORT_TEXTS.readBackFailed(toErrorMessage(error)),
          report: { fileName: file.name, mode, notes: answer.report.notes },
        });
        return false;
      }
      this.finish({ report: { fileName: file.name, mode, notes: answer.report.notes } });
      return true;
    } finally {
      host.setReadOnly(false);
      if (!this.disposed && this.getSnapshot().step.kind === 'running') this.update({ step: IDLE_STEP });
    }
  }

  /** The progress dialog follows the server's phases while the import runs. */
  private progressed(progress: ImportProgress): void {
    const { step } = this.getSnapshot();
    if (!this.disposed && step.kind === 'running') this.update({ step: { ...step, progress } });
  }

  private finish(patch: Partial<ImportSnapshot>): void {
    if (!this.disposed) this.update({ ...patch, step: IDLE_STEP });
  }
}
