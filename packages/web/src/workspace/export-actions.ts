import {
  ApiError,
  EXPORT_CONTENT_TYPES,
  EXPORT_FORMATS,
  type ExportFormat,
  exportFileName,
  type PlanwrightClient,
  type SaveController,
  toErrorMessage,
} from '@planwright/sdk';
import type { DocumentJson } from '@planwright/sdk/model';
import type { MenuAction } from '../ui/actions-menu';
import type { DownloadFile, SaveFile } from './export-download';
import type { PlanKind } from './plan-resource';
import { SnapshotStore } from './snapshot-store';
import { EXPORT_TEXTS } from './workspace-texts';

/** What an export needs of the workspace around it. */
export interface ExportHost {
  readonly uuid: string;
  readonly kind: PlanKind;
  readonly client: PlanwrightClient;
  readonly controller: Pick<SaveController<DocumentJson>, 'flush'>;
  /** What the editor shows now. */
  currentContent(): DocumentJson;
  /** The stored title (`''` for none). */
  currentTitle(): string;
}

export interface ExportSnapshot {
  /** The export running (the busy overlay shows it), else `null`. */
  running: { format: ExportFormat; fileName: string } | null;
  /** The last failure (`Export failed: …`), until dismissed or the next export. */
  alert: string | null;
}

const IDLE: ExportSnapshot = Object.freeze({ running: null, alert: null });

/** W38: the words for a failed export: the server's `detail`, else the error's message, else `Export error`. */
export function exportFailureMessage(error: unknown): string {
  const detail = ApiError.isInstance(error) ? error.detail?.trim() : undefined;
  const message = detail || toErrorMessage(error, '').trim();
  return message === '' ? EXPORT_TEXTS.error : EXPORT_TEXTS.failed(message);
}

/**
 * Exports of the opened document or blueprint (W35–W38): Markdown is the server's copy (`GET
 * documents/{uuid}/export`), so unsaved edits are flushed first; the other formats convert what the editor
 * holds through the conversion service (the SDK's token flow, cached, refreshed once on a 401). The file is
 * named from the title and handed to `saveFile`. One export at a time.
 */
export class ExportActions extends SnapshotStore<ExportSnapshot> {
  private disposed = false;

  constructor(
    private readonly host: ExportHost,
    private readonly saveFile: SaveFile,
  ) {
    super(IDLE);
  }

  /** Exports in `format` and downloads it; false when nothing was downloaded (the alert says why). */
  async export(format: ExportFormat): Promise<boolean> {
    if (this.getSnapshot().running || this.disposed) return false;
    const { host } = this;
    if (format === 'md' && host.kind !== 'document') {
      // Spec 001 §5: blueprint export accepts only non-Markdown formats.
      this.update({ alert: EXPORT_TEXTS.markdownExportDocumentsOnly });
      return false;
    }
    const title = host.currentTitle().trim();
    const fileName = exportFileName(title, format);
    this.update({ running: { format, fileName }, alert: null });
    try {
      const file = await this.produce(format, title, fileName);
      if (this.disposed) return false;
      if (file === null) {
        this.update({ alert: EXPORT_TEXTS.failed(EXPORT_TEXTS.saveFirstFailed) });
        return false;
      }
      this.saveFile(file);
      return true;
    } catch (error) {
      if (!this.disposed) this.update({ alert: exportFailureMessage(error) });
      return false;
    } finally {
      if (!this.disposed) this.update({ running: null });
    }
  }

  dismissAlert(): void {
    this.update({ alert: null });
  }

  /** Answers that come later are ignored. */
  dispose(): void {
    this.disposed = true;
  }

  /** The file, or `null` when the unsaved edits a Markdown export needs could not be saved. */
  private async produce(format: ExportFormat, title: string, fileName: string): Promise<DownloadFile | null> {
    const { host } = this;
    if (format === 'md') {
      // The Markdown comes from the server's copy: what is on screen must be there first.
      if (!(await host.controller.flush())) return null;
      const markdown = await host.client.documents.exportMarkdown(host.uuid);
      return { fileName, contentType: EXPORT_CONTENT_TYPES.md, data: markdown };
    }
    const exported = await host.client.conversion.exportDocument(
      host.currentContent(),
      format,
      title === '' ? {} : { title },
    );
    return {
      fileName,
      contentType: exported.contentType || EXPORT_CONTENT_TYPES[format],
      data: exported.bytes,
    };
  }
}

/** The `Export as .{format}` entries, in the SDK's order (Markdown first). */
export function exportMenuActions(exports: ExportActions): MenuAction[] {
  return EXPORT_FORMATS.map((format) => ({
    label: EXPORT_TEXTS.item(format),
    onSelect: () => void exports.export(format),
  }));
}
