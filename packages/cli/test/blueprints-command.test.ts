import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, useTempDir } from './support/run-cli.js';
import { type FakeWorkspaceServer, startFakeWorkspaceServer } from './support/workspace-server.js';

describe('planwright blueprints', () => {
  const dir = useTempDir();
  let server: FakeWorkspaceServer;
  let token: string;
  beforeEach(async () => {
    server = await startFakeWorkspaceServer({
      blueprints: [
        {
          uuid: 'b1000000-0000-4000-8000-000000000001',
          title: 'Business Plan',
          publisher: 'Planwright Studio',
        },
        {
          uuid: 'b1000000-0000-4000-8000-000000000002',
          title: 'Lean Canvas',
          owner: 'ada',
          status: 'draft',
          visibility: 'private',
        },
        {
          uuid: 'b1000000-0000-4000-8000-000000000003',
          title: '\u001b]0;owned\u0007Market \u001b[1mfit\u001b[0m',
          owner: 'mallory',
        },
      ],
    });
    token = server.issueToken();
    await writeFile(
      join(dir.path, 'session.json'),
      JSON.stringify({ sessions: { [server.url]: { token } } }),
    );
  });
  afterEach(async () => {
    await server.close();
  });

  const env = () => ({ PLANWRIGHT_CONFIG_DIR: dir.path, PLANWRIGHT_SERVER: server.url });
  const cli = (...args: string[]) => runCli(args, env());

  it('lists your own blueprints (GET blueprints/)', async () => {
    expect(await cli('blueprints', 'list')).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: [
        'UUID                                  TITLE        STATUS  VISIBILITY  VERSION  PUBLISHER  UPDATED',
        'b1000000-0000-4000-8000-000000000002  Lean Canvas  Draft   private     1        ada        2026-11-22 10:00 UTC',
        '',
      ].join('\n'),
    });
    expect(server.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/v1/blueprints/']);
  });

  it('lists the available ones with --available, hostile titles made safe', async () => {
    const result = await cli('blueprints', 'list', '--available', '--page-size', '50');
    expect(server.seen.map((r) => r.url)).toEqual(['/api/v1/blueprints/available/?page_size=50']);
    expect(result.stdout).toBe(
      [
        'UUID                                  TITLE          STATUS     VISIBILITY  VERSION  PUBLISHER          UPDATED',
        'b1000000-0000-4000-8000-000000000001  Business Plan  Published  public      1        Planwright Studio  2026-11-22 10:00 UTC',
        'b1000000-0000-4000-8000-000000000002  Lean Canvas    Draft      private     1        ada                2026-11-22 10:00 UTC',
        'b1000000-0000-4000-8000-000000000003  Market fit     Published  public      1        mallory            2026-11-22 10:00 UTC',
        '',
      ].join('\n'),
    );
  });

  it('prints the SDK page with --json', async () => {
    const page = JSON.parse((await cli('blueprints', 'list', '--available', '--json')).stdout) as {
      items: Array<{ uuid: string; publisher: string | null; owner: unknown }>;
      total: number;
    };
    expect(page.total).toBe(3);
    expect(page.items[0]).toMatchObject({
      uuid: 'b1000000-0000-4000-8000-000000000001',
      publisher: 'Planwright Studio',
      owner: null,
    });
  });

  it('says so when there is nothing to list', async () => {
    server.blueprints.clear();
    expect((await cli('blueprints', 'list', '--available')).stdout).toBe('No blueprints available.\n');
    expect((await cli('blueprints', 'list')).stdout).toBe(
      'You have no blueprints yet. `planwright blueprints list --available` shows the ones you can use.\n',
    );
  });

  it('shows one blueprint: fields, system prompt and outline with tool modes', async () => {
    expect(await cli('blueprints', 'show', 'b1000000-0000-4000-8000-000000000001')).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: [
        'Business Plan',
        'UUID:        b1000000-0000-4000-8000-000000000001',
        'Status:      Published',
        'Version:     1',
        'Visibility:  public',
        'Publisher:   Planwright Studio',
        'Published:   2026-11-22 10:00 UTC',
        'Sections:    1',
        'Yours:       no',
        'Created:     2026-11-22 10:00 UTC',
        'Updated:     2026-11-22 10:00 UTC',
        '',
        'Description:',
        '  No description.',
        '',
        'System prompt:',
        '  You help founders.',
        '',
        'Outline:',
        '  1. Executive Summary (web)',
        '     1.1 Overview',
        '',
      ].join('\n'),
    });
    expect(server.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/v1/blueprints/b1000000-0000-4000-8000-000000000001/',
    ]);
  });

  it('says "Blueprint not found." with exit 1', async () => {
    expect(await cli('blueprints', 'show', 'b1000000-0000-4000-8000-0000000000ff')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr:
        'planwright: Blueprint not found.\nRun `planwright blueprints list --available` to see the blueprints you can use.\n',
    });
  });

  it('creates a blueprint (an empty body, or a trimmed title) and says where to write it', async () => {
    const made = await cli('blueprints', 'create');
    expect(made).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: [
        'Created "Untitled Blueprint" (bp-new-4).',
        'It is a private draft: write it in the web editor at /dashboard/blueprints/bp-new-4/edit, then `planwright blueprints publish bp-new-4`.',
        '',
      ].join('\n'),
    });
    expect(server.seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/v1/blueprints/', body: {} });
    const titled = JSON.parse(
      (await cli('blueprints', 'create', '--title', '  Seed deck  ', '--json')).stdout,
    );
    expect(titled).toMatchObject({ title: 'Seed deck', status: 'draft', visibility: 'private' });
    const blank = await cli('blueprints', 'create', '--title', '   ');
    expect(blank.exitCode).toBe(2);
    expect(blank.stderr).toContain('--title: Title cannot be empty');
  });

  it('publishes: a draft at its version, then a new version; visibility and organisations pass through', async () => {
    expect((await cli('blueprints', 'publish', 'b1000000-0000-4000-8000-000000000002')).stdout).toBe(
      'Published "Lean Canvas" version 1 (private).\n',
    );
    expect(server.seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/api/v1/blueprints/b1000000-0000-4000-8000-000000000002/publish/',
      body: {},
    });
    const restricted = await cli(
      'blueprints',
      'publish',
      'b1000000-0000-4000-8000-000000000002',
      '--visibility',
      'restricted',
      '--org',
      '0a900000-0000-4000-8000-000000000001',
      '--org',
      '0a900000-0000-4000-8000-000000000002',
    );
    expect(restricted.stdout).toBe('Published "Lean Canvas" version 2 (restricted to 2 organisations).\n');
    expect(server.seen.at(-1)?.body).toEqual({
      visibility: 'restricted',
      allowed_orgs: ['0a900000-0000-4000-8000-000000000001', '0a900000-0000-4000-8000-000000000002'],
    });
    const json = JSON.parse(
      (await cli('blueprints', 'publish', 'b1000000-0000-4000-8000-000000000002', '--version', '7', '--json'))
        .stdout,
    );
    expect(json).toMatchObject({ version: 7, status: 'published' });
    expect(server.seen.at(-1)?.body).toEqual({ version: 7 });
  });

  it('shows the server’s reason when a version is refused, and refuses bad flags before calling', async () => {
    await cli('blueprints', 'publish', 'b1000000-0000-4000-8000-000000000002');
    const refused = await cli(
      'blueprints',
      'publish',
      'b1000000-0000-4000-8000-000000000002',
      '--version',
      '1',
    );
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stderr).toContain('Publish a version above 1.');
    const before = server.seen.length;
    for (const [flags, message] of [
      [['--visibility', 'everyone'], '--visibility: must be public, restricted, private or unlisted'],
      [['--org', '0a900000-0000-4000-8000-000000000001'], '--org: only goes with --visibility restricted'],
      [['--version', '0'], '--version: must be at least 1'],
      [['--version', 'two'], '--version: must be a whole number'],
    ] as const) {
      const result = await cli('blueprints', 'publish', 'b1000000-0000-4000-8000-000000000002', ...flags);
      expect(result.exitCode, flags.join(' ')).toBe(2);
      expect(result.stderr, flags.join(' ')).toContain(message);
    }
    expect(server.seen.length).toBe(before);
  });

  it('unpublishes, with hostile titles made safe; an unknown blueprint is "Blueprint not found."', async () => {
    server.blueprints.set('b1000000-0000-4000-8000-000000000004', {
      uuid: 'b1000000-0000-4000-8000-000000000004',
      title: '\u001b]0;pwned\u0007Evil \u001b[31mplan',
      owner: 'ada',
    });
    expect((await cli('blueprints', 'unpublish', 'b1000000-0000-4000-8000-000000000004')).stdout).toBe(
      'Unpublished "Evil plan"; it is a draft again.\n',
    );
    expect(server.seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/api/v1/blueprints/b1000000-0000-4000-8000-000000000004/unpublish/',
    });
    const missing = await cli('blueprints', 'unpublish', 'b1000000-0000-4000-8000-0000000000ff');
    expect(missing).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'planwright: Blueprint not found.\nRun `planwright blueprints list` to see your blueprints.\n',
    });
  });

  it('handles an expired session like whoami (exit 3)', async () => {
    server.tokens.clear();
    const result = await cli('blueprints', 'list', '--json');
    expect(result.exitCode).toBe(3);
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'session_expired', exitCode: 3 } });
  });
});
