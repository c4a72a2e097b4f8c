import type { DocumentVersion } from '@planwright/sdk';
import { documentToHtml } from '@planwright/sdk/formats';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { OutcomeMessage, useActionOutcome } from '../sharing/action-outcome';
import { Dialog } from '../ui/dialog';
import { LoadError } from '../ui/load-error';
import { LoadingStatus } from '../ui/loading-status';
import { TimeLabel } from '../ui/time-label';
import type { PlanWorkspace } from '../workspace/plan-workspace';
import { VersionCompare } from './version-compare';
import { useVersionActions, versionQuery, versionsQuery } from './version-queries';
import { VERSION_TEXTS as TEXTS, VERSION_KIND_LABELS } from './version-texts';

/** A version as people name it: its name in quotes, else what kept it. */
export function versionLabel(version: DocumentVersion): string {
  return version.name !== null ? `“${version.name}”` : VERSION_KIND_LABELS[version.kind].toLowerCase();
}

function authorOf(version: DocumentVersion): string | null {
  const author = version.created_by;
  if (!author) return null;
  return `${author.first_name} ${author.last_name}`.trim() || author.username;
}

/**
 * File › Version history… (docs/versions.md): the plan's versions, newest first, with who kept each and when;
 * any one read (read-only, as the plan read then) or compared with another or with the plan as it is now (inline or
 * side by side, downloaded for Word or as Markdown); owners and editors name the plan as it is now and restore a
 * version, as a new change everyone with the plan open gets (the plan as it was is kept first).
 */
