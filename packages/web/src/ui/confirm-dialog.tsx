import { type ReactNode, useRef, useState } from 'react';
import { Alert } from './alert';
import { Dialog } from './dialog';

export interface ConfirmDialogProps {
  heading: string;
  /** What will happen, said plainly. */
  children: ReactNode;
  /** The confirming button (`Delete`) and its busy label. */
  confirmLabel: string;
  busyLabel: string;
  cancelLabel?: string;
  /** Does it; resolves when done (the caller moves on), rejects to keep the dialog open with the failure. */
  onConfirm: () => Promise<unknown>;
  failureMessage: (error: unknown) => string;
  onClose: () => void;
}

/**
 * A confirmation for something that cannot be undone (spec 000 §2 delete dialogs). The focus starts on
 * Cancel, so Enter right after opening does not destroy anything.
 */
export function ConfirmDialog({
  heading,
  children,
  confirmLabel,
  busyLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  failureMessage,
  onClose,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const confirm = () => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    onConfirm().then(
      () => setBusy(false),
      (error: unknown) => {
        setBusy(false);
        setFailure(failureMessage(error));
      },
    );
  };

  return (
    <Dialog title={heading} onClose={onClose} busy={busy} initialFocus={cancelRef}>
      <div className="mt-3 flex flex-col gap-4">
        <div className="[overflow-wrap:anywhere]">{children}</div>
        {failure && <Alert kind="error">{failure}</Alert>}
        <div className="modal-action mt-0">
          <button ref={cancelRef} type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
            {cancelLabel}
          </button>
          <button type="button" className="btn btn-error" onClick={confirm} disabled={busy}>
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {busy ? busyLabel : confirmLabel}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
