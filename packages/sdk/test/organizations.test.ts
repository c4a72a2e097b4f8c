import {
  ApiError,
  AuthRequiredError,
  createPlanwrightClient,
  InvalidInputError,
  MemoryTokenStore,
} from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { reply, useRecordingServer } from './support/recording-server.js';
import { bodyOf } from './support/workspace-fixtures.js';

const org = { id: 'org-1', name: 'Acme Studio', slug: 'acme-studio', title: 'Acme Studio', role: 'admin' };

const server = useRecordingServer((_req, res) =>
  reply(res, 200, { data: [org], meta: { pagination: { total: 1 } } }),
);
const client = (tokenStore = new MemoryTokenStore({ token: 'tok' })) =>
  createPlanwrightClient({ baseUrl: server.origin, tokenStore });

describe('organizations.list', () => {
  it('GETs organizations/', async () => {
    expect(await client().organizations.list()).toEqual({ items: [org], total: 1 });
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/organizations/']);
  });

  it('falls back to organization/ when organizations/ answers 404 (spec 000 §7)', async () => {
    server.handle((req, res) =>
      req.url === '/api/v1/organizations/'
        ? reply(res, 404, { detail: 'Not found.' })
        : reply(res, 200, [
            { id: 5, title: 'Only a title' },
            { id: 6, slug: 'only-a-slug' },
          ]),
    );
    const page = await client().organizations.list();
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/organizations/', '/api/v1/organization/']);
    expect(page.items).toEqual([
      { id: '5', name: 'Only a title', title: 'Only a title', slug: null, role: null },
      { id: '6', name: 'only-a-slug', title: null, slug: 'only-a-slug', role: null },
    ]);
  });

  it('does not fall back on other failures', async () => {
    server.handle((_req, res) => reply(res, 500, 'boom'));
    await expect(client().organizations.list()).rejects.toMatchObject({ status: 500 });
    server.reset();
    server.handle((_req, res) => reply(res, 401, { detail: 'no' }));
    const tokenStore = new MemoryTokenStore({ token: 'tok' });
    await expect(client(tokenStore).organizations.list()).rejects.toSatisfy(AuthRequiredError.isInstance);
    expect(server.requests).toHaveLength(1);
    expect(tokenStore.getToken()).toBeNull();
  });

  it('reports the fallback’s own failure', async () => {
    server.handle((_req, res) => reply(res, 404, { detail: 'Not found.' }));
    const error = await client()
      .organizations.list()
      .catch((e: unknown) => e);
    expect(ApiError.isInstance(error) && error.url).toBe(`${server.origin}/api/v1/organization/`);
  });
});

