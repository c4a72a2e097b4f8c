import { toErrorMessage } from '@planwright/sdk';
import { useRef, useState } from 'react';
import { Alert } from '../ui/alert';
import { Dialog } from '../ui/dialog';
import { plainTextOf } from './plain-text';
import { CONFLICT_TEXTS as TEXTS } from './workspace-texts';

export interface ConflictDialogProps {
  /** My version: what the editor holds and the server refused to overwrite. */
  mine: unknown;
  onReloadTheirs: () => Promise<unknown>;
  onKeepMine: () => Promise<unknown>;
  /** Writes text to the clipboard; rejects when the browser refuses. */
  writeClipboard: (text: string) => Promise<void>;
}

/** The browser's clipboard, when it offers one (only in secure contexts). */
export function browserClipboardWrite(text: string): Promise<void> {
  const clipboard = globalThis.navigator?.clipboard;
  if (!clipboard) return Promise.reject(new Error('No clipboard'));
  return clipboard.writeText(text);
}

/**
 * W9: the document was saved elsewhere since this tab loaded it, so the autosave stopped instead of
 * overwriting. Three ways out: "Reload theirs", "Keep mine (overwrite)", "Copy mine to clipboard" (as
 * Markdown-like text, to keep it anyway). There is no way to close it without choosing: Escape and the
 * backdrop do nothing, since an unresolved conflict leaves the autosave paused.
 */
export function ConflictDialog({ mine, onReloadTheirs, onKeepMine, writeClipboard }: ConflictDialogProps) {
  const reloadRef = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const [failure, setFailure] = useState<string | null>(null);

  const choose = (action: () => Promise<unknown>) => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    action().then(
      () => setBusy(false),
      (error: unknown) => {
        setBusy(false);
        setFailure(toErrorMessage(error));
      },
    );
  };

  const copyMine = () => {
    writeClipboard(plainTextOf(mine)).then(
      () => setCopy('copied'),
      () => setCopy('failed'),
    );
  };

  return (
    <Dialog title={TEXTS.heading} onClose={() => {}} busy={busy} initialFocus={reloadRef}>
      <div className="mt-3 flex flex-col gap-4">
        <p>{TEXTS.body}</p>
        {failure && <Alert kind="error">{failure}</Alert>}
        {copy === 'failed' && <Alert kind="warning">{TEXTS.copyFailed}</Alert>}
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className="btn btn-ghost" onClick={copyMine}>
            {TEXTS.copyMine}
          </button>
          {copy === 'copied' && (
            <span role="status" className="self-center text-sm text-success">
              {TEXTS.copied}
            </span>
          )}
          <button
            ref={reloadRef}
            type="button"
            className="btn"
            disabled={busy}
            onClick={() => choose(onReloadTheirs)}
          >
            {TEXTS.reloadTheirs}
          </button>
          <button
            type="button"
            className="btn btn-warning"
            disabled={busy}
            onClick={() => choose(onKeepMine)}
          >
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {TEXTS.keepMine}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
