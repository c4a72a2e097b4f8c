import {
  Document,
  FootnoteReferenceRun,
  HeadingLevel,
  Math as MathEquation,
  MathFraction,
  MathRun,
  Packer,
  Paragraph,
  TextRun,
} from 'docx';
import { unzipSync, zipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { FormatError } from '../../src/errors/format-error.js';
import type { ImportResult } from '../../src/formats/import-report.js';
import { docxToDocument } from '../../src/formats/node/docx-import.js';
import type { DocumentJson, SectionJson } from '../../src/model/index.js';
import { readCorpusBytes } from '../support/corpus.js';

const corpus = readCorpusBytes;
const importCorpus = (name: string): Promise<ImportResult> => docxToDocument(corpus(`docx/${name}`));

interface AnyNode {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
  content?: AnyNode[];
}

/** Every text of the document, a line per block. */
function textOf(node: AnyNode): string {
  if (node.type === 'text') return node.text ?? '';
  if (node.type === 'hardBreak') return '\n';
  const inner = (node.content ?? []).map(textOf);
  return ['paragraph', 'heading', 'sectionHeading', 'subsectionHeading', 'codeBlock'].includes(node.type)
    ? `${inner.join('')}\n`
    : inner.join('');
}

/** The text nodes, depth first. */
function textNodes(node: AnyNode): AnyNode[] {
  return node.type === 'text' ? [node] : (node.content ?? []).flatMap(textNodes);
}

/** The blocks of a section in reading order: its own, then each subsection's heading and blocks. */
function sectionBlocks(section: SectionJson): AnyNode[] {
  return (section.content as AnyNode[]).flatMap((node) =>
    node.type === 'subsection' ? (node.content ?? []) : [node],
  );
}

function noteCount(result: ImportResult, code: string): number {
  return result.report.notes.find((note) => note.code === code)?.count ?? 0;
}

/** Decodes the predefined XML entities. */
function xmlText(value: string): string {
  return value.replace(
    /&(amp|lt|gt|quot|apos);/g,
    (_whole, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name] ?? '',
  );
}

/** `w:t`-like texts of an XML part of a corpus file. */
function partTexts(name: string, part: string, element: string): string[] {
  const xml = new TextDecoder().decode(unzipSync(corpus(`docx/${name}`))[part]);
  return [...xml.matchAll(new RegExp(`<${element}(?:\\s[^>]*)?>([^<]*)</${element}>`, 'g'))].map((m) =>
    xmlText(m[1] ?? ''),
  );
}

describe('docxToDocument on the corpus (F50–F59)', () => {
  test('footnotes become paragraphs at the end of their section, the reference keeps "[N]"', async () => {
    const result = await importCorpus('mammoth-footnotes.docx');
    const blocks = sectionBlocks((result.document as DocumentJson).content[0] as SectionJson).map(textOf);
    expect(blocks).toEqual([
      'Untitled\n',
      'Ouch[1].[2]\n',
      '[1] A tachyon walks into a bar.\n',
      '[2] Fin.\n',
    ]);
    expect(noteCount(result, 'footnote_moved')).toBe(2);
    expect(result.report.notes.map((note) => note.code)).not.toContain('formatting_dropped');
  });

  test('a footnote goes to the end of the section that references it, after its subsections', async () => {
    const file = new Document({
      footnotes: {
        1: { children: [new Paragraph('Note of Alpha')] },
        2: { children: [new Paragraph('Note of Beta')] },
      },
      sections: [
        {
          children: [
            new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Alpha')] }),
            new Paragraph({ children: [new TextRun('Alpha body'), new FootnoteReferenceRun(1)] }),
            new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun('Alpha part')] }),
            new Paragraph('Alpha part body'),
            new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Beta')] }),
            new Paragraph({ children: [new TextRun('Beta body'), new FootnoteReferenceRun(2)] }),
          ],
        },
      ],
    });
    const result = await docxToDocument(new Uint8Array(await Packer.toBuffer(file)));
    const [alpha, beta] = (result.document as DocumentJson).content as SectionJson[];
    expect(sectionBlocks(alpha as SectionJson).map(textOf)).toEqual([
      'Alpha\n',
      'Alpha body[1]\n',
      'Alpha part\n',
      'Alpha part body\n',
      '[1] Note of Alpha\n',
    ]);
    expect(sectionBlocks(beta as SectionJson).map(textOf)).toEqual([
      'Beta\n',
      'Beta body[2]\n',
      '[2] Note of Beta\n',
    ]);
    expect(noteCount(result, 'footnote_moved')).toBe(2);
  });

  test('comments never leak into the text', async () => {
    const result = await importCorpus('mammoth-comments.docx');
    const text = textOf(result.document as AnyNode);
    expect(text).toContain('Ouch.');
    const comments = partTexts('mammoth-comments.docx', 'word/comments.xml', 'w:t').filter(
      (t) => t.trim() !== '',
    );
    expect(comments.length).toBeGreaterThan(0);
    for (const comment of comments) expect(text).not.toContain(comment.trim());
    expect(noteCount(result, 'comment_dropped')).toBe(2);
  });

  test('tracked deletions never leak; tracked insertions are kept', async () => {
    const result = await importCorpus('poi-delins.docx');
    const text = textOf(result.document as AnyNode).replace(/\s+/g, ' ');
    const deleted = partTexts('poi-delins.docx', 'word/document.xml', 'w:delText').filter(
      (t) => t.trim().length > 8,
    );
    expect(deleted.length).toBeGreaterThan(3);
    for (const piece of deleted) expect(text).not.toContain(piece.trim());
    const xml = new TextDecoder().decode(unzipSync(corpus('docx/poi-delins.docx'))['word/document.xml']);
    const inserted = [...xml.matchAll(/<w:ins\s[^>]*[^/]>([\s\S]*?)<\/w:ins>/g)]
      .map((m) =>
        [...(m[1] ?? '').matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)]
          .map((t) => xmlText(t[1] ?? ''))
          .join(''),
      )
      .filter((t) => t.trim().length > 8);
    expect(inserted.length).toBeGreaterThan(3);
    for (const piece of inserted) expect(text).toContain(piece.trim());
    expect(noteCount(result, 'tracked_deletion_dropped')).toBeGreaterThan(0);
  });

  test('the five images are dropped and counted', async () => {
    const result = await importCorpus('python-docx-having-images.docx');
    expect(noteCount(result, 'image_dropped')).toBe(5);
    expect(result.report.notes.find((note) => note.code === 'image_dropped')?.message).toBe(
      '5 images were dropped: documents hold text only.',
    );
  });

  test('a table becomes one paragraph per row with a note', async () => {
    const result = await importCorpus('mammoth-tables.docx');
    expect(textOf(result.document as AnyNode)).toBe(
      'Untitled\nAbove\nTop left | Top right\nBottom left | Bottom right\nBelow\n',
    );
    expect(noteCount(result, 'table_flattened')).toBe(1);
  });

  test('external links are kept, links to bookmarks keep their text only', async () => {
    const result = await importCorpus('python-docx-par-hlink-frags.docx');
    const links = textNodes(result.document as AnyNode).flatMap((node) =>
      (node.marks ?? []).filter((mark) => mark.type === 'link').map((mark) => mark.attrs?.href),
    );
    expect(links).toEqual(
      expect.arrayContaining([
        'https://foo.com',
        'https://foo.com?q=bar',
        'http://foo.com/#intro',
        'https://foo.com?q=bar#baz',
      ]),
    );
    expect(links.every((href) => typeof href === 'string' && !href.startsWith('#'))).toBe(true);
    expect(textOf(result.document as AnyNode)).toContain('Two with link to bookmark.');
  });

  test('a text box is read once, not twice', async () => {
    const text = textOf((await importCorpus('mammoth-text-box.docx')).document as AnyNode);
    expect(text.match(/Datum plane/g)).toHaveLength(1);
  });

  test('a strict-format (ISO 29500 Strict) file imports', async () => {
    expect(textOf((await importCorpus('mammoth-strict-format.docx')).document as AnyNode)).toContain('Test');
  });

  test('localized style ids are read by style name: headings, quote, block text, list', async () => {
    const result = await importCorpus('pandoc-i18n_blocks.docx');
    const section = (result.document as DocumentJson).content[0] as AnyNode;
    const subsection = section.content?.find((node) => node.type === 'subsection');
    expect(subsection?.content?.map((node) => node.type)).toEqual([
      'subsectionHeading',
      'blockquote',
      'bulletList',
    ]);
    expect(textOf(subsection?.content?.[1] as AnyNode)).toBe('This is Quote\nThis is Block Text\n');
    expect(result.report.notes).toEqual([]);
  });

  test('Quote and Intense Quote are quotes; a "Source Code" paragraph is a code block with its line breaks', async () => {
    const quotes = await importCorpus('pandoc-block_quotes.docx');
    const kinds = sectionBlocks((quotes.document as DocumentJson).content[0] as SectionJson).map(
      (node) => node.type,
    );
    expect(kinds.filter((kind) => kind === 'blockquote')).toHaveLength(2);
    const code = await importCorpus('pandoc-codeblock.docx');
    const block = sectionBlocks((code.document as DocumentJson).content[0] as SectionJson).find(
      (node) => node.type === 'codeBlock',
    );
    expect(block?.content?.[0]?.text).toBe(
      'readDocx :: ReaderOptions\n         -> B.ByteString\n         -> Pandoc',
    );
  });

  test('marks are kept; small caps, superscript and subscript are counted as dropped formatting', async () => {
    const result = await importCorpus('pandoc-inline_formatting.docx');
    const marks = new Set(
      textNodes(result.document as AnyNode).flatMap((node) => (node.marks ?? []).map((m) => m.type)),
    );
    expect([...marks].sort()).toEqual(['bold', 'italic', 'strike', 'underline']);
    expect(noteCount(result, 'formatting_dropped')).toBe(3);
    expect(textOf(result.document as AnyNode)).toContain('A line\nbreak.');
  });

  test('nested lists stay nested', async () => {
    const result = await importCorpus('pandoc-lists.docx');
    const subsection = ((result.document as DocumentJson).content[0] as AnyNode).content?.[1];
    const ordered = subsection?.content?.[1];
    expect(ordered?.type).toBe('orderedList');
    expect(ordered?.content?.[1]?.content?.[1]?.type).toBe('orderedList');
  });

  test('headings 5 and 6 become level 4 with a note; an undefined "Heading7" style is Normal', async () => {
    const result = await importCorpus('pandoc-headers.docx');
    expect(noteCount(result, 'heading_demoted')).toBe(2);
    expect(textOf(result.document as AnyNode)).toContain('Seventh level');
  });
});

