import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/http/http-error.js';
import { reconcileSections } from '../../src/structure/reconcile-sections.js';
import { RevisionMismatchError, readIfMatch, revisionMatches } from '../../src/structure/revision.js';
import { applySettingsPatch } from '../../src/structure/section-input.js';
import { EMPTY_SETTINGS, type SectionRow } from '../../src/structure/section-rows.js';
import { retryStaleWrites, StaleWriteError } from '../../src/structure/stale-write.js';
import { structureEvents } from '../../src/structure/structure-events.js';

const settings = (hint: string) => ({ ...EMPTY_SETTINGS, userHint: hint });

function row(
  uuid: string,
  title: string,
  hint: string,
  subsections: SectionRow['subsections'] = [],
): SectionRow {
  return { uuid, blueprintUuid: null, title, position: 1, ...settings(hint), subsections };
}

describe('reconcileSections', () => {
  const existing: SectionRow[] = [
    row('s1', 'One', 'hint s1', [
      { uuid: 'a', blueprintUuid: null, title: 'A', position: 1, finalized: false, ...settings('hint a') },
    ]),
  ];
  const template: SectionRow[] = [row('bp-s', 'Template', 'template hint', [])];

  it('takes structure from the outline, settings from surviving uuids, then the template, then nothing', () => {
    const rows = reconcileSections(
      [
        { uuid: 'new', blueprintUuid: 'bp-s', title: 'From template', subsections: [] },
        { uuid: 'plain', blueprintUuid: 'unknown', title: 'Plain', subsections: [] },
        {
          uuid: 's1',
          blueprintUuid: null,
          title: 'One renamed',
          subsections: [{ uuid: 'a', blueprintUuid: null, title: 'A', finalized: true }],
        },
      ],
      existing,
      template,
    );
    expect(rows.map((r) => [r.uuid, r.title, r.position, r.userHint])).toEqual([
      ['new', 'From template', 1, 'template hint'],
      ['plain', 'Plain', 2, ''],
      ['s1', 'One renamed', 3, 'hint s1'],
    ]);
    expect(rows[2]?.subsections).toEqual([
      { uuid: 'a', blueprintUuid: null, title: 'A', position: 1, finalized: true, ...settings('hint a') },
    ]);
  });

  it('a surviving uuid keeps its own settings over its template; overrides win over both', () => {
    const rows = reconcileSections(
      [{ uuid: 's1', blueprintUuid: 'bp-s', title: 'One', subsections: [] }],
      existing,
      template,
      new Map([['s1', settings('override')]]),
    );
    expect(rows[0]?.userHint).toBe('override');
    expect(
      reconcileSections(
        [{ uuid: 's1', blueprintUuid: 'bp-s', title: 'One', subsections: [] }],
        existing,
        template,
      )[0]?.userHint,
    ).toBe('hint s1');
  });
});

describe('structureEvents', () => {
  const before = [
    {
      uuid: 's1',
      blueprintUuid: null,
      title: 'One',
      subsections: [{ uuid: 'a', blueprintUuid: null, title: 'A', finalized: false }],
    },
    {
      uuid: 's2',
      blueprintUuid: null,
      title: 'Two',
      subsections: [{ uuid: 'b', blueprintUuid: null, title: 'B', finalized: true }],
    },
  ];

  it('tells additions, removals, renames, finalize and reopen; moves and nested parts say nothing', () => {
    const after = [
      {
        uuid: 's3',
        blueprintUuid: null,
        title: 'Three',
        subsections: [{ uuid: 'c', blueprintUuid: null, title: 'C', finalized: false }],
      },
      {
        uuid: 's1',
        blueprintUuid: null,
        title: 'One!',
        subsections: [
          { uuid: 'd', blueprintUuid: null, title: 'D', finalized: false },
          { uuid: 'a', blueprintUuid: null, title: 'A', finalized: true },
        ],
      },
    ];
    expect(structureEvents(before, after).map((e) => [e.verb, e.childTargetLabel, e.level])).toEqual([
      ['added section', 'Three', 2],
      ['renamed section', 'One!', 2],
      ['removed section', 'Two', 2],
      ['added subsection', 'D', 2],
      ['finalized', 'A', 1],
    ]);
    expect(structureEvents(after, before).map((e) => e.verb)).toEqual([
      'renamed section',
      'added section',
      'removed section',
      'reopened',
      'removed subsection',
    ]);
    expect(structureEvents(before, [...before].reverse())).toEqual([]);
  });

  it('quotes titles so they read back whatever they hold', () => {
    const [event] = structureEvents(
      [],
      [{ uuid: 'x', blueprintUuid: null, title: 'Say "hi"', subsections: [] }],
    );
    expect(event?.message).toBe('added the section "Say \\"hi\\""');
  });
});

