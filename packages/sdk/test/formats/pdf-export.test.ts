import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BlockJson } from '@planwright/sdk/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentToPdf } from '../../src/formats/node/pdf-export.js';
import { standardFontText } from '../../src/formats/node/pdf-export-text.js';
import { documentOf, link, paragraph, section, subsection, text } from '../support/model-documents.js';
import {
  ensureExportTools,
  folded,
  headingOutline,
  hostileDocument,
  linksDocument,
  NON_EXPORTABLE_HREFS,
  naughtyStrings,
  paragraphTexts,
  pdfPageCount,
  pdfPages,
  planDocument,
  runTool,
} from './docx-export-plan.js';

const CREATED = new Date('2026-03-04T05:06:07Z');
const FOOTER = /Made with Planwright\s+Page (\d+) of (\d+)/;

let workDir = '';

beforeAll(async () => {
  await ensureExportTools('POPPLER');
  workDir = mkdtempSync(join(tmpdir(), 'planwright-pdf-export-'));
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

async function writePdf(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(workDir, `${name}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

/** A page's text without its footer line, folded. */
function body(page: string): string {
  return folded(page.replace(new RegExp(FOOTER.source, 'g'), ' '));
}

describe('documentToPdf with the default-blueprint plan', () => {
  const document = planDocument();
  let pages: string[] = [];
  let path = '';

  beforeAll(async () => {
    path = await writePdf(
      'plan',
      await documentToPdf(document, { title: 'Acme Business Plan', creationDate: CREATED }),
    );
    pages = await pdfPages(path);
  });

  it('opens, with a title page and more pages than sections', async () => {
    const count = await pdfPageCount(path);
    expect(count).toBe(pages.length);
    expect(count).toBeGreaterThan(document.content.length + 1);
    expect(body(pages[0] ?? '')).toBe('Acme Business Plan Made with Planwright');
  });

  it('puts "Made with Planwright" and "Page N of M" on every page', () => {
    pages.forEach((page, index) => {
      const footer = FOOTER.exec(page);
      expect(footer, `page ${index + 1}`).not.toBeNull();
      expect(Number(footer?.[1])).toBe(index + 1);
      expect(Number(footer?.[2])).toBe(pages.length);
    });
  });

  it('has a table of contents listing every section and subsection with the page it starts on', () => {
    expect(pages[1]).toMatch(/^\s*Contents\s*$/m);
    // The contents run from page 2 to the page before the first section.
    const firstSection = headingOutline(document)[0]?.text ?? '';
    const firstSectionPage = pages.findIndex(
      (page, index) => index > 1 && body(page).startsWith(firstSection),
    );
    expect(firstSectionPage).toBeGreaterThan(1);
    const tocText = pages.slice(1, firstSectionPage).join('\n').replace(new RegExp(FOOTER.source, 'g'), '');
    for (const entry of headingOutline(document).filter((heading) => heading.level <= 2)) {
      const line = tocText.split('\n').find((candidate) => folded(candidate).startsWith(`${entry.text} `));
      expect(line, `contents entry for ${entry.text}`).toBeDefined();
      const pageNumber = Number(/(\d+)\s*$/.exec(line ?? '')?.[1]);
      expect(pageNumber).toBeGreaterThan(1);
      // The number is right: the heading is on that page.
      expect(body(pages[pageNumber - 1] ?? '')).toContain(entry.text);
      if (entry.level === 1) expect(body(pages[pageNumber - 1] ?? '').startsWith(entry.text)).toBe(true);
    }
  });

  it('contains every heading and every paragraph, list item and code line', () => {
    const all = folded(pages.map(body).join(' '));
    for (const entry of headingOutline(document)) expect(all).toContain(entry.text);
    for (const paragraphText of paragraphTexts(document)) expect(all).toContain(folded(paragraphText));
    expect(all).toContain("const plan = '1'; return plan;");
  });

  it('numbers an ordered list from its start and marks links as links', async () => {
    const all = folded(pages.map(body).join(' '));
    expect(all).toContain('3. Third step of Company and Mission 4. Fourth step of Company and Mission');
    const raw = folded(await runTool('pdftotext', ['-raw', path, '-']));
    expect(raw).toContain('with a link about Company and Mission.');
    const links = await documentToPdf(
      documentOf(
        section(1, 'Links', [
          paragraph('p-1', [text('good', [link('https://example.com/good')])]),
          paragraph('p-2', [text('evil', [link('javascript:alert(1)')])]),
        ]),
      ),
      { creationDate: CREATED },
    );
    // Link annotations are plain dictionaries in the file; a refused href is only text.
    const pdf = Buffer.from(links).toString('latin1');
    expect(pdf).toContain('/URI (https://example.com/good)');
    expect(pdf).not.toContain('javascript');
  });

  it('F73: writes a UNC path, file:, a relative path, tel: and #anchor as plain text (M14)', async () => {
    const hostile = [...NON_EXPORTABLE_HREFS, '#market'];
    const bytes = await documentToPdf(linksDocument(hostile), { creationDate: CREATED });
    const pdf = Buffer.from(bytes).toString('latin1');
    expect(pdf.match(/\/URI \(/g)).toHaveLength(1);
    expect(pdf).toContain('/URI (mailto:ada@example.com)');
    for (const href of ['host', 'file:', 'x.docx', 'tel:', '#market']) expect(pdf).not.toContain(`(${href}`);
  });

  it('gives the same bytes for the same document and date', async () => {
    const again = await documentToPdf(document, { title: 'Acme Business Plan', creationDate: CREATED });
    const info = await runTool('pdfinfo', [path]);
    expect(info).toMatch(/CreationDate:\s+Wed Mar\s+4 05:06:07 2026/);
    expect(info).toMatch(/Title:\s+Acme Business Plan/);
    const first = await documentToPdf(document, { title: 'Acme Business Plan', creationDate: CREATED });
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
  });
});

describe('documentToPdf with hostile text', () => {
  it('replaces what Helvetica and Courier cannot draw instead of failing', () => {
    expect(standardFontText('日本語 🚀 ok')).toBe('??? ? ok');
    expect(standardFontText('Zażółć € “quoted” – fine')).toBe('Zazólc € “quoted” – fine');
    expect(standardFontText('a\u200Bb\u0000c\u202Ed\te\nf')).toBe('abcd    e\nf');
    expect(standardFontText('x\uD800y')).toBe('x?y');
  });

  it('exports the naughty strings with a footer on every page', async () => {
    const { document, titles } = hostileDocument();
    const path = await writePdf(
      'naughty',
      await documentToPdf(document, { title: '<script>alert("t")</script> 🚀', creationDate: CREATED }),
    );
    const pages = await pdfPages(path);
    expect(await pdfPageCount(path)).toBe(pages.length);
    expect(pages.length).toBeGreaterThan(titles.length);
    for (const page of pages) expect(page).toMatch(FOOTER);
    const all = folded(pages.map(body).join(' '));
    for (const title of titles) expect(all).toContain(folded(title));
    // Printable ASCII strings come through unchanged.
    for (const value of naughtyStrings()
      .filter((s) => /^[\x21-\x7e][\x20-\x7e]{0,40}$/.test(s))
      .slice(0, 50)) {
      expect(all).toContain(folded(value));
    }
  });

  it('exports blank titles as "Untitled" and an empty paragraph without failing', async () => {
    const path = await writePdf(
      'untitled',
      await documentToPdf(documentOf(section(1, '', [paragraph('p-1', [])], [subsection(2, '', [])])), {
        creationDate: CREATED,
      }),
    );
    const text = folded((await pdfPages(path)).join(' '));
    expect(text).toContain('Untitled Document');
    expect(text).toMatch(/Contents Untitled Section 3 Untitled Subsection 3/);
  });

  it('keeps the text of deeply nested quotes and lists on the page', async () => {
    let quote: BlockJson = paragraph('p-deep', [text('deepest quote')]);
    for (let depth = 0; depth < 40; depth++)
      quote = { type: 'blockquote', attrs: { nodeId: `q-${depth}` }, content: [quote] };
    let list: BlockJson = paragraph('p-item', [text('deepest item')]);
    for (let depth = 0; depth < 12; depth++) {
      list = {
        type: 'bulletList',
        attrs: { nodeId: `ul-${depth}` },
        content: [
          {
            type: 'listItem',
            attrs: { nodeId: `li-${depth}` },
            content: [paragraph(`p-${depth}`, [text(`level ${depth}`)]), list],
          },
        ],
      };
    }
    const path = await writePdf(
      'deep',
      await documentToPdf(documentOf(section(1, 'Deep', [quote, list])), { creationDate: CREATED }),
    );
    const all = folded((await pdfPages(path)).map(body).join(' '));
    expect(all).toContain('deepest quote');
    expect(all).toContain('deepest item');
  });

  it('keeps the plain text of a long document in order (a realistic paragraph wraps)', async () => {
    const long = 'Revenue grows with every new customer we sign in the region. '.repeat(40).trim();
    const path = await writePdf(
      'long',
      await documentToPdf(documentOf(section(1, 'Growth', [paragraph('p-1', [text(long)])])), {
        creationDate: CREATED,
      }),
    );
    expect(folded((await pdfPages(path)).map(body).join(' '))).toContain(long);
  });
});
