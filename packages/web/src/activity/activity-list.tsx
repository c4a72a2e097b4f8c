import { ACTIVITY_TEXTS, type ActivityQuery, activityView } from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { CardSection } from '../ui/card-section';
import { LoadError } from '../ui/load-error';
import { LoadingStatus } from '../ui/loading-status';
import { TimeLabel } from '../ui/time-label';
import { activityEntryView, SEVERITY_STYLE } from './activity-entry';
import { activityQuery } from './activity-queries';

/** The panel's own words. */
export const ACTIVITY_PANEL_TEXTS = {
  title: 'Recent Activity',
  loading: 'Loading activity…',
  more: (shown: number, total: number) => `Showing the newest ${shown} of ${total} entries.`,
} as const;

/**
 * A Recent Activity panel (spec 000 §2 "Activity list"; SPEC.md AC1–AC5): the newest 10 entries of `query`,
 * a `Show all N` / `Collapse` toggle, `No activity yet.`, `Failed to load activity`.
 */
export function ActivityList({
  query,
  title = ACTIVITY_PANEL_TEXTS.title,
}: {
  query: Omit<ActivityQuery, 'page' | 'pageSize'>;
  title?: string;
}) {
  const client = usePlanwrightClient();
  const feed = useQuery(activityQuery(client, query));
  const [expanded, setExpanded] = useState(false);
  const listId = useId();

  let body: ReactNode;
  if (feed.data) {
    const view = activityView(feed.data.items, { expanded });
    body = view.emptyText ? (
      <p className="opacity-80">{view.emptyText}</p>
    ) : (
      <>
        <ol id={listId} className="flex flex-col divide-y divide-base-300">
          {view.items.map((activity) => {
            const entry = activityEntryView(activity);
            const style = SEVERITY_STYLE[entry.severity];
            return (
              <li key={entry.id} className="flex gap-3 py-3" data-severity={entry.severity}>
                <span aria-hidden="true" className={`status mt-2 shrink-0 ${style.status}`} />
                <div className="flex min-w-0 flex-1 flex-col gap-1">
                  <p
                    dir="auto"
                    className={`[overflow-wrap:anywhere] ${entry.severity === 'system' ? 'italic' : ''} ${
                      entry.severity === 'error' ? 'text-error' : ''
                    }`}
                  >
                    {style.badge && (
                      <span className={`badge badge-sm mr-2 ${style.badge}`}>{style.label}</span>
                    )}
                    <span className="font-semibold">{entry.actor}</span> {entry.text}
                  </p>
                  <p className="flex flex-wrap gap-x-2 text-xs opacity-80">
                    {entry.target && (
                      <span dir="auto" className="[overflow-wrap:anywhere]">
                        {entry.target}
                      </span>
                    )}
                    <TimeLabel value={entry.created_at} />
                  </p>
                </div>
              </li>
            );
          })}
        </ol>
        {expanded && feed.data.total > feed.data.items.length && (
          <p className="text-sm opacity-80">
            {ACTIVITY_PANEL_TEXTS.more(feed.data.items.length, feed.data.total)}
          </p>
        )}
        {view.toggleLabel && (
          <div>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              aria-expanded={expanded}
              aria-controls={listId}
              onClick={() => setExpanded((value) => !value)}
            >
              {view.toggleLabel}
            </button>
          </div>
        )}
      </>
    );
  } else if (feed.isError) {
    body = <LoadError title={ACTIVITY_TEXTS.loadFailed} onRetry={() => void feed.refetch()} />;
  } else {
    body = <LoadingStatus>{ACTIVITY_PANEL_TEXTS.loading}</LoadingStatus>;
  }

  return <CardSection title={title}>{body}</CardSection>;
}
