import { strToU8, type Zippable, zipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { FormatError, type FormatErrorReason } from '../../src/errors/format-error.js';
import { DEFAULT_ZIP_LIMITS, inspectZip, type ZipLimits } from '../../src/formats/node/zip-guard.js';
import { readCorpusBytes } from '../support/corpus.js';

const corpus = readCorpusBytes;

const DOCUMENT_XML =
  '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hi</w:t></w:r></w:p></w:body></w:document>';

function docxZip(extra: Zippable = {}, level: 0 | 6 = 6): Uint8Array {
  return zipSync({ 'word/document.xml': strToU8(DOCUMENT_XML), ...extra }, { level });
}

/** Calls `patch` with the offset of every central directory header (fflate writes no archive comment). */
function patchCentralDirectory(zip: Uint8Array, patch: (view: DataView, offset: number) => void): Uint8Array {
  const copy = zip.slice();
  const view = new DataView(copy.buffer);
  const eocd = copy.length - 22;
  const count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  for (let index = 0; index < count; index += 1) {
    patch(view, offset);
    offset +=
      46 +
      view.getUint16(offset + 28, true) +
      view.getUint16(offset + 30, true) +
      view.getUint16(offset + 32, true);
  }
  return copy;
}

/** The refusal `inspectZip` gives, checked to be a one-line FormatError given within `ms`. */
function refusal(bytes: Uint8Array, limits?: Partial<ZipLimits>, ms = 2_000): FormatErrorReason {
  const started = performance.now();
  try {
    inspectZip(bytes, limits);
  } catch (error) {
    expect(performance.now() - started).toBeLessThan(ms);
    expect(FormatError.isInstance(error)).toBe(true);
    const formatError = error as FormatError;
    expect(formatError.message).not.toMatch(/\n/);
    expect(formatError.message.length).toBeGreaterThan(10);
    return formatError.reason;
  }
  throw new Error('inspectZip accepted the file');
}

describe('inspectZip accepts real documents (F40)', () => {
  test('lists every entry with its real inflated size', () => {
    const entries = inspectZip(corpus('docx/poi-bug65649-very-large.docx'));
    expect(entries.find((entry) => entry.name === 'word/document.xml')?.size).toBe(12_583_832);
    expect(inspectZip(docxZip()).map((entry) => entry.name)).toEqual(['word/document.xml']);
  });

  test('a stored (uncompressed) archive and a UTF-8 BOM part are fine', () => {
    expect(
      inspectZip(docxZip({ 'word/styles.xml': strToU8('\uFEFF<?xml version="1.0"?><w:styles/>') }, 0)),
    ).toHaveLength(2);
  });

  test('the defaults are 10,000 entries and 50 MB', () => {
    expect(DEFAULT_ZIP_LIMITS.maxEntries).toBe(10_000);
    expect(DEFAULT_ZIP_LIMITS.maxUnpackedBytes).toBe(50 * 1024 * 1024);
  });
});

describe('inspectZip refuses hostile and malformed files before any parser sees them (F41–F47)', () => {
  test('corpus: a truncated zip is not_a_zip', () => {
    expect(refusal(corpus('docx-malformed/poi-truncated62886.docx'))).toBe('not_a_zip');
  });

  test('corpus: a password-protected .docx (OLE2 container) is encrypted, with the message to remove the password', () => {
    const bytes = corpus('docx-malformed/poi-bug53475-password-is-pass.docx');
    expect(refusal(bytes)).toBe('encrypted');
    expect(() => inspectZip(bytes)).toThrow(
      'The file is password-protected; remove the password in Word and try again.',
    );
  });

  test('corpus: a DOCTYPE with an external entity is xml_entities', () => {
    expect(refusal(corpus('docx-malformed/poi-ExternalEntityInText.docx'))).toBe('xml_entities');
  });

  test.each([
    ['empty', new Uint8Array(0)],
    ['text', strToU8('# Not a zip\n\nJust Markdown.')],
    ['a zip cut in half', docxZip().slice(0, 120)],
    ['a zip missing its last byte', docxZip().slice(0, -1)],
  ])('%s is not_a_zip', (_name, bytes) => {
    expect(refusal(bytes)).toBe('not_a_zip');
  });

  test('corrupt deflate data is not_a_zip', () => {
    const zip = docxZip({ 'word/big.xml': strToU8(`<a>${'x'.repeat(5000)}</a>`) });
    const view = new DataView(zip.buffer);
    // Overwrite the compressed bytes of the second entry with garbage.
    let garbled = 0;
    patchCentralDirectory(zip, (central, offset) => {
      const local = central.getUint32(offset + 42, true);
      if (local === 0) return;
      const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
      zip.fill(0xff, start, start + 8);
      garbled += 1;
    });
    expect(garbled).toBe(1);
    expect(refusal(zip)).toBe('not_a_zip');
  });

  test('a zip bomb whose declared sizes lie is too_large, counted while inflating', () => {
    const bomb = docxZip({ 'word/bomb.xml': new Uint8Array(20 * 1024 * 1024).fill(0x20) });
    expect(bomb.length).toBeLessThan(100_000);
    // Declare 100 bytes for every entry, in the central directory and the local headers.
    const lying = patchCentralDirectory(bomb, (view, offset) => {
      view.setUint32(offset + 24, 100, true);
      view.setUint32(view.getUint32(offset + 42, true) + 22, 100, true);
    });
    expect(refusal(lying, { maxUnpackedBytes: 1024 * 1024 }, 1_000)).toBe('too_large');
  });

  test('a bomb past the default 50 MB is too_large', () => {
    const bomb = docxZip({ 'word/media/bomb.bin': new Uint8Array(51 * 1024 * 1024) });
    expect(refusal(bomb)).toBe('too_large');
  });

  test('10,001 entries is too_many_entries', () => {
    const entries: Zippable = {};
    for (let index = 0; index < 10_000; index += 1) entries[`word/part${index}.bin`] = new Uint8Array(1);
    const zip = docxZip(entries, 0);
    expect(refusal(zip)).toBe('too_many_entries');
    expect(refusal(docxZip({ a: new Uint8Array(1), b: new Uint8Array(1) }), { maxEntries: 2 })).toBe(
      'too_many_entries',
    );
  });

  test.each([
    '../evil.xml',
    'word/../../evil.xml',
    '/etc/passwd',
    '\\evil.xml',
    'C:/evil.xml',
    'c:evil.xml',
    'word\\..\\..\\evil.xml',
  ])('entry name %s is unsafe_entry_name', (name) => {
    expect(refusal(docxZip({ [name]: strToU8('<x/>') }))).toBe('unsafe_entry_name');
  });

  /** `zip` with every `decoy` name (local and central headers) renamed to `name`, of the same length. */
  function renamed(zip: Uint8Array, decoy: string, name: string): Uint8Array {
    const from = strToU8(decoy);
    const to = strToU8(name);
    expect(to.length).toBe(from.length);
    for (let at = 0; at <= zip.length - from.length; at += 1) {
      if (from.every((byte, index) => zip[at + index] === byte)) zip.set(to, at);
    }
    return zip;
  }

  test.each([
    ['word/document.xml', 'word/documenX.xml'],
    ['Word/Document.xml', 'word/documenX.xml'],
    ['word\\document.xml', 'word/documenX.xml'],
    ['word/styles.xml', 'word/stylesX.xm'],
  ])('a second entry named %s is duplicate_entry', (name, decoy) => {
    const smuggled = strToU8(DOCUMENT_XML.replace('Hi', 'Smuggled'));
    const extra: Zippable =
      name === 'word/styles.xml' ? { [name]: strToU8('<a/>'), [decoy]: smuggled } : { [decoy]: smuggled };
    expect(refusal(renamed(docxZip(extra), decoy, name))).toBe('duplicate_entry');
  });

  test('an entry name with NUL is unsafe_entry_name', () => {
    const zip = docxZip({ 'word/evilX.xml': strToU8('<x/>') });
    const patched = patchCentralDirectory(zip, (view, offset) => {
      const nameLength = view.getUint16(offset + 28, true);
      const name = new TextDecoder().decode(new Uint8Array(view.buffer, offset + 46, nameLength));
      if (name === 'word/evilX.xml') view.setUint8(offset + 46 + name.indexOf('X'), 0);
    });
    expect(refusal(patched)).toBe('unsafe_entry_name');
  });

  test('an entry with the encryption flag is encrypted', () => {
    const encrypted = patchCentralDirectory(docxZip(), (view, offset) => {
      view.setUint16(offset + 8, view.getUint16(offset + 8, true) | 1, true);
    });
    expect(refusal(encrypted)).toBe('encrypted');
  });

  test.each([
    ['an internal DOCTYPE', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>'],
    ['a lowercase doctype', '<?xml version="1.0"?><!doctype x><x/>'],
    ['a bare ENTITY', '<x><!ENTITY a SYSTEM "file:///etc/passwd"></x>'],
  ])('an XML part with %s is xml_entities', (_name, xml) => {
    expect(refusal(docxZip({ 'word/styles.xml': strToU8(xml) }))).toBe('xml_entities');
  });

  test('a UTF-16 part declaring a DOCTYPE, or one hidden under another name, is xml_entities', () => {
    const utf16 = new Uint8Array([
      0xff,
      0xfe,
      ...Array.from('<!DOCTYPE x><x/>').flatMap((c) => [c.charCodeAt(0), 0]),
    ]);
    expect(refusal(docxZip({ 'word/styles.xml': utf16 }))).toBe('xml_entities');
    expect(refusal(docxZip({ 'word/data.bin': strToU8('<!DOCTYPE x><x/>') }))).toBe('xml_entities');
  });

  test('a zip without word/document.xml is not_a_docx', () => {
    expect(refusal(zipSync({ 'content.xml': strToU8('<x/>') }))).toBe('not_a_docx');
  });

  test('a file over maxFileBytes is too_large, unread', () => {
    expect(refusal(docxZip(), { maxFileBytes: 10 })).toBe('too_large');
    expect(inspectZip(docxZip(), { maxFileBytes: undefined })).toHaveLength(1);
  });
});
