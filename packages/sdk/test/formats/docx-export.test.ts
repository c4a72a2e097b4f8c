import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DocumentJson } from '@planwright/sdk/model';
import { unzipSync } from 'fflate';
import { parseHTML } from 'linkedom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentToDocx } from '../../src/formats/node/docx-export.js';
import { documentOf, link, paragraph, section, subsection, text } from '../support/model-documents.js';
import {
  ensureExportTools,
  folded,
  headingOutline,
  hostileDocument,
  linksDocument,
  NON_EXPORTABLE_HREFS,
  type PlanOutlineEntry,
  paragraphTexts,
  pdfPageCount,
  pdfPages,
  planDocument,
  runTool,
} from './docx-export-plan.js';

const CREATED = new Date('2026-03-04T05:06:07Z');

/** Reads one part of a .docx as text. */
function part(bytes: Uint8Array, name: string): string {
  const entry = unzipSync(bytes)[name];
  if (entry === undefined) throw new Error(`${name} is missing from the .docx`);
  return new TextDecoder().decode(entry);
}

/** The `pStyle` and text of every body paragraph of `word/document.xml`, in order. */
function styledParagraphs(bytes: Uint8Array): { style: string | null; text: string }[] {
  const xml = part(bytes, 'word/document.xml');
  return [...xml.matchAll(/<w:p>([\s\S]*?)<\/w:p>|<w:p [^>]*>([\s\S]*?)<\/w:p>/g)].map((match) => {
    const body = match[1] ?? match[2] ?? '';
    const style = /<w:pStyle w:val="([^"]+)"/.exec(body)?.[1] ?? null;
    const text = [...body.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join('');
    return { style, text };
  });
}

describe('documentToDocx, read back without LibreOffice', () => {
  const document = planDocument();

  it('starts with a Title paragraph and maps sections, subsections and headings to Word heading styles', async () => {
    const bytes = await documentToDocx(document, { title: 'Acme Business Plan', creationDate: CREATED });
    const paragraphs = styledParagraphs(bytes);
    expect(paragraphs[0]).toEqual({ style: 'Title', text: 'Acme Business Plan' });
    const outline: PlanOutlineEntry[] = paragraphs
      .filter((p) => p.style !== null && /^Heading[1-4]$/.test(p.style))
      .map((p) => ({ level: Number(p.style?.slice(-1)) as PlanOutlineEntry['level'], text: p.text }));
    expect(outline).toEqual(headingOutline(document));
    const styles = part(bytes, 'word/styles.xml');
    // Outline levels make the navigation pane and a table of contents work.
    for (const level of [0, 1, 2, 3]) {
      expect(styles).toMatch(
        new RegExp(`w:styleId="Heading${level + 1}"[\\s\\S]*?<w:outlineLvl w:val="${level}"/>`),
      );
    }
    expect(part(bytes, 'word/document.xml')).toMatch(/<w:pStyle w:val="Heading1"\/><w:pageBreakBefore\/>/);
  });

  it('numbers lists through numbering definitions, ordered ones from their start', async () => {
    const bytes = await documentToDocx(document, { creationDate: CREATED });
    const numbering = part(bytes, 'word/numbering.xml');
    expect(numbering).toContain('w:val="bullet"');
    expect(numbering).toMatch(/<w:numFmt w:val="decimal"\/>/);
    expect(numbering).toMatch(/<w:startOverride w:val="3"\/>/);
    const xml = part(bytes, 'word/document.xml');
    // The nested bullet item sits on level 1 of the list.
    expect(xml).toMatch(/<w:ilvl w:val="1"\/>[\s\S]{0,400}?Nested point on Company and Mission/);
  });

  it('writes allowed links as hyperlinks, refused ones as plain text, and code in a monospace font', async () => {
    const bytes = await documentToDocx(
      documentOf(
        section(1, 'Links', [
          paragraph('p-1', [text('good', [link('https://example.com/a')]), text(' and ')]),
          paragraph('p-2', [text('evil', [link('javascript:alert(1)')]), text(' x', [{ type: 'code' }])]),
        ]),
      ),
      { creationDate: CREATED },
    );
    const rels = part(bytes, 'word/_rels/document.xml.rels');
    expect(rels).toContain('Target="https://example.com/a"');
    expect(rels).not.toContain('javascript');
    const xml = part(bytes, 'word/document.xml');
    expect(xml.match(/<w:hyperlink /g)).toHaveLength(1);
    expect(xml).toContain('evil');
    expect(xml).toMatch(/<w:rFonts w:ascii="Courier New"[^>]*\/>[\s\S]{0,200}? x</);
  });

  it('F63: writes a UNC path, file:, a relative path or tel: as plain text; #anchor as an internal link', async () => {
    const hostile = NON_EXPORTABLE_HREFS;
    const bytes = await documentToDocx(
      linksDocument(hostile, [paragraph('p-anchor', [text('jump', [link('#market')])])]),
      { creationDate: CREATED },
    );
    const rels = part(bytes, 'word/_rels/document.xml.rels');
    expect(rels).toContain('Target="mailto:ada@example.com"');
    for (const href of ['host', 'share', 'file:', 'x.docx', 'tel:']) expect(rels).not.toContain(href);
    const xml = part(bytes, 'word/document.xml');
    expect(xml.match(/<w:hyperlink /g)).toHaveLength(2);
    expect(xml).toContain('<w:hyperlink w:history="1" w:anchor="market">');
    for (let index = 0; index < hostile.length; index += 1) expect(xml).toContain(`hostile ${index}`);
  });

  it('gives the same bytes for the same document and date, and another for another date', async () => {
    const first = await documentToDocx(document, { title: 'Plan', creationDate: CREATED });
    const second = await documentToDocx(document, { title: 'Plan', creationDate: CREATED });
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    expect(part(first, 'docProps/core.xml')).toContain('>2026-03-04T05:06:07Z<');
    const later = await documentToDocx(document, {
      title: 'Plan',
      creationDate: new Date('2027-01-01T00:00:00Z'),
    });
    expect(Buffer.from(later).equals(Buffer.from(first))).toBe(false);
  });

  it('uses "Untitled" names for blank titles and never writes characters XML cannot hold', async () => {
    const bytes = await documentToDocx(
      documentOf(
        section(1, '', [paragraph('p-1', [text('bell\u0007 and nul\u0000 gone')])], [subsection(2, '')]),
      ),
      { title: '  ', creationDate: CREATED },
    );
    const paragraphs = styledParagraphs(bytes);
    expect(paragraphs.slice(0, 3)).toEqual([
      { style: 'Title', text: 'Untitled Document' },
      { style: 'Heading1', text: 'Untitled Section' },
      { style: null, text: 'bell and nul gone' },
    ]);
    expect(paragraphs[3]).toEqual({ style: 'Heading2', text: 'Untitled Subsection' });
  });
});

