import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { signInPathFor } from '../account/return-path';
import { useSession } from '../account/use-account';

/**
 * The guard (spec 000 §2): a guarded page needs a stored session token, nothing more (the server
 * judges it on the first call). Without one the visitor goes to sign-in, which remembers where they were
 * going. It also follows the token live: a sign-out or an expired session elsewhere leaves at once.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.token === null) return <Navigate to={signInPathFor(location)} replace />;
  return children;
}
