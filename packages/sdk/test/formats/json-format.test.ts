import { documentToJson, FormatError, jsonToDocument } from '@planwright/sdk/formats';
import { normalizeDocument } from '@planwright/sdk/model';
import { describe, expect, it } from 'vitest';
import { countingIds, specDocument } from '../support/model-documents.js';

function refusal(text: string): FormatError {
  try {
    jsonToDocument(text, { generateId: countingIds() });
  } catch (error) {
    if (FormatError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a FormatError');
}

describe('Tiptap JSON (F23–F26)', () => {
  it('F23: a normalised document comes back equal, with no notes', () => {
    const document = specDocument();
    const { document: back, report } = jsonToDocument(documentToJson(document));
    expect(back).toEqual(document);
    expect(report).toEqual({ format: 'json', notes: [] });
  });

  it('F23: the bare tree or a wrapper whose content is the tree', () => {
    const document = specDocument();
    expect(jsonToDocument(JSON.stringify({ content: document, title: 'x' })).document).toEqual(document);
    expect(jsonToDocument(`\uFEFF${JSON.stringify(document)}`).document).toEqual(document);
  });

  it('F24: repairs are reported as content_repaired', () => {
    const { document, report } = jsonToDocument(
      JSON.stringify({
        type: 'doc',
        content: [{ type: 'paragraph', content: [{ type: 'text', text: 'loose' }] }],
      }),
      { generateId: countingIds() },
    );
    expect(document.content[0]?.content[1]).toMatchObject({
      type: 'paragraph',
      content: [{ text: 'loose' }],
    });
    expect(report.notes).toEqual([expect.objectContaining({ code: 'content_repaired' })]);
    expect(report.notes[0]?.count).toBeGreaterThan(1);
  });

  it('F25: text that is not JSON is invalid_document with a one-line message', () => {
    const error = refusal('{"type": "doc", ');
    expect(error.reason).toBe('invalid_document');
    expect(error.message).toMatch(/^The file is not valid JSON: /);
    expect(error.message).not.toContain('\n');
  });

  it('F25: a tree that cannot be a document is refused with its path', () => {
    const error = refusal(
      JSON.stringify({ type: 'doc', content: [{ type: 'section', content: [{ type: 'text', text: 5 }] }] }),
    );
    expect(error.reason).toBe('invalid_document');
    expect(error.message).toBe(
      'The JSON is not a Planwright document: Invalid document at content[0].content[0]: text must be a string',
    );
    expect(refusal('[1, 2]').reason).toBe('invalid_document');
    expect(refusal('null').reason).toBe('invalid_document');
  });

  it('F25: too deep or too many nodes is refused, not a crash', () => {
    const deep = `${'{"type":"doc","content":['.repeat(1)}${'{"type":"blockquote","content":['.repeat(70)}${']}'.repeat(70)}]}`;
    expect(refusal(deep).reason).toBe('invalid_document');
    const many = JSON.stringify({
      type: 'doc',
      content: Array.from({ length: 100_001 }, () => ({ type: 'horizontalRule' })),
    });
    expect(refusal(many).reason).toBe('too_large');
    expect(() => jsonToDocument(7 as unknown as string)).toThrow(
      expect.objectContaining({ reason: 'invalid_text' }),
    );
  });

  it('F26: documentToJson is pretty, stable and ends with a newline', () => {
    const document = specDocument();
    const text = documentToJson(document);
    expect(text).toBe(`${JSON.stringify(document, null, 2)}\n`);
    expect(documentToJson(JSON.parse(text))).toBe(text);
    const normalised = normalizeDocument(JSON.parse(text));
    expect(normalised.ok && normalised.report.changed).toBe(false);
  });
});
