import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffDocuments } from '../../src/formats/document-diff.js';
import { diffToDocx } from '../../src/formats/node/docx-diff.js';
import type { DocumentJson, SectionJson, SubsectionJson } from '../../src/model/document-json.js';
import { ensureExportTools, runTool } from './docx-export-plan.js';

const text = (value: string) => (value === '' ? [] : [{ type: 'text' as const, text: value }]);
function subsection(uuid: string, title: string, body: string): SubsectionJson {
  return {
    type: 'subsection',
    attrs: { uuid, blueprint_uuid: null, finalized: false },
    content: [
      { type: 'subsectionHeading', attrs: { level: 2 }, content: text(title) },
      { type: 'paragraph', attrs: { nodeId: null }, content: text(body) },
    ],
  } as unknown as SubsectionJson;
}
const plan = (body: string, extra: SubsectionJson[] = []): DocumentJson => ({
  type: 'doc',
  content: [
    {
      type: 'section',
      attrs: { uuid: 's1', blueprint_uuid: null, id: null, model: null },
      content: [
        { type: 'sectionHeading', attrs: { level: 1 }, content: text('Market') },
        subsection('a', 'Size', body),
        ...extra,
      ],
    } as SectionJson,
  ],
});

const before = plan('A market of 3 billion in Europe.');
const after = plan('A market of 4 billion in Europe.', [subsection('b', 'Risks', 'Flour prices.')]);
const labels = { from: '“v3”', to: 'now' };
const documentXml = (bytes: Uint8Array) => new TextDecoder().decode(unzipSync(bytes)['word/document.xml']);

describe('diffToDocx', () => {
  it('writes the added words as tracked insertions and the removed ones as tracked deletions, by the author given', async () => {
    const bytes = await diffToDocx(diffDocuments(before, after), labels, {
      author: 'Ada Lovelace',
      date: new Date('2026-11-29T10:00:00Z'),
    });
    const xml = documentXml(bytes);
    expect(xml).toMatch(
      /<w:ins w:id="\d+" w:author="Ada Lovelace" w:date="2026-11-29T10:00:00Z">.*?<w:t[^>]*>4<\/w:t>/s,
    );
    expect(xml).toMatch(
      /<w:del w:id="\d+" w:author="Ada Lovelace" w:date="2026-11-29T10:00:00Z">.*?<w:delText[^>]*>3<\/w:delText>/s,
    );
    expect(xml).toContain('Changes from “v3” to now');
    expect(xml).toContain('Flour prices.');
    // Ids of tracked changes are unique in the file.
    const ids = [...xml.matchAll(/<w:(?:ins|del) w:id="(\d+)"/g)].map((match) => match[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps text Word cannot hold out, and says when nothing changed', async () => {
    const hostile = plan('Bell \u0007 and a lone \ud800 surrogate.');
    const xml = documentXml(await diffToDocx(diffDocuments(before, hostile), labels));
    expect(xml.includes('\u0007') || xml.includes('\ud800')).toBe(false);
    expect(xml).toContain('>Bell<');
    expect(xml).toContain('>surrogate<');
    expect(documentXml(await diffToDocx(diffDocuments(before, before), labels))).toContain(
      'Nothing changed.',
    );
  });
});

describe('diffToDocx, opened in LibreOffice', () => {
  let workDir = '';

  beforeAll(async () => {
    await ensureExportTools('LIBREOFFICE');
    workDir = mkdtempSync(join(tmpdir(), 'planwright-docx-diff-'));
  });
  afterAll(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('reads the tracked changes as such: an insertion and a deletion LibreOffice can accept or reject', async () => {
    const path = join(workDir, 'changes.docx');
    writeFileSync(path, await diffToDocx(diffDocuments(before, after), labels, { author: 'Ada Lovelace' }));
    await runTool('soffice', [
      `-env:UserInstallation=${pathToFileURL(join(workDir, 'profile')).href}`,
      '--headless',
      '--norestore',
      '--convert-to',
      'fodt',
      '--outdir',
      workDir,
      path,
    ]);
    const flat = readFileSync(join(workDir, 'changes.fodt'), 'utf8');
    expect(flat).toContain('<text:tracked-changes');
    expect(flat).toMatch(/<text:insertion>.*?<dc:creator>Ada Lovelace<\/dc:creator>/s);
    expect(flat).toMatch(/<text:deletion>.*?3/s);
    expect(flat).toContain('Flour prices.');
  });
});
