import {
  BLUEPRINT_TEXTS,
  type BlueprintAuthorship,
  blueprintPublication,
  blueprintTitle,
  isPreferredBlueprint,
  mcpUrlError,
  PREFERRED_BLUEPRINT_TITLE,
  preferredBlueprint,
  publisherLabel,
  RECENT_BLUEPRINTS,
  STUDIO_PUBLISHER,
  validateBlueprintTitle,
  versionError,
} from '@planwright/sdk';
import { describe, expect, it } from 'vitest';

const seeded = {
  uuid: 'seed',
  title: 'Business Plan',
  publisher: 'Planwright Studio',
  owner: null,
  user: null,
};
const mine = {
  uuid: 'mine',
  title: 'Business Plan',
  publisher: null,
  owner: { username: 'ada' },
  user: { username: 'ada' },
};
const lean = { uuid: 'lean', title: 'Lean Canvas', publisher: null, owner: { username: 'bob' }, user: null };

describe('blueprint texts (spec 000 §5, §8; spec 001 §2, §5)', () => {
  it('quotes the specification exactly', () => {
    expect(BLUEPRINT_TEXTS).toMatchObject({
      notFound: 'Blueprint not found.',
      noDescription: 'No description.',
      titleRequired: 'Title cannot be empty',
      loadFailed: 'Failed to load blueprint',
      createFailed: 'Failed to create blueprint',
      deleteFailed: 'Failed to delete blueprint',
      renameFailed: 'Failed to rename blueprint',
      saveChangesFailed: 'Failed to save changes',
      saveFailed: 'Failed to save',
      enableMcp: 'Enable MCP to set a URL.',
      markdownExportDocumentsOnly: 'Markdown export is available for Documents.',
    });
    expect(RECENT_BLUEPRINTS).toBe(5);
    expect(PREFERRED_BLUEPRINT_TITLE).toBe('Business Plan');
    expect(STUDIO_PUBLISHER).toBe('Planwright Studio');
  });
});

describe('preferredBlueprint (spec 000 §4)', () => {
  it('picks the seeded Business Plan wherever it is in the list', () => {
    expect(preferredBlueprint([lean, mine, seeded])).toBe(seeded);
    expect(preferredBlueprint([seeded, lean])).toBe(seeded);
  });

  it('does not take someone’s own blueprint called Business Plan for the seeded one', () => {
    expect(isPreferredBlueprint(mine)).toBe(false);
    expect(preferredBlueprint([lean, mine])).toBe(lean);
    expect(isPreferredBlueprint({ ...seeded, publisher: 'Someone Else' })).toBe(false);
    expect(isPreferredBlueprint({ ...seeded, owner: { username: 'mallory' } })).toBe(false);
    expect(isPreferredBlueprint({ ...seeded, title: 'Business Plan v2' })).toBe(false);
  });

  it('prefers the blueprint the server marks is_default, whatever its title or place', () => {
    const flagged = { ...lean, uuid: 'flagged', title: 'Plan de negocio', is_default: true };
    expect(preferredBlueprint([lean, seeded, flagged])).toBe(flagged);
    expect(preferredBlueprint([flagged, { ...seeded, is_default: false }])).toBe(flagged);
    expect(isPreferredBlueprint(flagged)).toBe(true);
  });

  it('recognises the seeded one by its authorship when the server sends no is_default (or false)', () => {
    expect(preferredBlueprint([lean, { ...seeded, is_default: false }])).toEqual({
      ...seeded,
      is_default: false,
    });
    expect(preferredBlueprint([lean, { ...mine, is_default: false }])).toBe(lean);
    expect(isPreferredBlueprint({ ...mine, is_default: false })).toBe(false);
  });

  it('falls back to the first, and to undefined for an empty list', () => {
    expect(preferredBlueprint([lean, mine])).toBe(lean);
    expect(preferredBlueprint([])).toBeUndefined();
  });

  it('tolerates surrounding spaces in title and publisher', () => {
    expect(
      isPreferredBlueprint({ ...seeded, title: ' Business Plan ', publisher: 'Planwright Studio ' }),
    ).toBe(true);
  });
});

