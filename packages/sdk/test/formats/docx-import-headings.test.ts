import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { describe, expect, test } from 'vitest';
import { docxToDocument } from '../../src/formats/node/docx-import.js';
import { outlineOf } from '../../src/model/index.js';

const BODY =
  'We roast coffee in small batches and sell it to offices across the city, with a monthly subscription.';

/** A paragraph of one run; `size` in points. */
function line(text: string, options: { bold?: boolean; size?: number } = {}): Paragraph {
  return new Paragraph({
    children: [
      new TextRun({ text, bold: options.bold, ...(options.size ? { size: options.size * 2 } : {}) }),
    ],
  });
}

async function outline(children: (Paragraph | Table)[]) {
  const bytes = new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children }] })));
  const result = await docxToDocument(bytes);
  return {
    title: result.title,
    sections: outlineOf(result.document).sections.map((section) => [
      section.title,
      section.subsections.map((subsection) => subsection.title),
    ]),
    notes: result.report.notes,
  };
}

describe('docxToDocument: headings written as direct formatting (F51a)', () => {
  test('numbered bold lines are sections and subsections; a larger first line is the title; labels, tables and bold words are not', async () => {
    const { title, sections, notes } = await outline([
      line('Acme Coffee Business Plan', { bold: true, size: 24 }),
      line('1. Executive Summary', { bold: true, size: 14 }),
      line(BODY),
      line('1.1 Mission', { bold: true }),
      line(BODY),
      line('1.2 Keys to success'),
      line(BODY),
      line('2. Market Analysis', { bold: true, size: 14 }),
      line(BODY),
      new Paragraph({
        children: [new TextRun('Some '), new TextRun({ text: 'bold', bold: true }), new TextRun(' words')],
      }),
      line('Important:', { bold: true }),
      line('A whole bold sentence that ends with a full stop.', { bold: true }),
      new Table({
        rows: [
          new TableRow({ children: [new TableCell({ children: [line('Cell', { bold: true, size: 16 })] })] }),
        ],
      }),
      line('3. Financial Plan', { bold: true, size: 14 }),
      line(BODY),
    ]);
    expect(title).toBe('Acme Coffee Business Plan');
    expect(sections).toEqual([
      ['1. Executive Summary', ['1.1 Mission', '1.2 Keys to success']],
      ['2. Market Analysis', []],
      ['3. Financial Plan', []],
    ]);
    expect(notes[0]).toEqual({
      code: 'heading_inferred',
      count: 5,
      message:
        '5 headings were recognised from direct formatting (bold, larger or numbered paragraphs; the file uses no Heading styles): check the sections.',
    });
  });

  test('unnumbered: larger bold lines are sections, bold body-size lines subsections', async () => {
    const { sections } = await outline([
      line('Company', { bold: true, size: 16 }),
      line(BODY),
      line('Our story', { bold: true }),
      line(BODY),
      line('Market', { bold: true, size: 16 }),
      line(BODY),
    ]);
    expect(sections).toEqual([
      ['Company', ['Our story']],
      ['Market', []],
    ]);
  });

  test('a file with Heading styles is read by its styles alone; one bold line alone is emphasis', async () => {
    const styled = await outline([
      new Paragraph({ text: 'Styled', heading: HeadingLevel.HEADING_1 }),
      line('Bold line', { bold: true, size: 16 }),
      line('Another', { bold: true, size: 16 }),
      line(BODY),
    ]);
    expect(styled.sections).toEqual([['Styled', []]]);
    expect(styled.notes.map((note) => note.code)).not.toContain('heading_inferred');
    const lone = await outline([line('Only this', { bold: true, size: 16 }), line(BODY)]);
    expect(lone.sections).toEqual([['Untitled', []]]);
  });

  test('hostile: thousands of bold lines and an empty document stay linear and never crash', async () => {
    // More candidates than a spread call can take as arguments.
    const many = await outline(
      Array.from({ length: 105_000 }, (_, index) =>
        line(`${(index % 99) + 1}. Part ${index}`, { bold: true }),
      ),
    ).catch((error: unknown) => error);
    // 105,000 sections is past the model's 100,000 nodes: a clean too_large, never a RangeError.
    expect((many as { reason?: string }).reason).toBe('too_large');
    const some = await outline(
      Array.from({ length: 3000 }, (_, index) => line(`${(index % 99) + 1}. Part ${index}`, { bold: true })),
    );
    expect(some.sections.length).toBe(3000);
    const empty = await outline([]);
    expect(empty.sections).toEqual([['', []]]);
  }, 60_000);
});