describe('documentToDocx, opened in LibreOffice', () => {
  let workDir = '';
  let profileUrl = '';

  /** Converts a .docx with LibreOffice (one soffice at a time: the calls are awaited in turn). */
  async function convert(docx: string, format: 'pdf' | 'html'): Promise<string> {
    await runTool('soffice', [
      `-env:UserInstallation=${profileUrl}`,
      '--headless',
      '--norestore',
      '--convert-to',
      format,
      '--outdir',
      workDir,
      docx,
    ]);
    return docx.replace(/\.docx$/, `.${format}`);
  }

  /** The h1–h4 outline LibreOffice reads from the file's paragraph styles. */
  function htmlOutline(htmlPath: string): PlanOutlineEntry[] {
    const { document } = parseHTML(readFileSync(htmlPath, 'utf8'));
    return [...document.querySelectorAll('h1, h2, h3, h4')].map((heading) => ({
      level: Number(heading.tagName.slice(1)) as PlanOutlineEntry['level'],
      text: folded(heading.textContent ?? ''),
    }));
  }

  async function exportAndOpen(name: string, document: DocumentJson, title: string) {
    const path = join(workDir, `${name}.docx`);
    writeFileSync(path, await documentToDocx(document, { title, creationDate: CREATED }));
    const pdf = await convert(path, 'pdf');
    const html = await convert(path, 'html');
    return { pdf, html };
  }

  beforeAll(async () => {
    await ensureExportTools('LIBREOFFICE', 'POPPLER');
    workDir = mkdtempSync(join(tmpdir(), 'planwright-docx-export-'));
    // One LibreOffice profile for this file, reused by every conversion (a first start creates it).
    profileUrl = pathToFileURL(join(workDir, 'profile')).href;
  });

  afterAll(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('shows every heading and paragraph of the default-blueprint plan, with the same outline', async () => {
    const document = planDocument();
    const { pdf, html } = await exportAndOpen('plan', document, 'Acme Business Plan');
    const pages = await pdfPages(pdf);
    expect(folded(pages[0] ?? '')).toBe('Acme Business Plan');
    // The title has its page, and every section starts one.
    const sectionTitles = headingOutline(document)
      .filter((entry) => entry.level === 1)
      .map((entry) => entry.text);
    const pageStarts = pages.map((page) => page.trim().split('\n')[0]?.trim());
    expect(pageStarts.filter((start) => start !== undefined && sectionTitles.includes(start))).toEqual(
      sectionTitles,
    );
    const all = folded(pages.join(' '));
    for (const entry of headingOutline(document)) expect(all).toContain(entry.text);
    for (const paragraphText of paragraphTexts(document)) expect(all).toContain(folded(paragraphText));
    expect(all).toContain("const plan = '1';");
    expect(htmlOutline(html)).toEqual(headingOutline(document));
    // Ordered lists keep their start; LibreOffice writes it on the list.
    expect(readFileSync(html, 'utf8')).toMatch(/<ol start="3"/);
  }, 180_000);

  it('opens a document made of the naughty strings, with its outline intact', async () => {
    const { document, titles } = hostileDocument();
    const { pdf, html } = await exportAndOpen('naughty', document, '<script>alert("title")</script> 🚀');
    expect(await pdfPageCount(pdf)).toBeGreaterThan(titles.length);
    const outline = htmlOutline(html).filter((entry) => entry.level === 1);
    expect(outline.map((entry) => entry.text)).toEqual(titles);
    const all = folded((await pdfPages(pdf)).join(' '));
    expect(all).toContain('<script>alert(');
    expect(all).toContain('hasOwnProperty');
  }, 180_000);
});
