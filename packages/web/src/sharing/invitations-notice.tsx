import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { useBrowserPorts } from '../platform/browser-ports-context';
import { Alert } from '../ui/alert';
import { TimeLabel } from '../ui/time-label';
import { takeRememberedInvitation } from './remembered-invitation';
import {
  acceptedInvitationPath,
  invitationsQuery,
  sharingFailure,
  useAcceptInvitation,
} from './sharing-queries';
import { SHARING_TEXTS as TEXTS } from './sharing-texts';

/**
 * The invitations addressed to the signed-in person, to plans and organisations, each with Accept (which opens
 * the plan, or the team page); and an
 * invitation link opened before they were signed in, accepted as soon as they are (docs/teams.md). Shows
 * nothing when there are none.
 */
export function InvitationsNotice() {
  const client = usePlanwrightClient();
  const { storage } = useBrowserPorts();
  const navigate = useNavigate();
  const invitations = useQuery(invitationsQuery(client));
  const accept = useAcceptInvitation();
  const [failure, setFailure] = useState<string | null>(null);
  const tookRemembered = useRef(false);

  const acceptAndOpen = (by: { id: string } | { token: string }) => {
    setFailure(null);
    accept.mutate(by, {
      onSuccess: (accepted) => void navigate(acceptedInvitationPath(accepted)),
      onError: (error) => setFailure(sharingFailure(error, TEXTS.failed)),
    });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: taken once, on the first render.
  useEffect(() => {
    // Once per visit, even under development's double mount: the token is forgotten as it is taken.
    if (tookRemembered.current) return;
    tookRemembered.current = true;
    const token = takeRememberedInvitation(storage());
    if (token !== null) acceptAndOpen({ token });
  }, []);

  const items = invitations.data ?? [];
  if (items.length === 0 && failure === null) return null;
  return (
    <section aria-labelledby="pending-invitations" className="mb-6 flex flex-col gap-2">
      <h2 id="pending-invitations" className="text-lg font-semibold">
        {TEXTS.invitationsTitle}
      </h2>
      {failure && <Alert kind="error">{failure}</Alert>}
      <ul className="flex flex-col gap-2">
        {items.map((invitation) => {
          const name = invitation.document ? invitation.document.title : invitation.organization.name;
          return (
            <li
              key={invitation.id}
              className="flex flex-wrap items-center gap-3 rounded-box border border-base-300 bg-base-100 p-3"
            >
              <div className="min-w-0 flex-1">
                <p className="font-medium" dir="auto">
                  {name}
                </p>
                <p className="text-sm opacity-80">
                  {invitation.document
                    ? TEXTS.invitationFrom(invitation.invited_by, invitation.role)
                    : TEXTS.organizationInvitationFrom(invitation.invited_by, invitation.role)}{' '}
                  {TEXTS.expires} <TimeLabel value={invitation.expires_at} />
                </p>
              </div>
              <button
                type="button"
                className="btn btn-primary btn-sm"
                aria-label={TEXTS.acceptLabel(name)}
                disabled={accept.isPending}
                onClick={() => acceptAndOpen({ id: invitation.id })}
              >
                {TEXTS.accept}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
