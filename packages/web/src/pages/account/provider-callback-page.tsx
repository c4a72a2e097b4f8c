import { Link, useLocation } from 'react-router';
import { AccountFrame, Working } from '../../account/account-frame';
import { ACCOUNT_QUERY_KEY } from '../../account/account-queries';
import { PROVIDER_CALLBACK_PAGE_TEXTS as TEXTS } from '../../account/account-texts';
import {
  type ProviderCallbackOutcome,
  performProviderCallback,
  providerCallbackMachine,
  providerCallbackMessage,
} from '../../account/provider-callback-flow';
import { RETURN_PARAM, SIGN_IN_PATH, safeReturnPath } from '../../account/return-path';
import { SecondFactorForm } from '../../account/second-factor-form';
import { useAccountServices } from '../../account/use-account';
import { Flow } from '../../state/flow';
import { useFlow, useLatest } from '../../state/use-flow';
import { Alert } from '../../ui/alert';

/**
 * `/account/google/login/callback` (spec 000 §2, §4 "Third-party sign-in callback", §8): where the server
 * sends the browser once Google is done; `next` (default `/dashboard`) is where to go on.
 */
export function ProviderCallbackPage() {
  const services = useAccountServices();
  const query = new URLSearchParams(useLocation().search);
  const next = safeReturnPath(query.get(RETURN_PARAM));
  const providerError = query.get('error');
  const latest = useLatest({ services, next });
  const finish = (outcome: ProviderCallbackOutcome) => {
    const { services: current, next: returnPath } = latest();
    const opener = current.ports.opener();
    if (opener) {
      opener.postMessage(providerCallbackMessage(outcome), current.ports.origin());
      current.ports.closeWindow();
      return;
    }
    if (!outcome.ok) return;
    current.queryClient.removeQueries({ queryKey: ACCOUNT_QUERY_KEY });
    current.navigate(returnPath, { replace: true });
  };
  const [state] = useFlow(
    () =>
      new Flow(providerCallbackMachine(providerError), {
        clock: services.ports.clock,
        perform: performProviderCallback(() => ({
          session: () => latest().services.browserAuth.session(),
          finish,
        })),
      }),
  );

  switch (state.status) {
    case 'checking':
      return (
        <AccountFrame title={TEXTS.checking}>
          <Working>{TEXTS.checking}</Working>
        </AccountFrame>
      );
    case 'second_factor':
      return (
        <SecondFactorForm
          authenticate={(code) => services.browserAuth.mfaAuthenticate(code)}
          onSignedIn={() => finish({ ok: true })}
        />
      );
    case 'signed_in':
      return (
        <AccountFrame title={TEXTS.checking}>
          <Working>{TEXTS.signedIn}</Working>
        </AccountFrame>
      );
    case 'failed':
      return (
        <AccountFrame title={TEXTS.failedTitle}>
          <Alert kind="error">{state.message}</Alert>
          <Link to={SIGN_IN_PATH} replace className="btn btn-primary w-full">
            {TEXTS.backToSignIn}
          </Link>
        </AccountFrame>
      );
  }
}
