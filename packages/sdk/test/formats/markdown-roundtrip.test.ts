import { documentToMarkdown, markdownToDocument } from '@planwright/sdk/formats';
import { type DocumentJson, getPlanwrightSchema } from '@planwright/sdk/model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCorpusFile } from '../support/corpus.js';
import { countingIds } from '../support/model-documents.js';
import { documentArb, paragraphsArb, representableDocumentArb, withoutIds } from './markdown-documents.js';

interface SpecExample {
  markdown: string;
  example: number;
  section: string;
}

/** Markdown → document → Markdown → document → Markdown, with deterministic ids. */
function roundTrip(markdown: string): { md1: string; md2: string; doc1: DocumentJson; doc2: DocumentJson } {
  const generateId = countingIds();
  const doc0 = markdownToDocument(markdown, { generateId }).document;
  const md1 = documentToMarkdown(doc0);
  const doc1 = markdownToDocument(md1, { generateId }).document;
  const md2 = documentToMarkdown(doc1);
  const doc2 = markdownToDocument(md2, { generateId }).document;
  return { md1, md2, doc1, doc2 };
}

function paragraphDocument(text: string, title = 'Title'): DocumentJson {
  return {
    type: 'doc',
    content: [
      {
        type: 'section',
        attrs: { uuid: '00000000-0000-4000-8000-000000000001', blueprint_uuid: null, id: null, model: null },
        content: [
          {
            type: 'sectionHeading',
            attrs: { level: 1 },
            ...(title === '' ? {} : { content: [{ type: 'text', text: title }] }),
          },
          { type: 'paragraph', attrs: { indent: 0, nodeId: 'p1' }, content: [{ type: 'text', text }] },
        ],
      },
    ],
  };
}

describe('Markdown round trip (F20, F21)', () => {
  it('F20: every CommonMark 0.31.2 spec example is stable from the second pass on', () => {
    const examples = JSON.parse(readCorpusFile('markdown/commonmark-spec-0.31.2.json')) as SpecExample[];
    expect(examples).toHaveLength(652);
    const unstable: string[] = [];
    for (const example of examples) {
      const { md1, md2, doc1, doc2 } = roundTrip(example.markdown);
      // Each export loads in the schema, so the comparison is between real documents.
      getPlanwrightSchema().nodeFromJSON(doc2).check();
      if (md2 !== md1 || JSON.stringify(withoutIds(doc1)) !== JSON.stringify(withoutIds(doc2))) {
        unstable.push(
          `example ${example.example} (${example.section}): ${JSON.stringify(md1)} → ${JSON.stringify(md2)}`,
        );
      }
    }
    // No exclusions: every example either round-trips or its content has no Markdown form at all.
    expect(unstable).toEqual([]);
  });

  it('F20: generated documents give the same Markdown again after one import (fast-check)', () => {
    fc.assert(
      fc.property(documentArb, (document) => {
        const generateId = countingIds();
        const md1 = documentToMarkdown(document);
        const doc1 = markdownToDocument(md1, { generateId }).document;
        const md2 = documentToMarkdown(doc1);
        expect(md2).toBe(md1);
        expect(withoutIds(markdownToDocument(md2, { generateId }).document)).toEqual(withoutIds(doc1));
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('F21: paragraphs of any text, marks, links and breaks come back exactly (fast-check)', () => {
    fc.assert(
      fc.property(paragraphsArb, (document) => {
        const back = markdownToDocument(documentToMarkdown(document), { generateId: countingIds() }).document;
        expect(withoutIds(back)).toEqual(withoutIds(document));
      }),
      { numRuns: 1000 },
    );
  }, 60_000);

  it('F21: documents whose every part has a Markdown form come back exactly (fast-check)', () => {
    fc.assert(
      fc.property(representableDocumentArb, (document) => {
        const back = markdownToDocument(documentToMarkdown(document), { generateId: countingIds() }).document;
        expect(withoutIds(back)).toEqual(withoutIds(document));
      }),
      { numRuns: 500 },
    );
  }, 60_000);

  it('F21: every string of the Big List of Naughty Strings survives as a paragraph and as a title', () => {
    const strings = JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];
    expect(strings.length).toBeGreaterThan(500);
    const changed: string[] = [];
    for (const value of strings) {
      // A paragraph of white space only is left out (F16); the title then stands alone.
      if (value.trim() === '') continue;
      const document = paragraphDocument(value, value);
      const back = markdownToDocument(documentToMarkdown(document), { generateId: countingIds() });
      const section = back.document.content[0];
      const title = (section?.content[0].content ?? []).map((node) => node.text).join('');
      const paragraph = section?.content[1];
      const text =
        paragraph?.type === 'paragraph'
          ? (paragraph.content ?? []).map((node) => ('text' in node ? node.text : '\n')).join('')
          : '';
      if (title !== value || text !== value || back.document.content.length !== 1)
        changed.push(JSON.stringify(value));
      expect(back.report.notes).toEqual([]);
    }
    expect(changed).toEqual([]);
  });

  it('F21: characters CommonMark cannot carry are the documented exceptions', () => {
    // U+0000 becomes U+FFFD (CommonMark §2.3); the server refuses NUL anyway.
    expect(roundTripText('a\u0000b')).toBe('a\uFFFDb');
    // A line feed or carriage return inside a code span becomes a space.
    const code = paragraphDocument('x');
    const paragraph = code.content[0]?.content[1];
    if (paragraph?.type === 'paragraph')
      paragraph.content = [{ type: 'text', text: 'a\nb', marks: [{ type: 'code' }] }];
    expect(documentToMarkdown(code)).toBe('# Title\n\n`a b`\n');
  });
});

function roundTripText(text: string): string {
  const back = markdownToDocument(documentToMarkdown(paragraphDocument(text))).document;
  const paragraph = back.content[0]?.content[1];
  return paragraph?.type === 'paragraph'
    ? (paragraph.content ?? []).map((node) => ('text' in node ? node.text : '')).join('')
    : '';
}
