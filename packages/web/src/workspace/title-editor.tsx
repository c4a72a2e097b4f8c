import { type FormEvent, type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import type { StructureOutcome } from './structure-actions';
import { titleEditDecision } from './title-edit';
import { TOP_BAR_TEXTS as TEXTS } from './workspace-texts';

export interface TitleEditorProps {
  /** The title as stored (`''` for none). */
  title: string;
  /** Nothing can be edited now (the document is not loaded, or a structure call runs). */
  disabled?: boolean;
  /** Saves the title; the editor closes on success and shows the failure otherwise. */
  onSave: (title: string) => Promise<StructureOutcome>;
  /** Shown for no title, and in the empty field (`Untitled Document`). */
  placeholder?: string;
  /** The field's name (`Document title`). */
  label?: string;
}

/**
 * The inline title editor (spec 001 §2 "Top bar", §4 "Title edit"; SPEC.md W11): the title is a button;
 * clicked, it becomes a field (placeholder `Untitled Document`) with Save and Cancel. Escape cancels, an
 * unchanged title just closes, an empty one does nothing, everything is disabled while saving, and a failure
 * shows `Failed to save title` or the error's own message.
 */
export function TitleEditor({
  title,
  disabled = false,
  onSave,
  placeholder = TEXTS.untitled,
  label = TEXTS.titleLabel,
}: TitleEditorProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const hintId = useId();
  const errorId = useId();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(title);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const wasEditing = useRef(false);

  // The field takes the focus when it opens; the title button gets it back when the field closes.
  useLayoutEffect(() => {
    if (editing) {
      inputRef.current?.focus();
      inputRef.current?.select();
    } else if (wasEditing.current) buttonRef.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  const close = () => {
    setEditing(false);
    setError(null);
  };

  const start = () => {
    if (disabled) return;
    setDraft(title);
    setError(null);
    setEditing(true);
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (saving) return;
    const decision = titleEditDecision(draft, title, 'ignore');
    if (decision.kind === 'ignore') return;
    if (decision.kind === 'close') {
      close();
      return;
    }
    if (decision.kind === 'invalid') {
      setError(decision.message);
      return;
    }
    setSaving(true);
    setError(null);
    void onSave(decision.title).then((outcome) => {
      setSaving(false);
      if (outcome.ok) close();
      else setError(outcome.message || TEXTS.titleFailed);
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    if (!saving) close();
  };

  if (!editing) {
    const shown = title.trim() === '' ? placeholder : title;
    return (
      <>
        <button
          ref={buttonRef}
          type="button"
          className="btn btn-ghost btn-sm h-auto min-h-8 max-w-full justify-start px-2 text-base font-semibold"
          disabled={disabled}
          aria-describedby={hintId}
          title={TEXTS.editTitleHint}
          onClick={start}
        >
          <span dir="auto" className="truncate">
            {shown}
          </span>
        </button>
        <span id={hintId} className="sr-only">
          {TEXTS.editTitleHint}
        </span>
      </>
    );
  }

  return (
    <form noValidate onSubmit={submit} className="flex min-w-0 flex-wrap items-center gap-1">
      <input
        ref={inputRef}
        className={`input input-sm w-64 max-w-full ${error ? 'input-error' : ''}`}
        dir="auto"
        aria-label={label}
        placeholder={placeholder}
        autoComplete="off"
        value={draft}
        disabled={saving}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => {
          setDraft(event.target.value);
          setError(null);
        }}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="btn btn-primary btn-sm" disabled={saving}>
        {saving && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
        {saving ? TEXTS.saving : TEXTS.save}
      </button>
      <button type="button" className="btn btn-ghost btn-sm" disabled={saving} onClick={close}>
        {TEXTS.cancel}
      </button>
      {error && (
        <p id={errorId} role="alert" className="basis-full text-sm text-error [overflow-wrap:anywhere]">
          {error}
        </p>
      )}
    </form>
  );
}