describe('publisherLabel (spec 000 §3)', () => {
  it.each<[Pick<BlueprintAuthorship, 'publisher' | 'owner'>, string]>([
    [{ publisher: 'Acme Ventures', owner: { username: 'ada' } }, 'Acme Ventures'],
    [{ publisher: null, owner: { username: 'ada' } }, 'ada'],
    [{ publisher: '  ', owner: { username: 'ada' } }, 'ada'],
    [{ publisher: null, owner: null }, 'Planwright Studio'],
    [{ publisher: '', owner: { username: '' } }, 'Planwright Studio'],
  ])('%j → %s', (blueprint, label) => {
    expect(publisherLabel(blueprint)).toBe(label);
  });
});

describe('blueprintPublication (spec 000 §4)', () => {
  const now = new Date('2026-11-22T10:00:00.000Z');

  it('sets published_at to now when published, null for a draft', () => {
    expect(blueprintPublication({ status: 'published', visibility: 'public', allowedOrgs: [], now })).toEqual(
      {
        published_at: '2026-11-22T10:00:00.000Z',
        allowed_orgs: [],
      },
    );
    expect(
      blueprintPublication({ status: 'draft', visibility: 'public', allowedOrgs: [], now }).published_at,
    ).toBeNull();
  });

  it('sends allowed_orgs only for restricted, without duplicates', () => {
    const orgs = ['o1', 'o2', 'o1'];
    expect(
      blueprintPublication({ status: 'draft', visibility: 'restricted', allowedOrgs: orgs, now })
        .allowed_orgs,
    ).toEqual(['o1', 'o2']);
    for (const visibility of ['public', 'private', 'unlisted'] as const) {
      expect(
        blueprintPublication({ status: 'published', visibility, allowedOrgs: orgs, now }).allowed_orgs,
      ).toEqual([]);
    }
  });
});

describe('versionError (spec 000 §5)', () => {
  it.each([1, 2, 999, '1', ' 3 '])('accepts %j', (version) => {
    expect(versionError(version)).toBeUndefined();
  });
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '', ' ', '0', '1.5', 'abc', '1e400'])(
    'refuses %j',
    (version) => {
      expect(versionError(version)).toBe('Version must be a whole number of at least 1.');
    },
  );
});

describe('mcpUrlError (spec 001 §2)', () => {
  it('asks to enable MCP when a URL is set with another tool mode', () => {
    for (const mode of ['', 'web', 'research', 'fact_check'] as const) {
      expect(mcpUrlError(mode, 'https://mcp.example')).toBe('Enable MCP to set a URL.');
      expect(mcpUrlError(mode, '')).toBeUndefined();
      expect(mcpUrlError(mode, '  ')).toBeUndefined();
    }
  });

  it('with mcp, needs an http(s) URL', () => {
    expect(mcpUrlError('mcp', 'https://mcp.example/sse')).toBeUndefined();
    expect(mcpUrlError('mcp', ' http://localhost:3000 ')).toBeUndefined();
    expect(mcpUrlError('mcp', '')).toBe('Please enter the URL of the MCP server.');
    for (const url of ['mcp.example', 'ftp://mcp.example', 'javascript:alert(1)', 'https://', 'http//x']) {
      expect(mcpUrlError('mcp', url), url).toBe('Please enter a valid URL (http:// or https://).');
    }
  });
});

describe('validateBlueprintTitle and blueprintTitle', () => {
  it('uses the same rule as document titles', () => {
    expect(validateBlueprintTitle(' ')).toBe('Title cannot be empty');
    expect(validateBlueprintTitle('Lean Canvas')).toBeUndefined();
    expect(validateBlueprintTitle('x'.repeat(201))).toBe('Title must be at most 200 characters');
  });

  it('shows Untitled Blueprint for a blank title', () => {
    expect(blueprintTitle({ title: '' })).toBe('Untitled Blueprint');
    expect(blueprintTitle({ title: 'Lean' })).toBe('Lean');
  });
});
