import type { CreatedShareLink, ShareLink } from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { useBrowserPorts } from '../platform/browser-ports-context';
import { CopyableSecret } from '../ui/copyable-secret';
import { LoadError } from '../ui/load-error';
import { LoadingStatus } from '../ui/loading-status';
import { TimeLabel } from '../ui/time-label';
import { versionsQuery } from '../versions/version-queries';
import type { RunAction } from './action-outcome';
import { shareLinksQuery, useShareLinkActions } from './share-link-queries';
import {
  readingDuration,
  shareLinkName,
  shareLinkShows,
  SHARE_LINK_TEXTS as TEXTS,
} from './share-link-texts';

/** `YYYY-MM-DD` of a moment, in the reader's own time zone (what a date input holds). */
function localDay(time: number): string {
  const date = new Date(time);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The end of a chosen day in the reader's time zone: a link "expiring on the 31st" works all that day. */
function endOfDay(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999);
}

/**
 * The Share dialog's read-only links (docs/versions.md "Share links"), for those who may invite people: make a
 * link to the latest finalized subsections or to a named version, with an expiry, a password and downloads;
 * copy it once; see each link's views, readers and time per section; turn a link off.
 */
export function ShareLinksSection({ uuid, run }: { uuid: string; run: RunAction }) {
  const client = usePlanwrightClient();
  const links = useQuery(shareLinksQuery(client, uuid));
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="font-semibold">
        {TEXTS.heading}
      </h3>
      <p className="text-sm opacity-80">{TEXTS.intro}</p>
      <NewLinkForm uuid={uuid} run={run} />
      {links.data ? (
        <LinkList links={links.data} uuid={uuid} run={run} />
      ) : links.isError ? (
        <LoadError title={TEXTS.loadFailed} onRetry={() => void links.refetch()} />
      ) : (
        <LoadingStatus>{TEXTS.loading}</LoadingStatus>
      )}
    </section>
  );
}

function NewLinkForm({ uuid, run }: { uuid: string; run: RunAction }) {
  const client = usePlanwrightClient();
  const { clock } = useBrowserPorts();
  const versions = useQuery(versionsQuery(client, uuid));
  const actions = useShareLinkActions(uuid);
  const [label, setLabel] = useState('');
  const [version, setVersion] = useState('');
  const [expires, setExpires] = useState('');
  const [password, setPassword] = useState('');
  const [allowDownload, setAllowDownload] = useState(false);
  const [created, setCreated] = useState<CreatedShareLink | null>(null);
  const ids = { label: useId(), version: useId(), expires: useId(), password: useId(), hint: useId() };
  const named = (versions.data?.items ?? []).filter((entry) => entry.name !== null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const made: { link?: CreatedShareLink } = {};
    void run(async () => {
      made.link = await actions.create.mutateAsync({
        label,
        version: version || null,
        expiresAt: expires ? endOfDay(expires) : null,
        password: password || null,
        allowDownload,
      });
    }, TEXTS.created).then((ok) => {
      if (!ok || !made.link) return;
      setCreated(made.link);
      setLabel('');
      setPassword('');
    });
  };

  return (
    <>
      <form className="flex flex-col gap-2 rounded-box border border-base-300 p-3" onSubmit={submit}>
        <div className="grid gap-2 sm:grid-cols-2">
          <div className="flex flex-col gap-1 text-sm">
            <label htmlFor={ids.label}>{TEXTS.label}</label>
            <input
              id={ids.label}
              className="input input-sm w-full"
              value={label}
              maxLength={100}
              placeholder={TEXTS.labelPlaceholder}
              onChange={(event) => setLabel(event.target.value)}
            />
          </div>
          <div className="flex flex-col gap-1 text-sm">
            <label htmlFor={ids.version}>{TEXTS.shows}</label>
            <select
              id={ids.version}
              className="select select-sm w-full"
              value={version}
              onChange={(event) => setVersion(event.target.value)}
            >
              <option value="">{TEXTS.latestFinalized}</option>
              {named.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {`Version “${entry.name}”`}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1 text-sm">
            <label htmlFor={ids.expires}>{TEXTS.expires}</label>
            <input
              id={ids.expires}
              type="date"
              className="input input-sm w-full"
              value={expires}
              min={localDay(clock.now())}
              onChange={(event) => setExpires(event.target.value)}
            />
          </div>
          <div className="flex flex-col gap-1 text-sm">
            <label htmlFor={ids.password}>{TEXTS.password}</label>
            <input
              id={ids.password}
              type="password"
              autoComplete="new-password"
              className="input input-sm w-full"
              value={password}
              minLength={6}
              maxLength={128}
              aria-describedby={ids.hint}
              onChange={(event) => setPassword(event.target.value)}
            />
            <span id={ids.hint} className="text-xs opacity-80">
              {TEXTS.passwordHint}
            </span>
          </div>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="checkbox checkbox-sm"
            checked={allowDownload}
            onChange={(event) => setAllowDownload(event.target.checked)}
          />
          {TEXTS.allowDownload}
        </label>
        <div>
          <button type="submit" className="btn btn-sm btn-primary" disabled={actions.create.isPending}>
            {actions.create.isPending ? TEXTS.creating : TEXTS.create}
          </button>
        </div>
      </form>
      {created && <CopyableSecret label={TEXTS.newLink} value={created.url} />}
    </>
  );
}

function LinkList({ links, uuid, run }: { links: ShareLink[]; uuid: string; run: RunAction }) {
  const actions = useShareLinkActions(uuid);
  if (links.length === 0) return <p className="text-sm opacity-80">{TEXTS.none}</p>;
  return (
    <ul className="flex flex-col divide-y divide-base-300">
      {links.map((link) => {
        const name = shareLinkName(link);
        return (
          <li key={link.id} className="flex flex-col gap-1 py-2 text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <span className="min-w-0 flex-1 font-medium break-words" dir="auto">
                {name}
              </span>
              <span className={`badge ${link.status === 'active' ? 'badge-success' : 'badge-ghost'}`}>
                {TEXTS.status[link.status]}
              </span>
              {link.status === 'active' && (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={TEXTS.revokeLabel(name)}
                  onClick={() => void run(() => actions.revoke.mutateAsync(link.id), TEXTS.revoked(name))}
                >
                  {TEXTS.revoke}
                </button>
              )}
            </div>
            <p className="opacity-80">
              {shareLinkShows(link)}
              {link.has_password && ` · ${TEXTS.withPassword}`}
              {link.allow_download && ` · ${TEXTS.withDownload}`}
              {link.expires_at && (
                <>
                  {` · ${TEXTS.expiresOn} `}
                  <TimeLabel value={link.expires_at} />
                </>
              )}
            </p>
            <p>
              {link.views.last_viewed_at ? (
                <>
                  {TEXTS.views(link.views.total, link.views.unique_visitors)}
                  {`, ${TEXTS.lastViewed} `}
                  <TimeLabel value={link.views.last_viewed_at} />
                </>
              ) : (
                TEXTS.notRead
              )}
            </p>
            {link.views.sections.length > 0 && (
              <details>
                <summary className="cursor-pointer">{TEXTS.readingTime}</summary>
                <ul className="mt-1 flex flex-col gap-0.5 ps-4">
                  {link.views.sections.map((section) => (
                    <li key={section.uuid} className="flex justify-between gap-2">
                      <span dir="auto">{section.title ?? TEXTS.removedSection}</span>
                      <span className="tabular-nums">{readingDuration(section.seconds)}</span>
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        );
      })}
    </ul>
  );
}
