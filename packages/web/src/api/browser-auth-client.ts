import { type AuthClient, createAuthClient } from '@planwright/sdk';
import type { PlanwrightClient } from './client-context';

const browserClients = new WeakMap<PlanwrightClient, AuthClient>();

/**
 * The allauth `browser` client over the same request helper and token store as `client`: its session is
 * the `sessionid` cookie and its unsafe calls carry the CSRF token (spec 000 §7). The web app uses it
 * where the cookie matters: e-mail verification, the third-party callback (whose session exists only as
 * the cookie the server set) and signing that cookie session out. Everything else speaks the `app`
 * client, whose token is the one `/api/v1/` reads.
 */
export function browserAuthClientOf(client: PlanwrightClient): AuthClient {
  let auth = browserClients.get(client);
  if (!auth) {
    auth = createAuthClient({ http: client.http, tokenStore: client.tokenStore, client: 'browser' });
    browserClients.set(client, auth);
  }
  return auth;
}