export function VersionHistoryDialog({
  workspace,
  title,
  canEdit,
  onClose,
}: {
  workspace: PlanWorkspace;
  title: string;
  canEdit: boolean;
  onClose: () => void;
}) {
  const client = usePlanwrightClient();
  const uuid = workspace.uuid;
  const versions = useQuery(versionsQuery(client, uuid));
  const actions = useVersionActions(uuid);
  const { outcome, run } = useActionOutcome(TEXTS.failed);
  const [viewing, setViewing] = useState<DocumentVersion | null>(null);
  const [comparing, setComparing] = useState<DocumentVersion | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  const restore = (version: DocumentVersion) =>
    void run(
      async () => {
        const restored = await actions.restore.mutateAsync(version.id);
        // A live plan gets the change through its live copy; the title (and a plan that is not live) from here.
        workspace.reflect(restored);
        setConfirming(null);
      },
      TEXTS.restored(versionLabel(version)),
    );

  let body: ReactNode;
  if (viewing) {
    body = <VersionView uuid={uuid} version={viewing} onBack={() => setViewing(null)} />;
  } else if (comparing) {
    body = (
      <VersionCompare
        uuid={uuid}
        title={title}
        version={comparing}
        versions={versions.data?.items ?? []}
        label={versionLabel}
        backLabel={TEXTS.closeView}
        onBack={() => setComparing(null)}
      />
    );
  } else if (versions.data) {
    body =
      versions.data.items.length === 0 ? (
        <p className="text-sm opacity-80">{TEXTS.none}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-base-300">
          {versions.data.items.map((version) => {
            const label = versionLabel(version);
            const author = authorOf(version);
            return (
              <li key={version.id} className="flex flex-col gap-2 py-2">
                <div className="flex flex-wrap items-center gap-2">
                  <div className="min-w-0 flex-1">
                    <p className="font-medium [overflow-wrap:anywhere]" dir="auto">
                      {version.name ?? VERSION_KIND_LABELS[version.kind]}
                    </p>
                    <p className="text-sm opacity-80">
                      <TimeLabel value={version.created_at} />
                      {author && ` · ${TEXTS.by(author)}`} ·{' '}
                      {TEXTS.progress(version.progress.finalized, version.progress.total)}
                    </p>
                  </div>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    aria-label={TEXTS.viewLabel(label)}
                    onClick={() => setViewing(version)}
                  >
                    {TEXTS.view}
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    aria-label={TEXTS.compareLabel(label)}
                    onClick={() => setComparing(version)}
                  >
                    {TEXTS.compare}
                  </button>
                  {canEdit && (
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      aria-label={TEXTS.restoreLabel(label)}
                      onClick={() => setConfirming(version.id)}
                    >
                      {TEXTS.restore}
                    </button>
                  )}
                </div>
                {confirming === version.id && (
                  <fieldset aria-label={TEXTS.restoreLabel(label)} className="flex flex-col gap-2">
                    <p className="text-sm">{TEXTS.restoreConfirm(label)}</p>
                    <div className="flex gap-2">
                      <button
                        type="button"
                        className="btn btn-primary btn-sm"
                        disabled={actions.restore.isPending}
                        onClick={() => restore(version)}
                      >
                        {TEXTS.restore}
                      </button>
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm"
                        onClick={() => setConfirming(null)}
                      >
                        Cancel
                      </button>
                    </div>
                  </fieldset>
                )}
              </li>
            );
          })}
        </ul>
      );
  } else if (versions.isError) {
    body = <LoadError title={TEXTS.loadFailed} onRetry={() => void versions.refetch()} />;
  } else {
    body = <LoadingStatus>{TEXTS.loading}</LoadingStatus>;
  }

  return (
    <Dialog title={TEXTS.dialogTitle(title)} onClose={onClose} initialFocus={closeRef}>
      <div className="mt-3 flex max-h-[70vh] flex-col gap-4 overflow-y-auto">
        <OutcomeMessage outcome={outcome} />
        {canEdit && !viewing && !comparing && (
          <NameVersionForm
            busy={actions.create.isPending}
            onSave={(name) => run(() => actions.create.mutateAsync(name), TEXTS.saved(name))}
          />
        )}
        {body}
        <div className="modal-action mt-0">
          <button ref={closeRef} type="button" className="btn" onClick={onClose}>
            {TEXTS.close}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

function NameVersionForm({ busy, onSave }: { busy: boolean; onSave: (name: string) => Promise<boolean> }) {
  const [name, setName] = useState('');
  const id = useId();
  const hintId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSave(name.trim()).then((saved) => saved && setName(''));
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-1" aria-label={TEXTS.name}>
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex min-w-48 flex-1 flex-col gap-1 text-sm">
          <label htmlFor={id}>{TEXTS.name}</label>
          <input
            id={id}
            className="input input-sm w-full"
            required
            maxLength={100}
            aria-describedby={hintId}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          {busy ? TEXTS.saving : TEXTS.save}
        </button>
      </div>
      <p id={hintId} className="text-sm opacity-80">
        {TEXTS.nameHint}
      </p>
    </form>
  );
}

/** One version as the plan read then: the same HTML an export writes (every text escaped), read-only. */
function VersionView({
  uuid,
  version,
  onBack,
}: {
  uuid: string;
  version: DocumentVersion;
  onBack: () => void;
}) {
  const client = usePlanwrightClient();
  const detail = useQuery(versionQuery(client, uuid, version.id));
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="min-w-0 flex-1 font-semibold [overflow-wrap:anywhere]" dir="auto">
          {TEXTS.viewing(versionLabel(version))}
        </h3>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onBack}>
          {TEXTS.closeView}
        </button>
      </div>
      {detail.data ? (
        <article
          className="pw-version-view rounded-box border border-base-300 p-4"
          // documentToHtml escapes every text and attribute and allows only safe links (formats SPEC F27–F29).
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the SDK's own escaped rendering of a stored tree.
          dangerouslySetInnerHTML={{ __html: documentToHtml(detail.data.content) }}
        />
      ) : detail.isError ? (
        <LoadError title={TEXTS.loadFailed} onRetry={() => void detail.refetch()} />
      ) : (
        <LoadingStatus>{TEXTS.loading}</LoadingStatus>
      )}
    </section>
  );
}
