import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as sdk from '@planwright/sdk';
import * as model from '@planwright/sdk/model';
import { outlineOf, progressOf, progressPercent } from '@planwright/sdk/model';
import { describe, expect, it } from 'vitest';
import {
  documentOf,
  paragraph,
  section,
  specDocument,
  subsection,
  uuid,
} from '../support/model-documents.js';

describe('outlineOf (M20–M22)', () => {
  it('M20, M21: lists sections and subsections with titles, display titles, orders and flags', () => {
    expect(outlineOf(specDocument())).toEqual({
      sections: [
        {
          uuid: uuid(1),
          blueprintUuid: uuid(901),
          title: 'Executive Summary',
          displayTitle: 'Executive Summary',
          order: 1,
          subsections: [],
        },
        {
          uuid: uuid(2),
          blueprintUuid: null,
          title: 'Market',
          displayTitle: 'Market',
          order: 2,
          subsections: [
            {
              uuid: uuid(3),
              blueprintUuid: null,
              title: 'Overview',
              displayTitle: 'Overview',
              order: 1,
              finalized: true,
            },
            {
              uuid: uuid(4),
              blueprintUuid: null,
              title: '',
              displayTitle: 'Untitled Subsection',
              order: 2,
              finalized: false,
            },
          ],
        },
      ],
    });
  });

  it('M20: trims titles; a blank one shows "Untitled Section"', () => {
    const outline = outlineOf(documentOf(section(1, '  Plan \n'), section(2, ' \t ')));
    expect(outline.sections.map(({ title, displayTitle }) => [title, displayTitle])).toEqual([
      ['Plan', 'Plan'],
      ['', 'Untitled Section'],
    ]);
  });

  it('M20: leaves out sections and subsections without a uuid, keeping the others’ positions', () => {
    const unnamed = { ...section(9, 'No uuid'), attrs: { uuid: null } };
    const withUnnamedSub = section(
      2,
      'B',
      [],
      [{ ...subsection(8, 'No uuid'), attrs: { uuid: '' } } as never, subsection(3, 'C')],
    );
    const outline = outlineOf({ type: 'doc', content: [unnamed, withUnnamedSub] });
    expect(outline.sections).toHaveLength(1);
    expect(outline.sections[0]).toMatchObject({ uuid: uuid(2), order: 2 });
    expect(outline.sections[0]?.subsections).toEqual([
      { uuid: uuid(3), blueprintUuid: null, title: 'C', displayTitle: 'C', order: 2, finalized: false },
    ]);
  });

  it('M20: skips what it cannot read in a tree that is not normalised', () => {
    for (const input of [
      null,
      undefined,
      'doc',
      42,
      {},
      { content: 'x' },
      { content: [null, 7, { type: 'paragraph' }] },
    ]) {
      expect(outlineOf(input)).toEqual({ sections: [] });
      expect(progressOf(input)).toEqual({ finalized: 0, total: 0, percent: 0 });
    }
    const oddHeading = {
      type: 'doc',
      content: [{ type: 'section', attrs: { uuid: uuid(1) }, content: [{ type: 'paragraph' }] }],
    };
    expect(outlineOf(oddHeading).sections[0]?.displayTitle).toBe('Untitled Section');
  });

  it('M22: returns new objects on every call', () => {
    const doc = specDocument();
    expect(outlineOf(doc)).not.toBe(outlineOf(doc));
    expect(outlineOf(doc)).toEqual(outlineOf(doc));
  });
});

describe('progressOf (M23)', () => {
  function withFinalized(...flags: boolean[]) {
    return documentOf(
      section(
        1,
        'S',
        [],
        flags.map((flag, i) => subsection(10 + i, `T${i}`, [], flag)),
      ),
    );
  }

  it.each([
    [[], 0, 0, 0],
    [[false], 0, 1, 0],
    [[true], 1, 1, 100],
    [[true, false, false], 1, 3, 33],
    [[true, true, false], 2, 3, 67],
    [[true, false], 1, 2, 50],
  ])('M23: %j gives %i of %i, %i%%', (flags, finalized, total, percent) => {
    expect(progressOf(withFinalized(...(flags as boolean[])))).toEqual({ finalized, total, percent });
  });

  it('M23: counts the subsections of every section', () => {
    expect(progressOf(specDocument())).toEqual({ finalized: 1, total: 2, percent: 50 });
    const doc = documentOf(
      section(1, 'A', [], [subsection(2, 'a', [], true)]),
      section(3, 'B', [paragraph('p')], [subsection(4, 'b'), subsection(5, 'c')]),
    );
    expect(progressOf(doc)).toEqual({ finalized: 1, total: 3, percent: 33 });
  });

  it('M23: only finalized: true counts as finalized', () => {
    const doc = {
      type: 'doc',
      content: [
        {
          type: 'section',
          content: [{ type: 'subsection', attrs: { finalized: 'true' } }, { type: 'subsection' }],
        },
      ],
    };
    expect(progressOf(doc)).toEqual({ finalized: 0, total: 2, percent: 0 });
  });

  it.each([
    [1, 200, 1],
    [199, 200, 100],
    [1, 3, 33],
    [2, 3, 67],
    [0, 0, 0],
    [5, 0, 0],
  ])('M23: progressPercent(%i, %i) is %i (half up)', (part, whole, percent) => {
    expect(progressPercent(part, whole)).toBe(percent);
  });
});

describe('entry points (M22)', () => {
  const sdkRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

  /** The bare imports reachable from a source file through its relative imports. */
  function packagesReachedFrom(entry: string): Set<string> {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/(?:from|import)\s*['"]([^'"]+)['"]/g)) {
        const specifier = match[1] as string;
        if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
        else packages.add(specifier);
      }
    };
    visit(resolve(sdkRoot, entry));
    return packages;
  }

  it('M22: the main entry reaches neither Tiptap nor ProseMirror', () => {
    const reached = [...packagesReachedFrom('index.ts')];
    expect(reached.length).toBeGreaterThan(0);
    expect(reached.filter((name) => /^@tiptap\/|^prosemirror/.test(name))).toEqual([]);
  });

  it('M22: the model entry does (so the check above can fail)', () => {
    expect([...packagesReachedFrom('model/index.ts')]).toContain('@tiptap/core');
  });

  it('M22: outline and progress are the same functions in both entries', () => {
    expect(sdk.outlineOf).toBe(model.outlineOf);
    expect(sdk.progressOf).toBe(model.progressOf);
    expect(sdk.progressPercent).toBe(model.progressPercent);
  });
});
