import { ApiError } from '@planwright/sdk';
import { type ReactNode, useRef, useState } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { Alert } from './alert';
import { Dialog } from './dialog';
import { TextField } from './text-field';

/** The words of a confirmation that needs the password again (docs/auth.md, sensitive API actions). */
const REAUTHENTICATE_TEXTS = {
  password: 'Your password',
  incorrect: 'Incorrect password.',
  failed: 'That did not work. Please try again.',
} as const;

/** The server's "sign in again first" for a sensitive call (`428 reauthentication_required`), with its sentence. */
function reauthenticationAsked(error: unknown): string | null {
  return ApiError.isInstance(error) &&
    error.status === 428 &&
    error.serverCode === 'reauthentication_required'
    ? (error.detail ?? null)
    : null;
}

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
  const { auth } = usePlanwrightClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // Set when the server asked for the password again: the dialog asks for it, then confirms once more.
  const [asked, setAsked] = useState<string | null>(null);
  const [password, setPassword] = useState('');

  const run = async () => {
    if (asked !== null) {
      const renewed = await auth.reauthenticate(password);
      if (renewed.kind !== 'authenticated') {
        setFailure(renewed.kind === 'invalid' ? REAUTHENTICATE_TEXTS.incorrect : REAUTHENTICATE_TEXTS.failed);
        return;
      }
    }
    try {
      await onConfirm();
    } catch (error) {
      const sentence = reauthenticationAsked(error);
      if (sentence !== null) {
        setAsked(sentence);
        setPassword('');
      } else setFailure(failureMessage(error));
    }
  };

  const confirm = () => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    run().then(
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
        {asked !== null && (
          <div className="flex flex-col gap-2">
            <p>{asked}</p>
            <TextField
              name="password"
              label={REAUTHENTICATE_TEXTS.password}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </div>
        )}
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
