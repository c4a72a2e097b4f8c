import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { docxToDocument } from '../../src/formats/node/docx-import.js';
import type { DocumentJson } from '../../src/model/index.js';
import { getPlanwrightSchema, normalizeDocument } from '../../src/model/index.js';
import { corpusFilePath, readCorpusBytes } from '../support/corpus.js';

type OutlineEntry = [number, string];
interface LongOutline {
  count: number;
  first: OutlineEntry[];
  last: OutlineEntry[];
}

/** Section titles (1), subsection titles (2) and headings (3–4), in reading order, text trimmed. */
function headingOutline(document: DocumentJson): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  const textOf = (node: { content?: unknown[] }): string =>
    (node.content ?? [])
      .map((child) => (child as { text?: string }).text ?? '')
      .join('')
      .trim();
  const visit = (node: { type: string; attrs?: { level?: number }; content?: unknown[] }): void => {
    if (node.type === 'sectionHeading') out.push([1, textOf(node)]);
    else if (node.type === 'subsectionHeading') out.push([2, textOf(node)]);
    else if (node.type === 'heading') out.push([node.attrs?.level ?? 3, textOf(node)]);
    else for (const child of node.content ?? []) visit(child as typeof node);
  };
  visit(document);
  return out;
}

const files = readdirSync(corpusFilePath('docx')).filter((name) => name.endsWith('.docx'));
const fixtures = JSON.parse(
  readFileSync(fileURLToPath(new URL('./fixtures/docx-outlines.json', import.meta.url)), 'utf8'),
) as Record<string, OutlineEntry[] | LongOutline | string>;

describe('every corpus .docx imports with the heading outline its Word styles give (fixtures by inspection)', () => {
  test('the fixture covers exactly the corpus files', () => {
    expect(files.length).toBe(17);
    expect(
      Object.keys(fixtures)
        .filter((key) => !key.startsWith('_'))
        .sort(),
    ).toEqual([...files].sort());
  });

  test.each(files)('%s', { timeout: 180_000 }, async (name) => {
    const bytes = readCorpusBytes(`docx/${name}`);
    const started = performance.now();
    const { document, report } = await docxToDocument(bytes);
    const elapsed = performance.now() - started;
    if (bytes.length > 400_000) console.info(`${name}: imported in ${elapsed.toFixed(0)} ms`);

    expect(report.format).toBe('docx');
    expect(() => getPlanwrightSchema().nodeFromJSON(document).check()).not.toThrow();
    const again = normalizeDocument(document);
    expect(again.ok && again.report.changed).toBe(false);

    const outline = headingOutline(document);
    const expected = fixtures[name];
    if (Array.isArray(expected)) {
      expect(outline).toEqual(expected);
    } else if (expected && typeof expected === 'object') {
      expect(outline.length).toBe(expected.count);
      expect(outline.slice(0, expected.first.length)).toEqual(expected.first);
      expect(outline.slice(-expected.last.length)).toEqual(expected.last);
    } else {
      throw new Error(`no expected outline for ${name}`);
    }
  });
});

describe('the file’s title (F52)', () => {
  test('the first "Title" paragraph is answered as the title and is not a section', async () => {
    const result = await docxToDocument(readCorpusBytes('docx/docx4j-Docx4j_GettingStarted.docx'));
    expect(result.title).toBe('Docx4j - Getting Started');
    expect(JSON.stringify(result.document.content[0]?.content[0])).not.toContain('Docx4j - Getting Started');
  });
});
