import { readFileSync } from 'node:fs';
import { unzipSync, zipSync } from 'fflate';
import { corpusPath } from '../../../../tests/support/corpus-path.mjs';

/**
 * A small .docx (a real one, its document.xml swapped) whose body is 300,000 short paragraphs: 38 KB
 * zipped, 10 MB of XML, hundreds of MB of heap once parsed: it runs out of any small memory budget.
 */
export function paragraphBomb(): Uint8Array {
  const zip = unzipSync(readFileSync(corpusPath('docx/pandoc-lists.docx')));
  const original = new TextDecoder().decode(zip['word/document.xml']);
  const body = '<w:p><w:r><w:t>x</w:t></w:r></w:p>'.repeat(300_000);
  const xml = original.replace(/<w:body>[\s\S]*<\/w:body>/, `<w:body>${body}</w:body>`);
  return zipSync({ ...zip, 'word/document.xml': new TextEncoder().encode(xml) });
}
