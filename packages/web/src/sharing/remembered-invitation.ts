import type { KeyValueStorage } from '../platform/browser-ports';

/**
 * An invitation link opened while signed out is remembered in this browser until its owner is signed in (after
 * signing up and confirming the address, which passes through e-mail and may land on the dashboard), and then
 * accepted there: "sign up first, then the invitation is applied" (docs/teams.md).
 */
const KEY = 'planwright-invitation';

export function rememberInvitation(storage: KeyValueStorage | null, token: string): void {
  storage?.setItem(KEY, token);
}

/** The remembered invitation token, forgotten as it is taken: it is accepted (or refused) once. */
export function takeRememberedInvitation(storage: KeyValueStorage | null): string | null {
  const token = storage?.getItem(KEY) ?? null;
  if (token !== null) storage?.removeItem(KEY);
  return token;
}
