import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { corpusPath } from '../../../../tests/support/corpus-path.mjs';
import { ADD_MEMBER_RATE_LIMIT } from '../../src/routes/organization-routes.js';
import { slugify } from '../../src/storage/organization-repository.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const hostile = JSON.parse(readFileSync(corpusPath('hostile-strings/blns.json'), 'utf8')) as string[];

let t: TestApp;
let clock = new Date('2026-11-22T09:00:00.000Z');
const now = () => clock;

beforeAll(async () => {
  t = await createTestApp({}, { now });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  // Past the add-member rate-limit window, so no test inherits another's count.
  clock = new Date(clock.getTime() + ADD_MEMBER_RATE_LIMIT.windowMs + 60_000);
});

let userCounter = 0;
async function newUser(
  input: { email?: string; firstName?: string; lastName?: string } = {},
): Promise<SignedInUser> {
  userCounter++;
  return createSignedInUser(
    t,
    {
      email: input.email ?? `member${userCounter}@example.com`,
      firstName: input.firstName ?? `First${userCounter}`,
      lastName: input.lastName ?? `Last${userCounter}`,
    },
    now,
  );
}

async function call(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  options: { as?: SignedInUser; body?: unknown; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url: `/api/v1/${url}`,
    headers: { ...(options.as ? options.as.headers : {}), ...options.headers },
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
  });
}

