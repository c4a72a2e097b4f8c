import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { writeFailureMessage } from '../api/write-failure';
import { ActionsMenu } from './actions-menu';
import { ConfirmDialog } from './confirm-dialog';
import { RenameDialog } from './rename-dialog';

/** The actions menu's and the two dialogs' words (`DOCUMENT_PAGE_TEXTS`, `BLUEPRINT_PAGE_TEXTS`). */
export interface RenameAndDeleteTexts {
  /** The menu button's name (`Document actions`). */
  actions: string;
  rename: string;
  delete: string;
  renameHeading: string;
  deleteHeading: string;
  deleting: string;
  cancel: string;
  deleteBody: (title: string) => string;
}

export interface RenameAndDeleteOptions {
  kind: 'document' | 'blueprint';
  texts: RenameAndDeleteTexts;
  /** The title as shown (`Untitled Document` for none), for the delete question. */
  title: string;
  /** The title as stored: the rename field starts with it (RN1). */
  current: string;
  validate: (title: string) => string | undefined;
  /** Saves the new title; rejects to keep the dialog open. */
  rename: (title: string) => Promise<unknown>;
  /** Deletes; rejects to keep the dialog open. */
  remove: () => Promise<unknown>;
  /** The spec's failure texts (`Failed to rename document`, `Failed to delete document`). */
  renameFailed: string;
  deleteFailed: string;
  /** Where a deletion leads: the list. */
  listPath: string;
}

/**
 * Rename and Delete of a detail page (documents SPEC.md RN1–RN5, DE1–DE3): the actions menu for the
 * header, and the dialog it opened. A stale write (412) says so instead of the failure text (W2); a
 * deletion replaces the page with the list.
 */
export function useRenameAndDelete(options: RenameAndDeleteOptions): { menu: ReactNode; dialogs: ReactNode } {
  const { kind, texts } = options;
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<'rename' | 'delete' | null>(null);
  const close = () => setDialog(null);

  const menu = (
    <ActionsMenu
      label={texts.actions}
      actions={[
        { label: texts.rename, onSelect: () => setDialog('rename') },
        { label: texts.delete, onSelect: () => setDialog('delete'), danger: true },
      ]}
    />
  );

  let dialogs: ReactNode = null;
  if (dialog === 'rename') {
    dialogs = (
      <RenameDialog
        heading={texts.renameHeading}
        current={options.current}
        validate={options.validate}
        onRename={options.rename}
        failureMessage={(error) => writeFailureMessage(error, options.renameFailed, kind)}
        onClose={close}
      />
    );
  } else if (dialog === 'delete') {
    dialogs = (
      <ConfirmDialog
        heading={texts.deleteHeading}
        confirmLabel={texts.delete}
        busyLabel={texts.deleting}
        cancelLabel={texts.cancel}
        onConfirm={async () => {
          await options.remove();
          // Replace: Back must not lead to the page of something that no longer exists.
          navigate(options.listPath, { replace: true });
        }}
        failureMessage={(error) => writeFailureMessage(error, options.deleteFailed, kind)}
        onClose={close}
      >
        <p dir="auto">{texts.deleteBody(options.title)}</p>
      </ConfirmDialog>
    );
  }

  return { menu, dialogs };
}
