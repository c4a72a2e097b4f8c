import { clearStoredDrafts } from '@planwright/sdk';
import { AccountFrame, Working } from '../../account/account-frame';
import { SIGN_OUT_PAGE_TEXTS as TEXTS } from '../../account/account-texts';
import { performSignOut, signOutMachine } from '../../account/sign-out-flow';
import { useAccountServices } from '../../account/use-account';
import { Flow } from '../../state/flow';
import { useFlow, useLatest } from '../../state/use-flow';
import { forgetLivePlanCopies } from '../../workspace/live-plan-store';

/**
 * `/account/signout` (spec 000 §4 "Sign-out"). The session may be the app client's (a password sign-in)
 * or the browser client's cookie session (a Google sign-in): each client only ends its own kind, so both
 * are asked. The SDK clears sessionToken, userEmail, userName and avatarUrl whatever they answer; the
 * editor's stored drafts and the live plans' browser copies go too.
 */
export function SignOutPage() {
  const services = useAccountServices();
  const latest = useLatest(services);
  useFlow(
    () =>
      new Flow(signOutMachine, {
        clock: services.ports.clock,
        perform: performSignOut(() => {
          const { client, browserAuth, queryClient, navigate, ports } = latest();
          return {
            signOut: async () => {
              await Promise.allSettled([client.auth.logout(), browserAuth.logout()]);
              queryClient.clear();
              // Unsaved editor copies must not outlive the session on a shared computer (save S25).
              clearStoredDrafts(ports.storage);
              await forgetLivePlanCopies();
            },
            goHome: () => navigate('/', { replace: true }),
          };
        }),
      }),
  );
  return (
    <AccountFrame title={TEXTS.signingOut}>
      <Working>{TEXTS.signingOut}</Working>
    </AccountFrame>
  );
}
