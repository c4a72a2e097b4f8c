import type { AuthClient } from '@planwright/sdk';
import type { BrowserPorts } from '../platform/browser-ports';
import { providerCallbackPath } from './return-path';

/**
 * Starts a third-party sign-in (spec 000 §7): `GET apps/csrf/` sets the CSRF cookie, then a real form POST
 * to `/accounts/{provider}/login/` with `csrfmiddlewaretoken`, `process=login` and `next` = the callback
 * page, which itself carries where to land afterwards. The browser leaves the app here.
 */
export async function startProviderSignIn(
  browserAuth: AuthClient,
  ports: Pick<BrowserPorts, 'submitForm'>,
  provider: string,
  returnPath: string,
): Promise<void> {
  const csrfToken = await browserAuth.fetchCsrf();
  const form = browserAuth.providerRedirectForm({
    provider,
    callbackUrl: providerCallbackPath(returnPath),
    process: 'login',
    csrfToken,
  });
  ports.submitForm(form);
}