async function createOrganization(as: SignedInUser, name = 'Acme Ventures') {
  const res = await call('POST', 'organizations/', { as, body: { name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; slug: string; name: string; members: unknown[] };
}

async function addMember(admin: SignedInUser, orgId: string, member: SignedInUser, role?: string) {
  return call('POST', `organizations/${orgId}/members/`, {
    as: admin,
    body: { email: member.user.email, ...(role ? { role } : {}) },
  });
}

function expectFieldError(res: LightMyRequestResponse, param: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().errors.map((error: { param: string }) => error.param)).toContain(param);
}

function expectNotFound(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(404);
  expect(res.json().code).toBe('not_found');
}

describe('slugify', () => {
  it('makes lower-case, dash-separated slugs and drops accents from Latin letters', () => {
    expect(slugify('Acme Ventures')).toBe('acme-ventures');
    expect(slugify('  Société Générale — Paris!  ')).toBe('societe-generale-paris');
    expect(slugify('Straße & Co. KG')).toBe('straße-co-kg');
    expect(slugify('ÅNGSTRÖM_lab 2026')).toBe('angstrom-lab-2026');
    expect(slugify('İstanbul Girişim')).toBe('istanbul-girisim');
  });

  it('keeps the letters and digits of other scripts whole', () => {
    expect(slugify('東京 スタジオ')).toBe('東京-スタジオ');
    expect(slugify('Київ Hub')).toBe('київ-hub');
    expect(slugify('مختبر القاهرة')).toBe('مختبر-القاهرة');
    expect(slugify('हिन्दी टीम')).toBe('हिन्दी-टीम');
    expect(slugify('ＡＣＭＥ ﬁnance')).toBe('acme-finance');
  });

  it('falls back to "organization" when nothing usable is left', () => {
    for (const name of ['🚀🚀', '!!!', '   ', '\u200b', '<>', '\u0301\u0302']) {
      expect(slugify(name)).toBe('organization');
    }
    expect(slugify('Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇')).toBe('zalgo');
  });

  it('is at most 60 characters and never ends with a dash', () => {
    const slug = slugify(`${'ab '.repeat(40)}`);
    expect([...slug].length).toBeLessThanOrEqual(60);
    expect(slug.endsWith('-')).toBe(false);
    expect([...slugify('界'.repeat(100))].length).toBe(60);
  });
});

describe('authentication', () => {
  it('answers 401 not_authenticated without a session or with an unknown token', async () => {
    const requests: Array<['GET' | 'POST' | 'DELETE', string]> = [
      ['GET', 'organizations/'],
      ['GET', 'organization/'],
      ['POST', 'organizations/'],
      ['GET', 'organizations/00000000-0000-4000-8000-000000000000/'],
      ['POST', 'organizations/00000000-0000-4000-8000-000000000000/members/'],
      ['DELETE', 'organizations/00000000-0000-4000-8000-000000000000/members/ada/'],
    ];
    for (const [method, url] of requests) {
      const headerSets: Array<Record<string, string>> = [{}, { 'x-session-token': 'not-a-real-token' }];
      for (const headers of headerSets) {
        const res = await call(method, url, {
          headers,
          ...(method === 'POST' ? { body: { name: 'x' } } : {}),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json().code).toBe('not_authenticated');
      }
    }
  });
});

describe('creating and listing organisations', () => {
  it('starts empty, in the list envelope, under both paths', async () => {
    const ada = await newUser();
    for (const url of ['organizations/', 'organization/']) {
      const res = await call('GET', url, { as: ada });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [], meta: { pagination: { total: 0, page: 1, page_size: 20 } } });
    }
  });

  it('creates an organisation with the caller as its admin, and never shows e-mail addresses', async () => {
    const ada = await newUser({ email: 'Ada.Lovelace@Example.com', firstName: 'Ada', lastName: 'Lovelace' });
    const res = await call('POST', 'organizations/', { as: ada, body: { name: '  Analytical Engines  ' } });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(String),
      name: 'Analytical Engines',
      slug: 'analytical-engines',
      title: 'Analytical Engines',
      role: 'admin',
      created_at: clock.toISOString(),
      members: [
        {
          user: { id: ada.user.id, username: 'Ada.Lovelace', first_name: 'Ada', last_name: 'Lovelace' },
          role: 'admin',
        },
      ],
      // Admins see the invitations pending (docs/teams.md "Organisations").
      invitations: [],
    });
    expect(res.body).not.toContain('Example.com');

    const list = await call('GET', 'organizations/', { as: ada });
    expect(list.json()).toEqual({
      data: [
        {
          id: body.id,
          name: 'Analytical Engines',
          slug: 'analytical-engines',
          title: 'Analytical Engines',
          role: 'admin',
          created_at: clock.toISOString(),
        },
      ],
      meta: { pagination: { total: 1, page: 1, page_size: 20 } },
    });
    expect((await call('GET', 'organization/', { as: ada })).json()).toEqual(list.json());
  });

  it('numbers slugs that are taken, across users', async () => {
    const [ada, bob] = [await newUser(), await newUser()];
    const slugs = [
      (await createOrganization(ada, 'Numbered Co')).slug,
      (await createOrganization(bob, 'Numbered Co')).slug,
      (await createOrganization(ada, 'NUMBERED  co!')).slug,
      (await createOrganization(bob, 'Numbered Co 2')).slug,
      (await createOrganization(ada, 'Numbered Co')).slug,
    ];
    expect(slugs).toEqual([
      'numbered-co',
      'numbered-co-2',
      'numbered-co-3',
      'numbered-co-2-2',
      'numbered-co-4',
    ]);
  });

  it('lists the caller’s organisations by name, paged', async () => {
    const ada = await newUser();
    for (const name of ['Gamma', 'alpha', 'Beta']) await createOrganization(ada, name);
    const all = await call('GET', 'organizations/', { as: ada });
    expect(all.json().data.map((org: { name: string }) => org.name)).toEqual(['Beta', 'Gamma', 'alpha']);
    const second = await call('GET', 'organizations/?page=2&page_size=2', { as: ada });
    expect(second.json()).toMatchObject({
      data: [{ name: 'alpha' }],
      meta: { pagination: { total: 3, page: 2, page_size: 2 } },
    });
    const past = await call('GET', 'organizations/?page=9', { as: ada });
    expect(past.json()).toEqual({ data: [], meta: { pagination: { total: 3, page: 9, page_size: 20 } } });
  });

  it('refuses bad paging with a 400 naming the parameter', async () => {
    const ada = await newUser();
    for (const [query, param] of [
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['page=-1', 'page'],
      ['page=1&page=2', 'page'],
      ['page_size=0', 'page_size'],
      ['page_size=101', 'page_size'],
      ['page_size=1e2', 'page_size'],
    ] as const) {
      expectFieldError(await call('GET', `organizations/?${query}`, { as: ada }), param);
    }
  });

  it('refuses bad names with a 400 naming name', async () => {
    const ada = await newUser();
    const bad: unknown[] = [
      undefined,
      null,
      '',
      '   ',
      '\u3000\t\n',
      42,
      ['Acme'],
      { name: 'Acme' },
      'x'.repeat(101),
      'Acme\u0000Corp',
      'Acme\u0007',
      'Line\nbreak',
      'Tab\there',
      'Lone \ud800 surrogate',
      'C1 \u0085 control',
    ];
    for (const name of bad) {
      const res = await call('POST', 'organizations/', { as: ada, body: name === undefined ? {} : { name } });
      expectFieldError(res, 'name');
    }
    expect((await call('GET', 'organizations/', { as: ada })).json().meta.pagination.total).toBe(0);
  });

  it('counts characters, not UTF-16 units: 100 emoji fit, 101 do not', async () => {
    const ada = await newUser();
    const ok = await call('POST', 'organizations/', { as: ada, body: { name: '🚀'.repeat(100) } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().name).toBe('🚀'.repeat(100));
    expect(ok.json().slug).toMatch(/^organization(-\d+)?$/);
    expectFieldError(
      await call('POST', 'organizations/', { as: ada, body: { name: '🚀'.repeat(101) } }),
      'name',
    );
  });

  it('refuses a body that is not JSON without a 500', async () => {
    const ada = await newUser();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/organizations/',
      headers: { ...ada.headers, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain('at ');
  });
});

