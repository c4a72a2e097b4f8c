import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useAccountServices } from '../use-account';
import { EmailAddresses } from './email-addresses';
import { PasswordForm } from './password-form';
import { PersonalTokens } from './personal-tokens';
import { securityKeys } from './security-parts';
import { SECURITY_TEXTS as TEXTS } from './security-texts';
import { SessionsList } from './sessions-list';
import { TwoFactor } from './two-factor';

/**
 * Profile › Security (docs/auth.md "Sessions, password and tokens", "Two-factor authentication"): change (or, for
 * an account made with Google, set) the password; manage the e-mail addresses; set two-factor up; see every device
 * signed in and sign out any of them, or all others; make, list and revoke personal access tokens for scripts.
 * Sensitive steps ask for the password again when the last sign-in is over 5 minutes old.
 */
export function SecuritySection() {
  // The web app's session is the app client's token it keeps (docs/auth.md), so these calls go as the app client.
  const auth = useAccountServices().client.auth;
  const session = useQuery({ queryKey: securityKeys.session, queryFn: () => auth.session() });
  const headingId = useId();
  const user = session.data?.kind === 'authenticated' ? session.data.user : null;
  return (
    <section id="security" aria-labelledby={headingId} className="mt-12 flex flex-col gap-8">
      <header>
        <h2 id={headingId} className="text-2xl font-bold">
          {TEXTS.heading}
        </h2>
        <p className="mt-1 opacity-80">{TEXTS.intro}</p>
      </header>
      {user && <PasswordForm auth={auth} hasPassword={user.has_usable_password} />}
      <EmailAddresses auth={auth} hasPassword={user?.has_usable_password ?? true} />
      <TwoFactor auth={auth} hasPassword={user?.has_usable_password ?? true} />
      <SessionsList auth={auth} />
      <PersonalTokens auth={auth} hasPassword={user?.has_usable_password ?? true} />
    </section>
  );
}