describe('docxToDocument refuses hostile files with a typed error, before mammoth runs', () => {
  test.each([
    ['docx-malformed/poi-truncated62886.docx', 'not_a_zip'],
    ['docx-malformed/poi-bug53475-password-is-pass.docx', 'encrypted'],
    ['docx-malformed/poi-ExternalEntityInText.docx', 'xml_entities'],
  ])('%s → %s', async (path, reason) => {
    const error = await docxToDocument(corpus(path)).catch((caught: unknown) => caught);
    expect(FormatError.isInstance(error)).toBe(true);
    expect((error as FormatError).reason).toBe(reason);
  });

  test('a .docx with two word/document.xml entries is refused with a clear error, not read from one copy', async () => {
    const zip = unzipSync(corpus('docx/pandoc-lists.docx'));
    const decoy = 'word/documenX.xml';
    const original = zip['word/document.xml'] as Uint8Array;
    const bytes = zipSync({ ...zip, [decoy]: original });
    const from = new TextEncoder().encode(decoy);
    for (let at = 0; at <= bytes.length - from.length; at += 1) {
      if (from.every((byte, index) => bytes[at + index] === byte))
        bytes.set(new TextEncoder().encode('word/document.xml'), at);
    }
    const error = await docxToDocument(bytes).catch((caught: unknown) => caught);
    expect(FormatError.isInstance(error)).toBe(true);
    expect((error as FormatError).reason).toBe('duplicate_entry');
    expect((error as FormatError).message).toBe(
      'The file holds two parts with the same name, so Word and Planwright could read different content; it was refused.',
    );
  });

  test('the limits reach the guard', async () => {
    const error = await docxToDocument(corpus('docx/poi-delins.docx'), {
      limits: { maxUnpackedBytes: 10_000 },
    }).catch((caught: unknown) => caught);
    expect((error as FormatError).reason).toBe('too_large');
  });
});