describe('hostile organisation names', () => {
  it('every corpus string is refused naming name, or stored trimmed and read back byte-identical', async () => {
    const ada = await newUser();
    let stored = 0;
    for (const value of hostile) {
      const res = await call('POST', 'organizations/', { as: ada, body: { name: value } });
      expect(res.statusCode, JSON.stringify(value)).toBeLessThan(500);
      if (res.statusCode === 400) {
        expect(res.json().errors[0].param, JSON.stringify(value)).toBe('name');
        continue;
      }
      expect(res.statusCode, JSON.stringify(value)).toBe(201);
      stored++;
      const detail = await call('GET', `organizations/${res.json().id}/`, { as: ada });
      expect(detail.json().name, JSON.stringify(value)).toBe(value.trim());
      expect(detail.json().slug, JSON.stringify(value)).toMatch(
        /^[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(-[\p{L}\p{N}][\p{L}\p{N}\p{M}]*)*$/u,
      );
    }
    // The corpus is mostly printable text: most of it must be accepted.
    expect(stored).toBeGreaterThan(hostile.length / 2);
    const list = await call('GET', 'organizations/?page_size=100', { as: ada });
    expect(list.json().meta.pagination.total).toBe(stored);
    const slugs = new Set<string>();
    for (let page = 1; page <= Math.ceil(stored / 100); page++) {
      const res = await call('GET', `organizations/?page_size=100&page=${page}`, { as: ada });
      for (const org of res.json().data as Array<{ slug: string }>) slugs.add(org.slug);
    }
    expect(slugs.size).toBe(stored);
  });
});

describe('reading an organisation', () => {
  it('answers members only; everyone else (and unknown or malformed ids) gets the same 404', async () => {
    const [ada, eve] = [await newUser(), await newUser()];
    const org = await createOrganization(ada);
    expect((await call('GET', `organizations/${org.id}/`, { as: ada })).statusCode).toBe(200);
    expectNotFound(await call('GET', `organizations/${org.id}/`, { as: eve }));
    expectNotFound(await call('GET', 'organizations/7d9f4d4e-8d0a-4a43-9bb4-0d3c3b0f3e11/', { as: ada }));
    for (const id of ['not-a-uuid', '1', "1' or '1'='1", '%00', org.id.toUpperCase().replace(/-/g, '')]) {
      expectNotFound(await call('GET', `organizations/${encodeURIComponent(id)}/`, { as: ada }));
    }
    const eveView = await call('GET', `organizations/${org.id}/`, { as: eve });
    expect(eveView.json()).toEqual({ detail: 'Organization not found.', code: 'not_found' });
  });

  it('keeps each user’s organisations to themselves', async () => {
    const [ada, bob] = [await newUser(), await newUser()];
    const adaOrg = await createOrganization(ada, 'Ada Only');
    await createOrganization(bob, 'Bob Only');
    const adaList = (await call('GET', 'organizations/', { as: ada })).json().data;
    const bobList = (await call('GET', 'organizations/', { as: bob })).json().data;
    expect(adaList.map((org: { name: string }) => org.name)).toEqual(['Ada Only']);
    expect(bobList.map((org: { name: string }) => org.name)).toEqual(['Bob Only']);
    expect(await t.storage.organizations.organizationIdsOf(bob.user.id)).not.toContain(adaOrg.id);
  });
});

describe('adding members', () => {
  it('lets an admin add an account by e-mail (any case, spaces around); the member then sees it', async () => {
    const ada = await newUser();
    const bob = await newUser({ email: 'bob.builder@example.com', firstName: 'Bob', lastName: 'Builder' });
    const org = await createOrganization(ada);
    const res = await call('POST', `organizations/${org.id}/members/`, {
      as: ada,
      body: { email: '  BOB.Builder@EXAMPLE.com ' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().members).toEqual([
      expect.objectContaining({ user: expect.objectContaining({ id: ada.user.id }), role: 'admin' }),
      {
        user: { id: bob.user.id, username: 'bob.builder', first_name: 'Bob', last_name: 'Builder' },
        role: 'member',
      },
    ]);
    expect(res.body).not.toContain('example.com');
    const bobList = await call('GET', 'organizations/', { as: bob });
    expect(bobList.json().data).toEqual([expect.objectContaining({ id: org.id, role: 'member' })]);
    expect((await call('GET', `organizations/${org.id}/`, { as: bob })).statusCode).toBe(200);
  });

  it('answers 200 with nothing changed when the account already belongs', async () => {
    const [ada, bob] = [await newUser(), await newUser()];
    const org = await createOrganization(ada);
    expect((await addMember(ada, org.id, bob)).statusCode).toBe(201);
    const again = await addMember(ada, org.id, bob);
    expect(again.statusCode).toBe(200);
    expect(again.json().members).toHaveLength(2);
    expect(again.json().members[1].role).toBe('member');
    const self = await addMember(ada, org.id, ada);
    expect(self.statusCode).toBe(200);
    expect(self.json().members[0]).toMatchObject({ user: { id: ada.user.id }, role: 'admin' });
  });

  it('makes a member an admin when asked with role, and adds new members as admins', async () => {
    const [ada, bob, cy] = [await newUser(), await newUser(), await newUser()];
    const org = await createOrganization(ada);
    await addMember(ada, org.id, bob);
    const promoted = await addMember(ada, org.id, bob, 'admin');
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json().members.filter((m: { role: string }) => m.role === 'admin')).toHaveLength(2);
    const added = await addMember(ada, org.id, cy, 'admin');
    expect(added.statusCode).toBe(201);
    const cyView = await call('GET', `organizations/${org.id}/`, { as: cy });
    expect(cyView.json().role).toBe('admin');
    expectFieldError(await addMember(ada, org.id, cy, 'owner'), 'role');
  });

  it('answers 400 naming email for an address without an account, or no address', async () => {
    const ada = await newUser();
    const org = await createOrganization(ada);
    for (const body of [
      { email: 'nobody@example.com' },
      { email: '' },
      { email: '   ' },
      {},
      { email: 42 },
      { email: ['a@example.com'] },
      { email: 'x'.repeat(300) },
      { email: "' or 1=1 --" },
    ]) {
      expectFieldError(await call('POST', `organizations/${org.id}/members/`, { as: ada, body }), 'email');
    }
    const res = await call('POST', `organizations/${org.id}/members/`, {
      as: ada,
      body: { email: 'nobody@example.com' },
    });
    expect(res.json().errors[0]).toEqual({
      param: 'email',
      code: 'unknown_email',
      message: 'No account uses this e-mail address.',
    });
  });

  it('answers 404 to plain members and outsiders, changing nothing', async () => {
    const [ada, bob, eve, target] = [await newUser(), await newUser(), await newUser(), await newUser()];
    const org = await createOrganization(ada);
    await addMember(ada, org.id, bob);
    expectNotFound(await addMember(bob, org.id, target));
    expectNotFound(await addMember(eve, org.id, target));
    expectNotFound(await addMember(bob, org.id, bob, 'admin'));
    expectNotFound(await addMember(ada, '7d9f4d4e-8d0a-4a43-9bb4-0d3c3b0f3e11', target));
    expectNotFound(await addMember(ada, 'garbage', target));
    const detail = await call('GET', `organizations/${org.id}/`, { as: ada });
    expect(detail.json().members.map((m: { role: string }) => m.role)).toEqual(['admin', 'member']);
  });

  it('limits how many additions an admin makes in an hour (addresses must not be probed)', async () => {
    const ada = await newUser();
    const org = await createOrganization(ada);
    for (let i = 0; i < ADD_MEMBER_RATE_LIMIT.limit; i++) {
      const res = await call('POST', `organizations/${org.id}/members/`, {
        as: ada,
        body: { email: `probe${i}@example.com` },
      });
      expect(res.statusCode).toBe(400);
    }
    const limited = await call('POST', `organizations/${org.id}/members/`, {
      as: ada,
      body: { email: 'probe-more@example.com' },
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    clock = new Date(clock.getTime() + ADD_MEMBER_RATE_LIMIT.windowMs + 1000);
    const bob = await newUser();
    expect((await addMember(ada, org.id, bob)).statusCode).toBe(201);
  });
});

describe('removing members', () => {
  it('lets an admin remove a member by username; the member loses access', async () => {
    const ada = await newUser();
    const bob = await newUser({ email: 'bob.remove@example.com' });
    const org = await createOrganization(ada);
    await addMember(ada, org.id, bob);
    const res = await call('DELETE', `organizations/${org.id}/members/bob.remove/`, { as: ada });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectNotFound(await call('GET', `organizations/${org.id}/`, { as: bob }));
    expect((await call('GET', 'organizations/', { as: bob })).json().data).toEqual([]);
  });

  it('matches usernames case-insensitively and accepts the member’s id', async () => {
    const ada = await newUser();
    const [bob, cy] = [await newUser({ email: 'Bob.Case@example.com' }), await newUser()];
    const org = await createOrganization(ada);
    await addMember(ada, org.id, bob);
    await addMember(ada, org.id, cy);
    expect((await call('DELETE', `organizations/${org.id}/members/bob.case/`, { as: ada })).statusCode).toBe(
      204,
    );
    expect(
      (await call('DELETE', `organizations/${org.id}/members/${cy.user.id}/`, { as: ada })).statusCode,
    ).toBe(204);
    expect((await call('GET', `organizations/${org.id}/`, { as: ada })).json().members).toHaveLength(1);
  });

  it('answers 409 for a username two members share, and the id still works', async () => {
    const ada = await newUser();
    const twinA = await newUser({ email: 'twin@one.example' });
    const twinB = await newUser({ email: 'twin@two.example' });
    const org = await createOrganization(ada);
    await addMember(ada, org.id, twinA);
    await addMember(ada, org.id, twinB);
    const res = await call('DELETE', `organizations/${org.id}/members/twin/`, { as: ada });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ambiguous_username');
    const members = (await call('GET', `organizations/${org.id}/`, { as: ada })).json().members;
    expect(members.filter((m: { user: { username: string } }) => m.user.username === 'twin')).toHaveLength(2);
    expect(
      (await call('DELETE', `organizations/${org.id}/members/${twinB.user.id}/`, { as: ada })).statusCode,
    ).toBe(204);
    expect((await call('DELETE', `organizations/${org.id}/members/twin/`, { as: ada })).statusCode).toBe(204);
    expectNotFound(await call('GET', `organizations/${org.id}/`, { as: twinA }));
  });

  it('lets a member leave on their own, but not remove anyone else', async () => {
    const ada = await newUser();
    const [bob, cy] = [
      await newUser({ email: 'bob.leaves@example.com' }),
      await newUser({ email: 'cy.stays@example.com' }),
    ];
    const org = await createOrganization(ada);
    await addMember(ada, org.id, bob);
    await addMember(ada, org.id, cy);
    expectNotFound(await call('DELETE', `organizations/${org.id}/members/cy.stays/`, { as: bob }));
    expectNotFound(await call('DELETE', `organizations/${org.id}/members/${ada.user.id}/`, { as: bob }));
    expect(
      (await call('DELETE', `organizations/${org.id}/members/bob.leaves/`, { as: bob })).statusCode,
    ).toBe(204);
    const members = (await call('GET', `organizations/${org.id}/`, { as: ada })).json().members;
    expect(members.map((m: { user: { id: string } }) => m.user.id)).toEqual([ada.user.id, cy.user.id]);
  });

  it('answers 404 to outsiders and for someone who is not a member', async () => {
    const [ada, eve] = [await newUser(), await newUser({ email: 'eve.outside@example.com' })];
    const org = await createOrganization(ada);
    expectNotFound(await call('DELETE', `organizations/${org.id}/members/eve.outside/`, { as: eve }));
    expectNotFound(await call('DELETE', `organizations/${org.id}/members/eve.outside/`, { as: ada }));
    expectNotFound(await call('DELETE', `organizations/${org.id}/members/${eve.user.id}/`, { as: ada }));
    expectNotFound(
      await call('DELETE', `organizations/${org.id}/members/${encodeURIComponent('../x')}/`, { as: ada }),
    );
    expectNotFound(await call('DELETE', 'organizations/not-a-uuid/members/x/', { as: ada }));
  });

  it('keeps the last admin: 409 last_admin, until another member is made an admin', async () => {
    const ada = await newUser({ email: 'ada.admin@example.com' });
    const bob = await newUser();
    const org = await createOrganization(ada);
    await addMember(ada, org.id, bob);
    const refused = await call('DELETE', `organizations/${org.id}/members/ada.admin/`, { as: ada });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('last_admin');
    const demote = await addMember(ada, org.id, ada, 'member');
    expect(demote.statusCode).toBe(409);
    expect(demote.json().code).toBe('last_admin');

    await addMember(ada, org.id, bob, 'admin');
    expect((await call('DELETE', `organizations/${org.id}/members/ada.admin/`, { as: ada })).statusCode).toBe(
      204,
    );
    const detail = await call('GET', `organizations/${org.id}/`, { as: bob });
    expect(detail.json().members).toEqual([expect.objectContaining({ role: 'admin' })]);
  });

  it('lets only one of two admins leaving at once go', async () => {
    const [ada, bob] = [await newUser(), await newUser()];
    const org = await createOrganization(ada);
    await addMember(ada, org.id, bob, 'admin');
    const outcomes = await Promise.all([
      t.storage.organizations.removeMember(org.id, ada.user.id),
      t.storage.organizations.removeMember(org.id, bob.user.id),
    ]);
    expect(outcomes.sort()).toEqual(['last_admin', 'removed']);
  });
});

describe('renaming, deleting and roles (docs/http-api.md "Organisations")', () => {
  it('an admin renames (the slug stays), changes roles and deletes; members and outsiders cannot', async () => {
    const admin = await newUser();
    const member = await newUser();
    const outsider = await newUser();
    const org = await createOrganization(admin, 'Old name');
    await addMember(admin, org.id, member);
    const renamed = await call('PATCH', `organizations/${org.id}/`, {
      as: admin,
      body: { name: '  New name ' },
    });
    expect(renamed.json()).toMatchObject({ name: 'New name', slug: org.slug });
    for (const name of ['', '   ', 'x'.repeat(101), 'bad\u0000name']) {
      expectFieldError(
        await call('PATCH', `organizations/${org.id}/`, { as: admin, body: { name } }),
        'name',
      );
    }
    for (const as of [member, outsider]) {
      expect(
        (await call('PATCH', `organizations/${org.id}/`, { as, body: { name: 'Mine' } })).statusCode,
      ).toBe(404);
      expect((await call('DELETE', `organizations/${org.id}/`, { as })).statusCode).toBe(404);
    }
    const promoted = await call('PATCH', `organizations/${org.id}/members/${member.user.id}/`, {
      as: admin,
      body: { role: 'admin' },
    });
    expect(promoted.json().members.map((m: { role: string }) => m.role)).toEqual(['admin', 'admin']);
    const badRole = await call('PATCH', `organizations/${org.id}/members/${member.user.id}/`, {
      as: admin,
      body: { role: 'owner' },
    });
    expect(badRole.statusCode).toBe(400);
    // Stepping down is fine while another admin remains; the last one may not.
    await call('PATCH', `organizations/${org.id}/members/${admin.user.id}/`, {
      as: admin,
      body: { role: 'member' },
    });
    const last = await call('PATCH', `organizations/${org.id}/members/${member.user.id}/`, {
      as: member,
      body: { role: 'member' },
    });
    expect(last.json().code).toBe('last_admin');

    expect((await call('DELETE', `organizations/${org.id}/`, { as: member })).statusCode).toBe(204);
    expect((await call('GET', `organizations/${org.id}/`, { as: admin })).statusCode).toBe(404);
    expect((await call('GET', 'organizations/', { as: admin })).json().data).toEqual([]);
  });
});

describe('the repository B1 uses', () => {
  it('organizationIdsOf lists memberships; existingIds filters unknown and malformed ids', async () => {
    const [ada, bob] = [await newUser(), await newUser()];
    const one = await createOrganization(ada, 'One');
    const two = await createOrganization(bob, 'Two');
    await addMember(bob, two.id, ada);
    expect((await t.storage.organizations.organizationIdsOf(ada.user.id)).sort()).toEqual(
      [one.id, two.id].sort(),
    );
    expect(await t.storage.organizations.organizationIdsOf(bob.user.id)).toEqual([two.id]);
    const existing = await t.storage.organizations.existingIds([
      one.id,
      one.id,
      two.id.toUpperCase(),
      '7d9f4d4e-8d0a-4a43-9bb4-0d3c3b0f3e11',
      'not-a-uuid',
      '',
    ]);
    expect(existing.sort()).toEqual([one.id, two.id].sort());
    expect(await t.storage.organizations.existingIds([])).toEqual([]);
  });
});
