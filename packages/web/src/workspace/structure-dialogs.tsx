import { type FormEvent, useId, useRef, useState } from 'react';
import { Alert } from '../ui/alert';
import { Dialog } from '../ui/dialog';
import type { StructureOutcome } from './structure-actions';
import { titleEditDecision } from './title-edit';
import { SIDEBAR_TEXTS } from './workspace-texts';

export interface TitleDialogProps {
  /** `Rename section`, `Rename subsection`, `Rename document`. */
  heading: string;
  /** The title now; the field starts with it. */
  current: string;
  placeholder?: string;
  /** Saves the new title; the dialog closes on success and shows the failure otherwise. */
  onSave: (title: string) => Promise<StructureOutcome>;
  onClose: () => void;
}

/**
 * W17: a rename. Enter or Save submits; an empty title (after trimming) and an unchanged one close it
 * silently; the SDK's title rule shows its message by the field; a failure stays open with the title typed.
 */
export function TitleDialog({ heading, current, placeholder, onSave, onClose }: TitleDialogProps) {
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
    const decision = titleEditDecision(draft, current, 'close');
    if (decision.kind === 'close' || decision.kind === 'ignore') {
      onClose();
      return;
    }
    if (decision.kind === 'invalid') {
      setFieldError(decision.message);
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    setFailure(null);
    void onSave(decision.title).then((outcome) => {
      if (outcome.ok || outcome.message === '') {
        onClose();
        return;
      }
      setBusy(false);
      setFailure(outcome.message);
    });
  };

  return (
    <Dialog title={heading} onClose={onClose} busy={busy} initialFocus={inputRef}>
      <form noValidate onSubmit={onSubmit} className="mt-4 flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={inputId} className="text-sm font-medium">
            {SIDEBAR_TEXTS.titleLabel}
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
            readOnly={busy}
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
            {SIDEBAR_TEXTS.cancel}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {busy ? SIDEBAR_TEXTS.saving : SIDEBAR_TEXTS.save}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * W17: "Delete section?" / "Delete subsection?" with "This action cannot be undone.", Cancel and Delete.
 * The focus starts on Cancel. Deleting is optimistic (W22): Delete closes at once and the item leaves the
 * list; a failure brings it back with an alert.
 */
export function DeleteStructureDialog({
  kind,
  title,
  onDelete,
  onClose,
}: {
  kind: 'section' | 'subsection';
  /** The item's title as shown, so the question names what goes. */
  title: string;
  onDelete: () => void;
  onClose: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      title={kind === 'section' ? SIDEBAR_TEXTS.deleteSection : SIDEBAR_TEXTS.deleteSubsection}
      onClose={onClose}
      initialFocus={cancelRef}
    >
      <div className="mt-3 flex flex-col gap-4">
        <p dir="auto" className="font-medium [overflow-wrap:anywhere]">
          {title}
        </p>
        <p>{SIDEBAR_TEXTS.cannotUndo}</p>
        <div className="modal-action mt-0">
          <button ref={cancelRef} type="button" className="btn btn-ghost" onClick={onClose}>
            {SIDEBAR_TEXTS.cancel}
          </button>
          <button
            type="button"
            className="btn btn-error"
            onClick={() => {
              onClose();
              onDelete();
            }}
          >
            {SIDEBAR_TEXTS.delete}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