describe('docxToDocument: the Title paragraph (F52)', () => {
  test('a file with a Title and no Heading 1 is one section with that title', async () => {
    const buffer = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph({ text: 'Acme Plan', heading: HeadingLevel.TITLE }),
              new Paragraph({ text: 'Market', heading: HeadingLevel.HEADING_2 }),
              new Paragraph('Text.'),
            ],
          },
        ],
      }),
    );
    const { document, title, report } = await docxToDocument(new Uint8Array(buffer));
    expect(title).toBe('Acme Plan');
    expect(textOf(document as AnyNode)).toBe('Acme Plan\nMarket\nText.\n');
    expect(report.notes.map((note) => note.code)).not.toContain('untitled_section_added');
  });
});

describe('docxToDocument: Word equations (F57a)', () => {
  const withEquations = (children: Paragraph[]): Promise<Uint8Array> =>
    Packer.toBuffer(new Document({ sections: [{ children }] })).then((buffer) => new Uint8Array(buffer));

  test('an equation keeps its text in its paragraph, and the note says the layout was lost', async () => {
    const bytes = await withEquations([
      new Paragraph({ text: 'Growth', heading: HeadingLevel.HEADING_1 }),
      new Paragraph({
        children: [
          new TextRun('Revenue is '),
          new MathEquation({
            children: [
              new MathRun('R = '),
              new MathFraction({ numerator: [new MathRun('p × q')], denominator: [new MathRun('2')] }),
            ],
          }),
          new TextRun(' per year.'),
        ],
      }),
      new Paragraph({ children: [new MathEquation({ children: [new MathRun('a < b & c')] })] }),
    ]);
    expect(new TextDecoder().decode(unzipSync(bytes)['word/document.xml'])).toContain('<m:oMath>');
    const { document, report } = await docxToDocument(bytes);
    const text = textOf(document as AnyNode);
    expect(text).toContain('Revenue is R = p × q2 per year.');
    expect(text).toContain('a < b & c');
    expect(report.notes).toContainEqual({
      code: 'equation_as_text',
      count: 2,
      message:
        "2 Word equations were kept as plain text (their layout, fractions and symbols' positions are lost).",
    });
  });

  test('an equation with no text is left out and said so; a file without equations has no such note', async () => {
    const bytes = await withEquations([
      new Paragraph({ text: 'S', heading: HeadingLevel.HEADING_1 }),
      new Paragraph({ children: [new TextRun('x'), new MathEquation({ children: [] })] }),
    ]);
    const { report } = await docxToDocument(bytes);
    expect(report.notes.find((note) => note.code === 'equation_as_text')?.message).toBe(
      '1 Word equation with no text left out.',
    );
    const plain = await importCorpus('pandoc-lists.docx');
    expect(plain.report.notes.map((note) => note.code)).not.toContain('equation_as_text');
  });
});
