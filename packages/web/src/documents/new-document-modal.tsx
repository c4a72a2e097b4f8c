import { type BlueprintSummary, blueprintTitle, DOCUMENT_TEXTS, publisherLabel } from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { availableBlueprintsQuery } from '../blueprints/blueprint-queries';
import { VisibilityBadge } from '../blueprints/visibility-badge';
import { Alert } from '../ui/alert';
import { Dialog } from '../ui/dialog';
import { LoadError } from '../ui/load-error';
import { LoadingStatus } from '../ui/loading-status';
import { StatusBadge } from '../ui/status-badge';
import { NEW_DOCUMENT_TEXTS as TEXTS } from './document-page-texts';
import { documentPath } from './document-paths';
import { useCreateDocument } from './document-queries';
import { newDocumentSelection } from './new-document-flow';

/**
 * The "Select a Blueprint" modal (spec 000 §2, §4, §5; SPEC.md ND1–ND6). Mounted means open: the available
 * blueprints are read when it first opens (ND1) and reused for a minute after; the selection rules are
 * `newDocumentSelection`'s. Create goes to the new document's page; with no list to choose from it makes
 * the document from the default template (ND4).
 */
export function NewDocumentModal({ onClose }: { onClose: () => void }) {
  const client = usePlanwrightClient();
  const navigate = useNavigate();
  const available = useQuery(availableBlueprintsQuery(client));
  const create = useCreateDocument();
  const [picked, setPicked] = useState<string | null>(null);
  const legendId = useId();

  const selection = newDocumentSelection(
    { blueprints: available.data?.items, failed: available.isError },
    picked,
    create.isPending,
  );

  const onCreate = () => {
    const { source } = selection;
    if (!selection.canCreate || source === null) return;
    // The default template sends no blueprint: the server copies its default (ND4).
    create.mutate(source.kind === 'blueprint' ? source.uuid : null, {
      onSuccess: (document) => navigate(documentPath(document.uuid)),
    });
  };

  return (
    <Dialog title={DOCUMENT_TEXTS.selectBlueprintTitle} onClose={onClose} busy={create.isPending}>
      <div className="mt-4 flex flex-col gap-4">
        {selection.notice === 'loading' && <LoadingStatus>{TEXTS.loading}</LoadingStatus>}
        {selection.notice === 'failed' && selection.message && (
          <LoadError title={selection.message} onRetry={() => void available.refetch()} />
        )}
        {selection.notice === 'empty' && selection.message && <Alert kind="info">{selection.message}</Alert>}

        {selection.options.length > 0 && (
          <fieldset aria-labelledby={legendId}>
            <legend id={legendId} className="sr-only">
              {TEXTS.blueprints}
            </legend>
            <ul className="flex max-h-[50vh] flex-col gap-2 overflow-y-auto pr-1">
              {selection.options.map((blueprint) => (
                <BlueprintOption
                  key={blueprint.uuid}
                  blueprint={blueprint}
                  checked={selection.selected === blueprint.uuid}
                  disabled={create.isPending}
                  onSelect={() => setPicked(blueprint.uuid)}
                />
              ))}
            </ul>
          </fieldset>
        )}

        {create.isError && <Alert kind="error">{DOCUMENT_TEXTS.createFailed}</Alert>}

        <div className="modal-action mt-0">
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={create.isPending}>
            {TEXTS.cancel}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!selection.canCreate}
            onClick={onCreate}
          >
            {create.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {create.isPending ? TEXTS.creating : DOCUMENT_TEXTS.createDocument}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/** One choice: title, publisher, description (or `No description.`), status and visibility badges. */
function BlueprintOption({
  blueprint,
  checked,
  disabled,
  onSelect,
}: {
  blueprint: BlueprintSummary;
  checked: boolean;
  disabled: boolean;
  onSelect: () => void;
}) {
  const id = useId();
  const description = blueprint.description.trim();
  return (
    <li>
      <label
        htmlFor={id}
        className={`flex cursor-pointer gap-3 rounded-box border p-3 ${
          checked ? 'border-primary bg-primary/5' : 'border-base-300'
        }`}
      >
        <input
          id={id}
          type="radio"
          name="blueprint"
          className="radio radio-primary radio-sm mt-1 shrink-0"
          value={blueprint.uuid}
          checked={checked}
          disabled={disabled}
          onChange={onSelect}
        />
        <span className="flex min-w-0 flex-1 flex-col gap-1">
          <span className="flex flex-wrap items-start justify-between gap-2">
            <span dir="auto" className="min-w-0 font-semibold [overflow-wrap:anywhere]">
              {blueprintTitle(blueprint)}
            </span>
            <span className="flex shrink-0 gap-1">
              <StatusBadge status={blueprint.status} />
              <VisibilityBadge visibility={blueprint.visibility} />
            </span>
          </span>
          <span dir="auto" className="text-sm opacity-80 [overflow-wrap:anywhere]">
            {publisherLabel(blueprint)}
          </span>
          <span dir="auto" className="line-clamp-3 text-sm [overflow-wrap:anywhere]">
            {description === '' ? DOCUMENT_TEXTS.blueprintNoDescription : blueprint.description}
          </span>
        </span>
      </label>
    </li>
  );
}
