import type { AuthClient } from '@planwright/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { LoadError } from '../../ui/load-error';
import { LoadingStatus } from '../../ui/loading-status';
import { TimeLabel } from '../../ui/time-label';
import { deviceLabel } from './device-label';
import {
  isoOf,
  type Outcome,
  OutcomeLine,
  refusal,
  Subsection,
  securityKeys,
  useAllauthQuery,
} from './security-parts';
import { SECURITY_TEXTS as TEXTS } from './security-texts';

/** Profile › Security › Where you are signed in: every device, this one marked; sign one or all others out. */
export function SessionsList({ auth }: { auth: AuthClient }) {
  const queryClient = useQueryClient();
  const sessions = useAllauthQuery(
    securityKeys.sessions,
    () => auth.sessions(),
    'sessions',
    (result) => result.sessions,
  );
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);

  const end = async (ids: number[], success: string) => {
    setBusy(true);
    setOutcome(null);
    try {
      const result = await auth.endSessions(ids);
      if (result.kind === 'sessions') {
        queryClient.setQueryData(securityKeys.sessions, result.sessions);
        setOutcome({ kind: 'success', text: success });
      } else if (result.kind !== 'unauthenticated') {
        setOutcome({ kind: 'error', text: refusal(result) });
      }
    } catch {
      setOutcome({ kind: 'error', text: TEXTS.failed });
    } finally {
      setBusy(false);
    }
  };

  let body: ReactNode;
  if (sessions.data) {
    const others = sessions.data.filter((session) => !session.is_current);
    body = (
      <>
        <ul className="flex flex-col divide-y divide-base-300">
          {sessions.data.map((session) => {
            const device = deviceLabel(session.user_agent);
            return (
              <li key={session.id} className="flex flex-wrap items-center gap-2 py-2">
                <div className="min-w-0 flex-1">
                  <p className="font-medium break-words">
                    {device}{' '}
                    {session.is_current && (
                      <span className="badge badge-success badge-sm">{TEXTS.thisDevice}</span>
                    )}
                  </p>
                  <p className="text-sm opacity-80">
                    {session.ip} · {TEXTS.signedIn} <TimeLabel value={isoOf(session.created_at)} />
                    {session.last_seen_at !== undefined && (
                      <>
                        {` · ${TEXTS.lastSeen} `}
                        <TimeLabel value={isoOf(session.last_seen_at)} />
                      </>
                    )}
                  </p>
                </div>
                {!session.is_current && (
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    aria-label={TEXTS.endSessionLabel(device)}
                    disabled={busy}
                    onClick={() => void end([session.id], TEXTS.ended(device))}
                  >
                    {TEXTS.endSession}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
        {others.length > 0 ? (
          <div>
            <button
              type="button"
              className="btn btn-outline btn-sm"
              disabled={busy}
              onClick={() =>
                void end(
                  others.map((session) => session.id),
                  TEXTS.endedOthers,
                )
              }
            >
              {TEXTS.endOthers}
            </button>
          </div>
        ) : (
          <p className="text-sm opacity-80">{TEXTS.onlyThisOne}</p>
        )}
      </>
    );
  } else if (sessions.isError) {
    body = <LoadError title={TEXTS.sessionsFailed} onRetry={() => void sessions.refetch()} />;
  } else {
    body = <LoadingStatus>{TEXTS.sessionsLoading}</LoadingStatus>;
  }
  return (
    <Subsection title={TEXTS.sessionsHeading}>
      <OutcomeLine outcome={outcome} />
      {body}
    </Subsection>
  );
}
