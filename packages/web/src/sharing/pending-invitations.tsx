import type { SentInvitation } from '@planwright/sdk';
import { useId } from 'react';
import { TimeLabel } from '../ui/time-label';
import { SHARING_TEXTS as TEXTS } from './sharing-texts';

/**
 * The invitations still pending, each with Resend (a new link) and Revoke: a plan's Share dialog and an
 * organisation on the team page. Shows nothing when there are none.
 */
export function PendingInvitations<Role extends string>({
  invitations,
  roleLabel,
  onResend,
  onRevoke,
}: {
  invitations: readonly SentInvitation<Role>[] | null;
  roleLabel: (role: Role) => string;
  onResend: (invitation: SentInvitation<Role>) => void;
  onRevoke: (invitation: SentInvitation<Role>) => void;
}) {
  const headingId = useId();
  if (!invitations || invitations.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h3 id={headingId} className="font-semibold">
        {TEXTS.pending}
      </h3>
      <ul className="flex flex-col divide-y divide-base-300">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="flex flex-wrap items-center gap-2 py-2">
            <div className="min-w-0 flex-1">
              <p className="truncate">{invitation.email}</p>
              <p className="text-sm opacity-80">
                {roleLabel(invitation.role)} · {TEXTS.expires} <TimeLabel value={invitation.expires_at} />
              </p>
            </div>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              aria-label={TEXTS.resendLabel(invitation.email)}
              onClick={() => onResend(invitation)}
            >
              {TEXTS.resend}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              aria-label={TEXTS.revokeLabel(invitation.email)}
              onClick={() => onRevoke(invitation)}
            >
              {TEXTS.revoke}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