describe('applySettingsPatch', () => {
  const mcp = { ...EMPTY_SETTINGS, toolMode: 'mcp' as const, mcpUrl: 'https://mcp.example.com' };

  it('keeps the URL only while the mode is mcp', () => {
    expect(applySettingsPatch(mcp, { tool_mode: 'web' })).toMatchObject({ toolMode: 'web', mcpUrl: '' });
    expect(applySettingsPatch(mcp, { user_hint: 'x' })).toMatchObject({
      toolMode: 'mcp',
      mcpUrl: 'https://mcp.example.com',
      userHint: 'x',
    });
    expect(applySettingsPatch(EMPTY_SETTINGS, { tool_mode: 'mcp' })).toMatchObject({
      toolMode: 'mcp',
      mcpUrl: '',
    });
    expect(applySettingsPatch(EMPTY_SETTINGS, { tool_mode: 'web', mcp_url: '' })).toMatchObject({
      mcpUrl: '',
    });
  });

  it.each([
    [EMPTY_SETTINGS, { mcp_url: 'https://x.example.com' }, 'mcp_disabled'],
    [mcp, { tool_mode: 'research' as const, mcp_url: 'https://x.example.com' }, 'mcp_disabled'],
    [mcp, { mcp_url: 'http://' }, 'invalid_url'],
    [mcp, { mcp_url: 'mailto:a@b.c' }, 'invalid_url'],
    [mcp, { mcp_url: 'https://x.example.com/\npath' }, 'invalid_url'],
  ])('refuses %j + %j (%s)', (current, patch, code) => {
    try {
      applySettingsPatch(current, patch);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).errors?.[0]).toMatchObject({ param: 'mcp_url', code });
    }
  });
});

describe('If-Match', () => {
  const read = (value?: string) =>
    readIfMatch({ headers: value === undefined ? {} : { 'if-match': value } } as FastifyRequest);

  it.each([
    [undefined, 5, true],
    ['*', 5, true],
    ['"5"', 5, true],
    ['5', 5, true],
    ['W/"5"', 5, true],
    ['"4", W/"5"', 5, true],
    ['"4"', 5, false],
    ['"x"', 5, false],
    ['', 5, false],
  ])('%s matches revision %i: %s', (header, revision, matches) => {
    expect(revisionMatches(read(header), revision)).toBe(matches);
  });

  it('the 412 body carries the current revision', () => {
    expect(new RevisionMismatchError(7, 'blueprint').toBody()).toEqual({
      detail: 'This blueprint was changed since you loaded it.',
      code: 'revision_mismatch',
      current_revision: 7,
    });
  });
});

describe('retryStaleWrites', () => {
  it('runs a write again after a lost race, and answers 409 after three', async () => {
    let calls = 0;
    await expect(
      retryStaleWrites(async () => {
        calls++;
        if (calls < 3) throw new StaleWriteError();
        return 'done';
      }),
    ).resolves.toBe('done');
    calls = 0;
    await expect(
      retryStaleWrites(async () => {
        calls++;
        throw new StaleWriteError();
      }),
    ).rejects.toMatchObject({ statusCode: 409, code: 'write_conflict' });
    expect(calls).toBe(3);
    await expect(retryStaleWrites(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});
