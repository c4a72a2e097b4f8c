import { describe, expect, it } from 'vitest';
import {
  allowedOrgsApply,
  blueprintChangesFrom,
  blueprintFormChanged,
  blueprintFormError,
  blueprintFormFrom,
  organizationOptions,
  rebaseBlueprintForm,
} from '../src/blueprints/blueprint-form';

const saved = blueprintFormFrom({
  status: 'draft',
  version: 2,
  visibility: 'restricted',
  allowed_orgs: ['org-b', 'org-a'],
});
const now = new Date(Date.UTC(2026, 0, 15, 9));

describe('blueprint marketplace form (SPEC.md BF1–BF6)', () => {
  it('BF1: starts from the blueprint as saved', () => {
    expect(saved).toEqual({
      status: 'draft',
      version: '2',
      visibility: 'restricted',
      allowedOrgs: ['org-a', 'org-b'],
    });
  });

  it('BF2: the organisations apply only to a restricted blueprint', () => {
    expect(allowedOrgsApply({ visibility: 'restricted' })).toBe(true);
    for (const visibility of ['public', 'private', 'unlisted'] as const) {
      expect(allowedOrgsApply({ visibility })).toBe(false);
    }
  });

  it('BF3: the version is a whole number of at least 1', () => {
    for (const version of ['0', '-1', '1.5', '', 'abc', '1e400']) {
      expect(blueprintFormError({ ...saved, version }), version).toBe(
        'Version must be a whole number of at least 1.',
      );
    }
    expect(blueprintFormError({ ...saved, version: ' 3 ' })).toBeUndefined();
    expect(() => blueprintChangesFrom({ ...saved, version: '0' }, now)).toThrow();
  });

  it('BF4: published sets published_at to the time of the save; a draft sends null', () => {
    expect(blueprintChangesFrom({ ...saved, status: 'published' }, now)).toEqual({
      status: 'published',
      version: 2,
      visibility: 'restricted',
      published_at: '2026-01-15T09:00:00.000Z',
      allowed_orgs: ['org-a', 'org-b'],
    });
    expect(blueprintChangesFrom(saved, now).published_at).toBeNull();
  });

  it('BF4: allowed_orgs is sent only for restricted, otherwise empty', () => {
    expect(blueprintChangesFrom({ ...saved, visibility: 'public' }, now).allowed_orgs).toEqual([]);
    expect(blueprintChangesFrom({ ...saved, allowedOrgs: ['org-a', 'org-a'] }, now).allowed_orgs).toEqual([
      'org-a',
    ]);
  });

  it('BF5: changed compares what is sent; organisations count only while they apply', () => {
    expect(blueprintFormChanged({ ...saved, allowedOrgs: ['org-b', 'org-a'] }, saved)).toBe(false);
    expect(blueprintFormChanged({ ...saved, allowedOrgs: ['org-a'] }, saved)).toBe(true);
    expect(blueprintFormChanged({ ...saved, version: '3' }, saved)).toBe(true);
    const publicSaved = { ...saved, visibility: 'public' as const, allowedOrgs: [] };
    expect(blueprintFormChanged({ ...publicSaved, allowedOrgs: ['org-a'] }, publicSaved)).toBe(false);
  });

  it('BF6: a newer read replaces the form unless the user has changes, which are kept', () => {
    const next = { ...saved, version: '5' };
    expect(rebaseBlueprintForm(saved, saved, next)).toBe(next);
    const edited = { ...saved, status: 'published' as const };
    expect(rebaseBlueprintForm(edited, saved, next)).toBe(edited);
  });

  it('BF2: offers the caller’s organisations by name, and keeps chosen ones it no longer sees', () => {
    expect(
      organizationOptions(
        [
          { id: 'org-a', name: 'Acme Ventures', title: null, slug: 'acme', role: 'admin' },
          { id: 'org-c', name: ' ', title: null, slug: 'c-slug', role: null },
        ],
        ['org-a', 'org-z'],
      ),
    ).toEqual([
      { id: 'org-a', label: 'Acme Ventures' },
      { id: 'org-c', label: 'c-slug' },
      { id: 'org-z', label: 'Organisation org-z' },
    ]);
  });
});
