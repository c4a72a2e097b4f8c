import { BrowserStorageTokenStore, createPlanwrightClient } from '@planwright/sdk';
import type { PlanwrightClient } from './client-context';

const SIGN_IN_PATH = '/account/signin';

let client: PlanwrightClient | undefined;

/** The app's one client, made on first use. Same origin: the server (or Vite's proxy) answers `/api`. */
export function getDefaultPlanwrightClient(): PlanwrightClient {
  client ??= createPlanwrightClient({
    baseUrl: '',
    tokenStore: new BrowserStorageTokenStore(),
    // Spec 000 §4: after a 401/403 the SDK has dropped the token; the browser goes to sign-in unless already there.
    onAuthRequired: () => {
      if (window.location.pathname !== SIGN_IN_PATH) window.location.assign(SIGN_IN_PATH);
    },
  });
  return client;
}
