/**
 * What the example scripts share: the server URL, signing in from the environment, every plan page after
 * page, and one line for a failure. Not part of the SDK: each integrator will want their own version.
 */
import { type DocumentSummary, type PlanwrightClient, PlanwrightError } from '@planwright/sdk';

/** The server: `fromArgument`, else PLANWRIGHT_SERVER, else a local `npm start`. */
export function serverUrl(fromArgument: string | undefined): string {
  return fromArgument || process.env.PLANWRIGHT_SERVER || 'http://127.0.0.1:8787';
}

/** Signs `client` in with PLANWRIGHT_EMAIL and PLANWRIGHT_PASSWORD; throws one readable line when it cannot. */
export async function signInFromEnvironment(client: PlanwrightClient): Promise<void> {
  const email = process.env.PLANWRIGHT_EMAIL ?? '';
  const signedIn = await client.auth.login({ email, password: process.env.PLANWRIGHT_PASSWORD ?? '' });
  if (signedIn.kind !== 'authenticated') throw new Error(`could not sign in as ${email} (${signedIn.kind})`);
}

/** Every document of the signed-in account, page after page (the server answers at most 100 a page). */
export async function allDocuments(client: PlanwrightClient): Promise<DocumentSummary[]> {
  const documents: DocumentSummary[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = await client.documents.list({ page, pageSize: 100, ordering: 'title' });
    documents.push(...items);
    if (items.length === 0 || documents.length >= total) return documents;
  }
}

/** One line for a failure: the SDK's message and suggestion, or any other error's message. */
export function failureLine(error: unknown): string {
  if (PlanwrightError.isInstance(error))
    return `${error.message}${error.suggestion ? ` (${error.suggestion})` : ''}`;
  return String(error instanceof Error ? error.message : error);
}
