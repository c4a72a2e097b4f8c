import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AccountFrame, Working } from '../account/account-frame';
import { DEFAULT_RETURN_PATH, RETURN_PARAM, SIGN_IN_PATH } from '../account/return-path';
import { useSession } from '../account/use-account';
import { useBrowserPorts } from '../platform/browser-ports-context';
import { rememberInvitation } from '../sharing/remembered-invitation';
import { acceptedInvitationPath, sharingFailure, useAcceptInvitation } from '../sharing/sharing-queries';
import { SHARING_TEXTS, INVITATION_PAGE_TEXTS as TEXTS } from '../sharing/sharing-texts';
import { Alert } from '../ui/alert';

/**
 * `/invitations/{token}`, the link of an invitation e-mail (docs/teams.md "Invitations"). Signed in, it is
 * accepted at once and the plan opens (the team page, for an organisation); a refusal says why (expired, revoked, used, sent to another address).
 * Signed out, the link is remembered in this browser and the visitor signs in (coming back here) or signs up
 * (the dashboard accepts it once they are in).
 */
export function InvitationPage() {
  const { token = '' } = useParams();
  const session = useSession();
  const { storage } = useBrowserPorts();
  const signedIn = session.token !== null;
  useEffect(() => {
    if (!signedIn && token !== '') rememberInvitation(storage(), token);
  }, [signedIn, token, storage]);
  if (!signedIn) {
    const here = `/invitations/${encodeURIComponent(token)}`;
    return (
      <AccountFrame title={TEXTS.heading} intro={TEXTS.signedOut}>
        <div className="flex flex-col gap-2">
          <Link
            to={`${SIGN_IN_PATH}?${RETURN_PARAM}=${encodeURIComponent(here)}`}
            className="btn btn-primary w-full"
          >
            {TEXTS.signIn}
          </Link>
          <Link to="/account/signup" className="btn w-full">
            {TEXTS.signUp}
          </Link>
        </div>
      </AccountFrame>
    );
  }
  return <AcceptInvitation key={token} token={token} />;
}

function AcceptInvitation({ token }: { token: string }) {
  const accept = useAcceptInvitation();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    // Once, even under development's double mount: a second accept of a used link would say so.
    if (sent.current) return;
    sent.current = true;
    accept.mutate(
      { token },
      {
        onSuccess: (accepted) => void navigate(acceptedInvitationPath(accepted), { replace: true }),
        onError: (error) => setFailure(sharingFailure(error, SHARING_TEXTS.failed)),
      },
    );
  }, [accept, navigate, token]);
  if (failure === null) {
    return (
      <AccountFrame title={TEXTS.heading}>
        <Working>{TEXTS.accepting}</Working>
      </AccountFrame>
    );
  }
  return (
    <AccountFrame title={TEXTS.failed}>
      <Alert kind="error">{failure}</Alert>
      <Link to={DEFAULT_RETURN_PATH} className="btn btn-primary w-full">
        {TEXTS.toDashboard}
      </Link>
    </AccountFrame>
  );
}
