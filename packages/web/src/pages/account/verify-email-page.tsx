import { Link, useParams } from 'react-router';
import { AccountFrame, Working } from '../../account/account-frame';
import { EMAIL_VERIFICATION_PAGE_TEXTS as TEXTS } from '../../account/account-texts';
import { emailVerificationMachine, performEmailVerification } from '../../account/email-verification-flow';
import { ResendVerificationForm } from '../../account/resend-verification-form';
import { DEFAULT_RETURN_PATH, SIGN_IN_PATH } from '../../account/return-path';
import { useAccountServices } from '../../account/use-account';
import { Flow } from '../../state/flow';
import { useFlow, useLatest } from '../../state/use-flow';
import { Alert } from '../../ui/alert';

/** `/account/verify-email/{key}` (spec 000 §2, §4 "Email verification", §8 "Verification"). */
export function VerifyEmailPage() {
  const { key = '' } = useParams();
  // A new key is a new verification: a fresh flow, not the old one's result.
  return <EmailVerification key={key} verificationKey={key} />;
}

function EmailVerification({ verificationKey }: { verificationKey: string }) {
  const services = useAccountServices();
  const latest = useLatest(services);
  const [state] = useFlow(
    () =>
      new Flow(emailVerificationMachine(verificationKey), {
        clock: services.ports.clock,
        perform: performEmailVerification(() => {
          const { browserAuth, navigate } = latest();
          return {
            // Spec 000 §7: the browser client, with credentials and the CSRF cookie set just before.
            verifyEmail: async (key) => {
              await browserAuth.fetchCsrf();
              return browserAuth.verifyEmail(key);
            },
            go: (to) => navigate(to, { replace: true }),
          };
        }),
      }),
  );

  switch (state.status) {
    case 'verifying':
      return (
        <AccountFrame title={TEXTS.verifying}>
          <Working>{TEXTS.verifying}</Working>
        </AccountFrame>
      );
    case 'verified': {
      const signedIn = state.next === DEFAULT_RETURN_PATH;
      return (
        <AccountFrame title={TEXTS.verifiedTitle}>
          <Alert kind="success">{signedIn ? TEXTS.verifiedSignedIn : TEXTS.verifiedToSignIn}</Alert>
          <Link to={state.next} replace className="btn btn-primary w-full">
            {signedIn ? TEXTS.goToDashboard : TEXTS.signIn}
          </Link>
        </AccountFrame>
      );
    }
    case 'failed':
      return (
        <AccountFrame title={state.alreadyVerified ? TEXTS.alreadyVerifiedTitle : TEXTS.failedTitle}>
          <Alert kind={state.alreadyVerified ? 'info' : 'error'}>
            <span>{state.message}</span>
            {state.alreadyVerified && <span>{TEXTS.redirecting}</span>}
          </Alert>
          {state.alreadyVerified ? (
            <Link to={SIGN_IN_PATH} replace className="btn btn-primary w-full">
              {TEXTS.signIn}
            </Link>
          ) : (
            <ResendVerificationForm />
          )}
        </AccountFrame>
      );
  }
}
