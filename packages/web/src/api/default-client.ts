import { BrowserStorageTokenStore, createPlanwrightClient } from '@planwright/sdk';
import { SIGN_IN_PATH, signInPathFor } from '../account/return-path';
import type { PlanwrightClient } from './client-context';

let client: PlanwrightClient | undefined;

/**
 * The app's one client, made on first use. Same origin: the server (or Vite's proxy) answers `/api`.
 * The session lives in localStorage under sessionToken, userEmail, userName and avatarUrl (spec 000 §3).
 */
export function getDefaultPlanwrightClient(): PlanwrightClient {
  client ??= createPlanwrightClient({
    baseUrl: '',
    tokenStore: new BrowserStorageTokenStore(),
    // Spec 000 §4: after a 401/403 the SDK has dropped the token; the browser goes to sign-in unless already
    // there, remembering where it was. A full load, so nothing of the old session stays in memory.
    onAuthRequired: () => {
      if (window.location.pathname !== SIGN_IN_PATH) window.location.assign(signInPathFor(window.location));
    },
  });
  return client;
}
