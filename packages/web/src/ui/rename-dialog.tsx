import { type FormEvent, useId, useRef, useState } from 'react';
import { Alert } from './alert';
import { Dialog } from './dialog';
import { renameDecision } from './rename-decision';

/** The rename dialog's own words. */
export const RENAME_DIALOG_TEXTS = {
  title: 'Rename',
  label: 'Title',
  save: 'Save',
  saving: 'Saving…',
  cancel: 'Cancel',
} as const;

export interface RenameDialogProps {
  /** The dialog's heading (`Rename document`). */
  heading: string;
  /** The title now; the field starts with it (RN1). */
  current: string;
  validate: (title: string) => string | undefined;
  /** Sends the new title; resolves when saved (the dialog then closes), rejects to keep it open (RN5). */
  onRename: (title: string) => Promise<unknown>;
  /** The words for a failed rename (`Failed to rename document`, or the stale-write text). */
  failureMessage: (error: unknown) => string;
  onClose: () => void;
  placeholder?: string;
  /** A blank title closes without a call instead of showing the rule's message (the editor's dialogs). */
  blankCloses?: boolean;
}

/**
 * Rename (spec 000 §2 "Rename and delete dialogs"; SPEC.md RN1–RN5): prefilled, Enter or Save submits, the
 * rule's message by the field, one submission at a time, the failure above the buttons.
 */
export function RenameDialog({
  heading,
  current,
  validate,
  onRename,
  failureMessage,
  onClose,
  placeholder,
  blankCloses = false,
}: RenameDialogProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const errorId = useId();
  const [draft, setDraft] = useState(current);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const decision = renameDecision(draft, current, validate, blankCloses);
    if (decision.kind === 'invalid') {
      setFieldError(decision.message);
      inputRef.current?.focus();
      return;
    }
    if (decision.kind === 'unchanged') {
      onClose();
      return;
    }
    setBusy(true);
    setFailure(null);
    onRename(decision.title).then(
      () => onClose(),
      (error: unknown) => {
        setBusy(false);
        setFailure(failureMessage(error));
      },
    );
  };

  return (
    <Dialog title={heading} onClose={onClose} busy={busy} initialFocus={inputRef}>
      <form noValidate onSubmit={onSubmit} className="mt-4 flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={inputId} className="text-sm font-medium">
            {RENAME_DIALOG_TEXTS.label}
          </label>
          <input
            ref={inputRef}
            id={inputId}
            name="title"
            dir="auto"
            autoComplete="off"
            placeholder={placeholder}
            className={`input w-full ${fieldError ? 'input-error' : ''}`}
            value={draft}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? errorId : undefined}
            onFocus={(event) => event.currentTarget.select()}
            onChange={(event) => {
              setDraft(event.target.value);
              setFieldError(null);
            }}
          />
          {fieldError && (
            <p id={errorId} className="text-sm text-error">
              {fieldError}
            </p>
          )}
        </div>
        {failure && <Alert kind="error">{failure}</Alert>}
        <div className="modal-action mt-0">
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
            {RENAME_DIALOG_TEXTS.cancel}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {busy ? RENAME_DIALOG_TEXTS.saving : RENAME_DIALOG_TEXTS.save}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
