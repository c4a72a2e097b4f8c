import {
  DOCUMENT_TEXTS,
  documentTitle,
  formatProgress,
  formatProgressShort,
  RECENT_DOCUMENTS,
  statusBadgeColor,
  statusLabel,
  TITLE_MAX_LENGTH,
  validateDocumentTitle,
} from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { readCorpusFile } from './support/corpus.js';

describe('document texts (spec 000 §2, §5, §8, §9)', () => {
  it('quotes the specification exactly', () => {
    expect(DOCUMENT_TEXTS).toMatchObject({
      untitled: 'Untitled Document',
      loading: 'Loading document...',
      notFound: 'Document not found.',
      noDescription: 'This document has no description yet.',
      titleRequired: 'Title cannot be empty',
      selectBlueprintTitle: 'Select a Blueprint',
      selectBlueprint: 'Please select a blueprint',
      noBlueprints: 'No blueprints available. Using default template.',
      blueprintNoDescription: 'No description.',
      fetchDocumentsFailed: 'An error occurred fetching documents.',
      loadDocumentsFailed: 'Failed to load documents',
      fetchBlueprintsFailed: 'An error occurred fetching blueprints.',
      createFailed: 'Failed to create document',
      deleteFailed: 'Failed to delete document',
      renameFailed: 'Failed to rename document',
      loadActivityFailed: 'Failed to load activity',
      dueDatePlaceholder: 'Mar 15',
    });
    expect(RECENT_DOCUMENTS).toBe(5);
  });
});

describe('statusLabel and statusBadgeColor (spec 000 §3, §4)', () => {
  it.each([
    ['completed', 'Completed', 'success'],
    ['in-progress', 'In-progress', 'primary'],
    ['draft', 'Draft', 'secondary'],
    ['published', 'Published', 'secondary'],
    ['éphémère', 'Éphémère', 'secondary'],
    ['🚀 launched', '🚀 launched', 'secondary'],
    ['  ', 'Unknown', 'secondary'],
    ['', 'Unknown', 'secondary'],
    [null, 'Unknown', 'secondary'],
    [undefined, 'Unknown', 'secondary'],
    ['Completed', 'Completed', 'secondary'],
  ])('%j → %j, %s', (status, label, color) => {
    expect(statusLabel(status)).toBe(label);
    expect(statusBadgeColor(status)).toBe(color);
  });
});

/** C0/C1 controls and unpaired surrogates, written out by code unit, independent of the SDK's regex. */
function hasForbiddenCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 0x20 || (unit >= 0x7f && unit <= 0x9f)) return true;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return true;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return true;
    }
  }
  return false;
}

describe('validateDocumentTitle (spec 000 §5)', () => {
  it('refuses an empty or blank title with the spec’s text', () => {
    for (const title of ['', '   ', '\t\n'])
      expect(validateDocumentTitle(title)).toBe('Title cannot be empty');
  });

  it('accepts up to 200 characters after trimming, counting emoji as one', () => {
    expect(TITLE_MAX_LENGTH).toBe(200);
    expect(validateDocumentTitle(`  ${'x'.repeat(200)}  `)).toBeUndefined();
    expect(validateDocumentTitle('x'.repeat(201))).toBe('Title must be at most 200 characters');
    expect(validateDocumentTitle('👩‍👩‍👧'.repeat(40))).toBeUndefined();
    expect(validateDocumentTitle('😀'.repeat(200))).toBeUndefined();
    expect(validateDocumentTitle('😀'.repeat(201))).toBe('Title must be at most 200 characters');
  });

  it('refuses control characters and lone surrogates inside the title', () => {
    for (const title of ['a\u0000b', 'a\nb', 'esc \u001b[31m red', 'half \ud83d pair', 'c1\u0085']) {
      expect(validateDocumentTitle(title), JSON.stringify(title)).toBe('Must not contain control characters');
    }
  });

  it('accepts markup, RTL and zero-width text as text (escaping is the renderer’s job)', () => {
    for (const title of [
      '<script>alert(1)</script>',
      'مرحبا بالعالم',
      'a\u200bb',
      '\u202eevil',
      "'; DROP TABLE",
    ]) {
      expect(validateDocumentTitle(title), JSON.stringify(title)).toBeUndefined();
    }
  });

  it('agrees with a hand-written rule on the whole hostile strings corpus', () => {
    const hostile = JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];
    for (const title of hostile) {
      const trimmed = title.trim();
      const forbidden = hasForbiddenCharacter(trimmed);
      const expected =
        trimmed === ''
          ? 'Title cannot be empty'
          : [...trimmed].length > 200
            ? 'Title must be at most 200 characters'
            : forbidden
              ? 'Must not contain control characters'
              : undefined;
      expect(validateDocumentTitle(title), JSON.stringify(title)).toBe(expected);
    }
  });
});

describe('documentTitle', () => {
  it('falls back to Untitled Document for an empty or blank title', () => {
    expect(documentTitle({ title: 'Acme' })).toBe('Acme');
    expect(documentTitle({ title: '' })).toBe('Untitled Document');
    expect(documentTitle({ title: '  ' })).toBe('Untitled Document');
  });
});

describe('formatProgress (spec 000 §2)', () => {
  it.each([
    [{ finalized: 3, total: 26 }, '3/26 subsections', '12% (3/26)'],
    [{ finalized: 11, total: 26 }, '11/26 subsections', '42% (11/26)'],
    [{ finalized: 0, total: 0 }, '0/0 subsections', '0% (0/0)'],
    [{ finalized: 1, total: 8 }, '1/8 subsections', '13% (1/8)'],
    [{ finalized: 2, total: 3 }, '2/3 subsections', '67% (2/3)'],
    [{ finalized: 5, total: 5 }, '5/5 subsections', '100% (5/5)'],
  ])('%j → %j and %j', (progress, long, short) => {
    expect(formatProgress(progress)).toBe(long);
    expect(formatProgressShort(progress)).toBe(short);
  });
});