describe('organizations: create, get, members', () => {
  it('POSTs a trimmed name', async () => {
    server.handle((_req, res) => reply(res, 201, org));
    expect(await client().organizations.create({ name: '  Acme Studio ' })).toEqual({
      ...org,
      members: [],
      invitations: null,
    });
    expect(server.last()).toMatchObject({ method: 'POST', url: '/api/v1/organizations/' });
    expect(bodyOf(server.last())).toEqual({ name: 'Acme Studio' });
    for (const name of [' ', 'x'.repeat(101), 'tab\tname', 'lone \ud800']) {
      await expect(client().organizations.create({ name })).rejects.toSatisfy(InvalidInputError.isInstance);
    }
    // 100 characters are code points: 100 emoji (200 UTF-16 units) are fine.
    await client().organizations.create({ name: '🚀'.repeat(100) });
    expect(server.requests).toHaveLength(2);
  });

  it('GETs one organisation with its members', async () => {
    server.handle((_req, res) =>
      reply(res, 200, {
        ...org,
        members: [
          { user: { id: 7, username: 'ada', first_name: 'Ada', last_name: 'Lovelace' }, role: 'admin' },
          { user: { username: 'bob' }, role: 'member' },
        ],
      }),
    );
    const detail = await client().organizations.get('org-1');
    expect(server.last().url).toBe('/api/v1/organizations/org-1/');
    expect(detail.members).toEqual([
      { user: { id: '7', username: 'ada', first_name: 'Ada', last_name: 'Lovelace' }, role: 'admin' },
      { user: { id: null, username: 'bob', first_name: '', last_name: '' }, role: 'member' },
    ]);
  });

  it('adds a member by e-mail (with a role when given), answering the organisation; removes one', async () => {
    const member = { user: { id: 'u-2', username: 'bob', first_name: '', last_name: '' }, role: 'member' };
    server.handle((_req, res) => reply(res, 201, { ...org, members: [member] }));
    expect(await client().organizations.addMember('org-1', { email: ' bob@example.com ' })).toEqual({
      ...org,
      members: [member],
      invitations: null,
    });
    await client().organizations.addMember('org-1', { email: 'bob@example.com', role: 'admin' });
    await expect(
      client().organizations.addMember('org-1', { email: 'bob@example.com', role: 'owner' as 'admin' }),
    ).rejects.toSatisfy(InvalidInputError.isInstance);
    server.handle((_req, res) => reply(res, 204));
    await client().organizations.removeMember('org-1', 'bob/../x');
    expect(server.requests.map((r) => [r.method, r.url, bodyOf(r) ?? null])).toEqual([
      ['POST', '/api/v1/organizations/org-1/members/', { email: 'bob@example.com' }],
      ['POST', '/api/v1/organizations/org-1/members/', { email: 'bob@example.com', role: 'admin' }],
      ['DELETE', '/api/v1/organizations/org-1/members/bob%2F..%2Fx/', null],
    ]);
  });

  it('invites by e-mail as member unless told admin; resends and revokes; admins read the pending invitations', async () => {
    const sent = {
      id: 'inv-1',
      email: 'mentor@uni.example',
      role: 'member',
      created_at: '2026-11-29T10:00:00Z',
      sent_at: '2026-11-29T10:00:00Z',
      expires_at: '2026-12-13T10:00:00Z',
    };
    server.handle((_req, res) => reply(res, 201, sent));
    expect(await client().organizations.invite('org-1', { email: ' mentor@uni.example ' })).toEqual(sent);
    await client().organizations.invite('org-1', { email: 'mentor@uni.example', role: 'admin' });
    await expect(
      client().organizations.invite('org-1', { email: 'x@example.com', role: 'owner' as 'admin' }),
    ).rejects.toSatisfy(InvalidInputError.isInstance);
    await expect(client().organizations.invite('org-1', { email: '  ' })).rejects.toSatisfy(
      InvalidInputError.isInstance,
    );
    server.handle((_req, res) => reply(res, 200, sent));
    await client().organizations.resendInvitation('org-1', 'inv-1');
    server.handle((_req, res) => reply(res, 204));
    await client().organizations.revokeInvitation('org-1', 'inv/1');
    expect(server.requests.map((r) => [r.method, r.url, bodyOf(r) ?? null])).toEqual([
      ['POST', '/api/v1/organizations/org-1/invitations/', { email: 'mentor@uni.example', role: 'member' }],
      ['POST', '/api/v1/organizations/org-1/invitations/', { email: 'mentor@uni.example', role: 'admin' }],
      ['POST', '/api/v1/organizations/org-1/invitations/inv-1/resend/', {}],
      ['DELETE', '/api/v1/organizations/org-1/invitations/inv%2F1/', null],
    ]);
    server.handle((_req, res) => reply(res, 200, { ...org, members: [], invitations: [sent] }));
    expect((await client().organizations.get('org-1')).invitations).toEqual([sent]);
    // An invitation with a role the organisation cannot have is not one: the answer is refused.
    server.handle((_req, res) => reply(res, 201, { ...sent, role: 'editor' }));
    await expect(client().organizations.invite('org-1', { email: 'a@example.com' })).rejects.toThrow();
  });
});

describe('systemPrompt.get', () => {
  it('GETs apps/global-system-prompt/ and returns the text', async () => {
    server.handle((_req, res) => reply(res, 200, { global_system_prompt: 'Be helpful.\nCite sources.' }));
    expect(await client().systemPrompt.get()).toBe('Be helpful.\nCite sources.');
    expect(server.last()).toMatchObject({ method: 'GET', url: '/api/v1/apps/global-system-prompt/' });
    server.handle((_req, res) => reply(res, 200, { global_system_prompt: null }));
    expect(await client().systemPrompt.get()).toBe('');
  });

  it('rejects an answer without the field’s type', async () => {
    server.handle((_req, res) => reply(res, 200, { global_system_prompt: 42 }));
    await expect(client().systemPrompt.get()).rejects.toMatchObject({ code: 'invalid_response' });
  });
});
