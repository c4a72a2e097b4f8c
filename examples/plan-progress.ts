/**
 * Prints every plan of an account with its progress and the subsections still to finalize: the
 * nightly "what's left" report a founder or a studio might mail to itself.
 *
 *   PLANWRIGHT_EMAIL=you@example.com PLANWRIGHT_PASSWORD=… npx tsx examples/plan-progress.ts [server-url]
 *
 * The URL defaults to PLANWRIGHT_SERVER, then http://127.0.0.1:8787. Exits 1 with one line when signing
 * in or a call fails.
 */
import { createPlanwrightClient, type DocumentSummary, PlanwrightError } from '@planwright/sdk';

const baseUrl = process.argv[2] || process.env.PLANWRIGHT_SERVER || 'http://127.0.0.1:8787';
const client = createPlanwrightClient({ baseUrl });

/** Every document, page after page (the server answers at most 100 a page). */
async function allDocuments(): Promise<DocumentSummary[]> {
  const documents: DocumentSummary[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = await client.documents.list({ page, pageSize: 100, ordering: 'title' });
    documents.push(...items);
    if (items.length === 0 || documents.length >= total) return documents;
  }
}

try {
  const email = process.env.PLANWRIGHT_EMAIL ?? '';
  const signedIn = await client.auth.login({ email, password: process.env.PLANWRIGHT_PASSWORD ?? '' });
  if (signedIn.kind !== 'authenticated') throw new Error(`could not sign in as ${email} (${signedIn.kind})`);

  const documents = await allDocuments();
  if (documents.length === 0) console.log('No documents yet.');
  for (const summary of documents) {
    const { progress, title } = summary;
    console.log(
      `${title}: ${progress.percent}% (${progress.finalized}/${progress.total} subsections finalized)`,
    );
    for (const section of summary.sections) {
      const open = section.subsections.filter((subsection) => !subsection.finalized);
      if (open.length > 0) console.log(`  ${section.title}: ${open.map((s) => s.title).join(', ')}`);
    }
  }
} catch (error) {
  const why = PlanwrightError.isInstance(error)
    ? `${error.message}${error.suggestion ? ` (${error.suggestion})` : ''}`
    : String(error instanceof Error ? error.message : error);
  console.error(`${baseUrl}: ${why}`);
  process.exitCode = 1;
}
