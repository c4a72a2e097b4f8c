import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, useTempDir } from './support/run-cli.js';
import { type FakeTeamsServer, startFakeTeamsServer } from './support/teams-server.js';

describe('planwright orgs', () => {
  const dir = useTempDir();
  let server: FakeTeamsServer;
  let token: string;
  beforeEach(async () => {
    server = await startFakeTeamsServer();
    token = server.issueToken();
    await writeFile(
      join(dir.path, 'session.json'),
      JSON.stringify({ sessions: { [server.url]: { token, email: 'ada@example.com' } } }),
    );
  });
  afterEach(async () => {
    await server.close();
  });

  const cli = (...args: string[]) =>
    runCli(args, { PLANWRIGHT_CONFIG_DIR: dir.path, PLANWRIGHT_SERVER: server.url });
  const requests = () => server.seen.map((r) => `${r.method} ${r.url}`);

  describe('list', () => {
    it('says how to start when the caller belongs to none', async () => {
      expect(await cli('orgs', 'list')).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: 'You belong to no organisations yet.\nCreate one with `planwright orgs create <name>`.\n',
      });
      expect(requests()).toEqual(['GET /api/v1/organizations/']);
    });

    it('prints id, name and the caller’s role, aligned by display width', async () => {
      server.organizations.push(
        { id: 'o1000000-0000-4000-8000-000000000001', name: 'Studio', role: 'admin' },
        { id: 'o1000000-0000-4000-8000-000000000002', name: '設計 \u001b[31mstudio', role: 'member' },
      );
      expect((await cli('orgs', 'list')).stdout).toBe(
        [
          'ID                                    NAME         ROLE',
          'o1000000-0000-4000-8000-000000000001  Studio       admin',
          'o1000000-0000-4000-8000-000000000002  設計 studio  member',
          '',
        ].join('\n'),
      );
    });

    it('says when the server kept some back (its first page only)', async () => {
      server.organizations.push({ id: 'o1', name: 'Studio', role: 'admin' });
      server.organizationsTotal = 21;
      expect((await cli('orgs', 'list')).stdout).toContain('\n\n1 of 21 organisations (the first page).\n');
    });

    it('prints the SDK’s page with --json', async () => {
      server.organizations.push({ id: 'o1', name: 'Studio', role: 'admin' });
      expect(JSON.parse((await cli('orgs', 'list', '--json')).stdout)).toEqual({
        items: [{ id: 'o1', name: 'Studio', title: 'Studio', slug: 'studio', role: 'admin' }],
        total: 1,
      });
    });
  });

  describe('create', () => {
    it('POSTs the trimmed name and says the caller is its admin', async () => {
      const result = await cli('orgs', 'create', '  Studio ');
      const created = server.organizations[0];
      expect(result).toEqual({
        exitCode: 0,
        stderr: '',
        stdout: `Created the organisation "Studio" (${created?.id}); you are its admin.\n`,
      });
      expect(server.seen).toEqual([
        {
          method: 'POST',
          url: '/api/v1/organizations/',
          token,
          ifMatch: undefined,
          body: { name: 'Studio' },
        },
      ]);
    });

    it('prints the SDK’s OrganizationDetail with --json', async () => {
      const result = await cli('orgs', 'create', 'Studio', '--json');
      expect(JSON.parse(result.stdout)).toEqual({
        id: server.organizations[0]?.id,
        name: 'Studio',
        title: 'Studio',
        slug: 'studio',
        role: 'admin',
        members: [
          { user: { id: 'u-ada', username: 'ada', first_name: 'Ada', last_name: '' }, role: 'admin' },
        ],
      });
    });

    it.each([
      ['   ', 'Name is required'],
      ['x'.repeat(101), 'Name must be at most 100 characters'],
      ['A\u001b[2Jb', 'Must not contain control characters'],
    ])('refuses the name %j with exit 2, sending nothing', async (name, message) => {
      const result = await cli('orgs', 'create', name);
      expect(result).toMatchObject({ exitCode: 2, stdout: '' });
      expect(result.stderr.split('\n')[0]).toBe(`planwright: <name>: ${message}`);
      expect(server.seen).toEqual([]);
    });

    it('asks nothing of the server when signed out, exit 3', async () => {
      await writeFile(join(dir.path, 'session.json'), JSON.stringify({ sessions: {} }));
      expect(await cli('orgs', 'create', 'Studio')).toMatchObject({ exitCode: 3, stdout: '' });
      expect(server.seen).toEqual([]);
    });
  });
});
