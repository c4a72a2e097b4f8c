/**
 * Exports every plan of an account to .docx into a folder: a nightly backup job (cron, CI schedule).
 *
 *   PLANWRIGHT_EMAIL=… PLANWRIGHT_PASSWORD=… npx tsx examples/export-plans-docx.ts <folder> [server-url]
 *
 * Files are named after the plans' titles, made safe for every file system by the SDK (`exportFileName`);
 * two plans of the same title get their uuid added. Each file is written under a temporary name and then
 * renamed, so a run that stops half-way never leaves a truncated .docx behind. A plan that fails is
 * reported on stderr and the others are still exported; the exit code is then 1.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPlanwrightClient, exportFileName } from '@planwright/sdk';
import { allDocuments, failureLine, serverUrl, signInFromEnvironment } from './example-support.js';

const [folder, serverArgument] = process.argv.slice(2);
const baseUrl = serverUrl(serverArgument);
const client = createPlanwrightClient({ baseUrl });

try {
  if (!folder) throw new Error('usage: export-plans-docx.ts <folder> [server-url]');
  mkdirSync(folder, { recursive: true });
  await signInFromEnvironment(client);
  const documents = await allDocuments(client);
  const taken = new Set<string>();
  let exported = 0;
  for (const summary of documents) {
    try {
      const file = await client.documents.exportFile(summary.uuid, 'docx');
      let name = exportFileName(summary.title, 'docx');
      if (taken.has(name.toLowerCase())) name = exportFileName(`${summary.title} ${summary.uuid}`, 'docx');
      taken.add(name.toLowerCase());
      const temporary = join(folder, `.${summary.uuid}.docx.partial`);
      writeFileSync(temporary, file.bytes);
      renameSync(temporary, join(folder, name));
      console.log(`${name} (${file.bytes.length} bytes)`);
      exported++;
    } catch (error) {
      console.error(`${summary.title || summary.uuid}: ${failureLine(error)}`);
      process.exitCode = 1;
    }
  }
  console.log(`Exported ${exported} of ${documents.length} plans to ${folder}.`);
} catch (error) {
  console.error(`${baseUrl}: ${failureLine(error)}`);
  process.exitCode = 1;
}
