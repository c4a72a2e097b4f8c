import { validateDocumentTitle } from '@planwright/sdk';
import { useRef } from 'react';
import { Dialog } from '../ui/dialog';
import { RenameDialog } from '../ui/rename-dialog';
import type { StructureOutcome } from './structure-actions';
import { SIDEBAR_TEXTS, WORKSPACE_TEXTS } from './workspace-texts';

export interface TitleDialogProps {
  /** `Rename section`, `Rename subsection`, `Rename document`. */
  heading: string;
  /** The title now; the field starts with it. */
  current: string;
  placeholder?: string;
  /** A blank title closes silently (the default) instead of showing "Title cannot be empty". */
  blankCloses?: boolean;
  /** Saves the new title; the dialog closes on success and shows the failure otherwise. */
  onSave: (title: string) => Promise<StructureOutcome>;
  onClose: () => void;
}

/** A failed save's words travel as the rejection, so the shared dialog shows them and stays open. */
class TitleSaveFailure extends Error {}

/**
 * W17: a rename, in the shared rename dialog. Enter or Save submits; an empty title (after trimming) and an
 * unchanged one close it silently; the SDK's title rule shows its message by the field; a failure stays open
 * with the title typed.
 */
export function TitleDialog({
  heading,
  current,
  placeholder,
  blankCloses = true,
  onSave,
  onClose,
}: TitleDialogProps) {
  return (
    <RenameDialog
      heading={heading}
      current={current}
      placeholder={placeholder}
      blankCloses={blankCloses}
      validate={validateDocumentTitle}
      onRename={async (title) => {
        const outcome = await onSave(title);
        // An ignored action (an empty message) closes like a success.
        if (!outcome.ok && outcome.message !== '') throw new TitleSaveFailure(outcome.message);
      }}
      failureMessage={(error) =>
        error instanceof TitleSaveFailure ? error.message : WORKSPACE_TEXTS.structureFailed
      }
      onClose={onClose}
    />
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
