import type { ImportProgress } from '@planwright/sdk';
import { useRef } from 'react';
import { Alert } from '../ui/alert';
import { Dialog } from '../ui/dialog';
import type { ImportActions, ShownImportReport } from './import-actions';
import { IMPORT_TEXTS as TEXTS, WORKSPACE_TEXTS } from './workspace-texts';

/**
 * W29: the file was picked: its name, `Replace document` (unchecked: merge), Cancel and Import. Import with
 * Replace ticked asks {@link ImportConfirmDialog} first.
 */
export function ImportDialog({
  imports,
  fileName,
  replace,
}: {
  imports: ImportActions;
  fileName: string;
  replace: boolean;
}) {
  const importRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog title={TEXTS.dialogHeading} onClose={() => imports.cancel()} initialFocus={importRef}>
      <form
        className="mt-3 flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          void imports.submit();
        }}
      >
        <p className="font-mono text-sm [overflow-wrap:anywhere]" dir="auto" data-testid="import-file-name">
          {fileName}
        </p>
        <p className="text-sm">{TEXTS.intro}</p>
        <label className="flex cursor-pointer items-start gap-3">
          <input
            type="checkbox"
            className="checkbox mt-0.5"
            checked={replace}
            onChange={(event) => imports.setReplace(event.target.checked)}
          />
          <span className="flex flex-col">
            <span>{TEXTS.replace}</span>
            <span className="text-sm opacity-80">{TEXTS.replaceHelp}</span>
          </span>
        </label>
        <div className="modal-action mt-0">
          <button type="button" className="btn btn-ghost" onClick={() => imports.cancel()}>
            {TEXTS.cancel}
          </button>
          <button ref={importRef} type="submit" className="btn btn-primary">
            {TEXTS.import}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** W29: replacing loses the document's text, so it is confirmed; the focus starts on Cancel. */
export function ImportConfirmDialog({ imports, fileName }: { imports: ImportActions; fileName: string }) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog title={TEXTS.confirmHeading} onClose={() => imports.cancel()} initialFocus={cancelRef}>
      <div className="mt-3 flex flex-col gap-4">
        <p>{TEXTS.confirmBody}</p>
        <p className="font-mono text-sm [overflow-wrap:anywhere]" dir="auto">
          {fileName}
        </p>
        <div className="modal-action mt-0">
          <button ref={cancelRef} type="button" className="btn btn-ghost" onClick={() => imports.cancel()}>
            {TEXTS.cancel}
          </button>
          <button type="button" className="btn btn-error" onClick={() => void imports.confirmReplace()}>
            {TEXTS.confirmReplace}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

const PROGRESS_STEPS: Readonly<Record<ImportProgress['phase'], number>> = {
  uploading: 1,
  queued: 2,
  converting: 3,
  saving: 4,
};

/**
 * What the progress dialog says for the server's last event, and its step of four (0 before the file is
 * sent). Real figures only: the time converting and its limit, never an invented percentage.
 */
export function importProgressView(
  fileName: string,
  progress: ImportProgress | null,
): { step: number; message: string } {
  if (!progress) return { step: 0, message: TEXTS.progressMessage(fileName) };
  const step = PROGRESS_STEPS[progress.phase];
  switch (progress.phase) {
    case 'uploading':
      return { step, message: TEXTS.progressUploading(fileName) };
    case 'queued':
      return { step, message: TEXTS.progressQueued(progress.ahead) };
    case 'converting':
      return {
        step,
        message: TEXTS.progressConverting(
          Math.floor(progress.elapsedMs / 1000),
          Math.round(progress.limitMs / 100) / 10,
        ),
      };
    case 'saving':
      return { step, message: TEXTS.progressSaving };
  }
}

/**
 * W30: "Importing document" while the import runs; it cannot be closed (it goes when the import ends). It
 * shows the server's phase (uploading, waiting for a converter, converting with its time and limit, saving)
 * and a progress bar of the four steps that says the same in `aria-valuetext`.
 */
export function ImportProgressDialog({
  fileName,
  progress = null,
}: {
  fileName: string;
  progress?: ImportProgress | null;
}) {
  const { step, message } = importProgressView(fileName, progress);
  const steps = Object.keys(PROGRESS_STEPS).length;
  return (
    <Dialog title={TEXTS.progressHeading} onClose={() => {}} busy>
      <div className="mt-3 flex flex-col gap-3" aria-busy="true">
        <p className="[overflow-wrap:anywhere]" data-testid="import-progress-message">
          {message}
        </p>
        {step === 0 ? (
          <progress className="progress progress-primary w-full" aria-label={TEXTS.progressHeading} />
        ) : (
          <progress
            className="progress progress-primary w-full"
            aria-label={TEXTS.progressHeading}
            value={step}
            max={steps}
            aria-valuetext={TEXTS.progressStep(step, steps, message)}
          />
        )}
      </div>
    </Dialog>
  );
}

/** W31: what the import changed on the way in, as the server counted it, until dismissed. */
export function ImportReportNotice({
  report,
  onDismiss,
}: {
  report: ShownImportReport;
  onDismiss: () => void;
}) {
  return (
    <Alert kind="info">
      <div className="flex flex-wrap items-start justify-between gap-2" data-testid="import-report">
        <div className="flex min-w-0 flex-col gap-1">
          <span className="font-semibold [overflow-wrap:anywhere]">
            {TEXTS.reportHeading(report.fileName)}
          </span>
          {report.notes.length === 0 ? (
            <span>{TEXTS.reportClean}</span>
          ) : (
            <>
              <span>{TEXTS.reportNotes}</span>
              <ul className="list-disc pl-5">
                {report.notes.map((note) => (
                  <li key={note.code} data-note-code={note.code} data-count={note.count}>
                    {note.message}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
        <button type="button" className="btn btn-ghost btn-xs" onClick={onDismiss}>
          {WORKSPACE_TEXTS.dismiss}
        </button>
      </div>
    </Alert>
  );
}
