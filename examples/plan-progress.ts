/**
 * Prints every plan of an account with its progress and the subsections still to finalize: the
 * nightly "what's left" report a founder or a studio might mail to itself.
 *
 *   PLANWRIGHT_EMAIL=you@example.com PLANWRIGHT_PASSWORD=… npx tsx examples/plan-progress.ts [server-url]
 *
 * The URL defaults to PLANWRIGHT_SERVER, then http://127.0.0.1:8787. Exits 1 with one line when signing
 * in or a call fails.
 */
import { createPlanwrightClient } from '@planwright/sdk';
import { allDocuments, failureLine, serverUrl, signInFromEnvironment } from './example-support.js';

const baseUrl = serverUrl(process.argv[2]);
const client = createPlanwrightClient({ baseUrl });

try {
  await signInFromEnvironment(client);
  const documents = await allDocuments(client);
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
  console.error(`${baseUrl}: ${failureLine(error)}`);
  process.exitCode = 1;
}
