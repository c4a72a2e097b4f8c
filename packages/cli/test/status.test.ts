import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPortUrl, startHealthServer, type TestServer } from './support/http-server.js';
import { runCli, useTempDir } from './support/run-cli.js';

describe('planwright status', () => {
  const dir = useTempDir();
  const servers: TestServer[] = [];
  const serve = async (...args: Parameters<typeof startHealthServer>) => {
    const server = await startHealthServer(...args);
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('prints the server, its status, database and version for people', async () => {
    const server = await serve({ status: 'ok', database: 'postgres', version: '1.2.3' });
    const result = await runCli(['status', '--server', `${server.url}/`], {
      PLANWRIGHT_CONFIG_DIR: dir.path,
    });
    expect(result).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: [
        `Server:    ${server.url} (from --server)`,
        'Status:    ok',
        'Database:  postgres',
        'Version:   1.2.3',
        '',
      ].join('\n'),
    });
    expect(server.requests).toEqual([{ method: 'GET', url: '/api/v1/health' }]);
  });

  it('prints one JSON document with --json', async () => {
    const server = await serve({ status: 'ok', database: 'pglite', version: '0.1.0' });
    const result = await runCli(['status', '--json'], {
      PLANWRIGHT_CONFIG_DIR: dir.path,
      PLANWRIGHT_SERVER: server.url,
    });
    expect(result).toMatchObject({ exitCode: 0 });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      server: server.url,
      serverSource: 'env',
      status: 'ok',
      database: 'pglite',
      version: '0.1.0',
    });
  });

  describe('server URL precedence, end to end', () => {
    it('uses the config file when neither flag nor environment is set', async () => {
      const server = await serve();
      await writeFile(join(dir.path, 'config.json'), JSON.stringify({ server: server.url }));
      const result = await runCli(['status', '--json'], { PLANWRIGHT_CONFIG_DIR: dir.path });
      expect(JSON.parse(result.stdout)).toMatchObject({ server: server.url, serverSource: 'config' });
      expect(server.requests).toHaveLength(1);
    });

    it('prefers PLANWRIGHT_SERVER to the config file', async () => {
      const server = await serve();
      await writeFile(join(dir.path, 'config.json'), JSON.stringify({ server: await closedPortUrl() }));
      const result = await runCli(['status', '--json'], {
        PLANWRIGHT_CONFIG_DIR: dir.path,
        PLANWRIGHT_SERVER: server.url,
      });
      expect(result).toMatchObject({ exitCode: 0 });
      expect(JSON.parse(result.stdout)).toMatchObject({ server: server.url, serverSource: 'env' });
    });

    it('prefers --server to PLANWRIGHT_SERVER, and does not read a broken config file', async () => {
      const server = await serve();
      await writeFile(join(dir.path, 'config.json'), '{ broken');
      const result = await runCli(['--server', server.url, 'status', '--json'], {
        PLANWRIGHT_CONFIG_DIR: dir.path,
        PLANWRIGHT_SERVER: await closedPortUrl(),
      });
      expect(result).toMatchObject({ exitCode: 0 });
      expect(JSON.parse(result.stdout)).toMatchObject({ server: server.url, serverSource: 'flag' });
    });

    it('reports a bad PLANWRIGHT_SERVER as a usage error naming the variable', async () => {
      const result = await runCli(['status'], {
        PLANWRIGHT_CONFIG_DIR: dir.path,
        PLANWRIGHT_SERVER: 'localhost:8787',
      });
      expect(result).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          'planwright: PLANWRIGHT_SERVER: "localhost:8787" needs http:// or https:// in front (did you mean http://localhost:8787?)\n' +
          'Fix or unset PLANWRIGHT_SERVER, or pass --server <url>.\n',
      });
    });
  });

  it('says the server is unreachable in one line with what to do, exit 4', async () => {
    const url = await closedPortUrl();
    const result = await runCli(['status', '--server', url], { PLANWRIGHT_CONFIG_DIR: dir.path });
    expect(result).toEqual({
      exitCode: 4,
      stdout: '',
      stderr:
        `planwright: cannot reach the Planwright server at ${url} (ECONNREFUSED)\n` +
        'Start one with `npm start` in the Planwright folder, or point to yours with --server <url> or PLANWRIGHT_SERVER.\n',
    });
  });

  it('reports an unreachable server as JSON on stderr with --json', async () => {
    const url = await closedPortUrl();
    const result = await runCli(['status', '--json'], {
      PLANWRIGHT_CONFIG_DIR: dir.path,
      PLANWRIGHT_SERVER: url,
    });
    expect(result).toMatchObject({ exitCode: 4 });
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: 'server_unreachable',
        message: `cannot reach the Planwright server at ${url} (ECONNREFUSED)`,
        suggestion: expect.stringContaining('npm start'),
        exitCode: 4,
      },
    });
  });

  it('reports a server whose database is down with its detail, exit 1', async () => {
    const server = await serve(
      {
        status: 'error',
        database: 'pglite',
        version: '0.1.0',
        detail: 'The database is not answering.',
        code: 'unavailable',
      },
      503,
    );
    const result = await runCli(['status', '--server', server.url], { PLANWRIGHT_CONFIG_DIR: dir.path });
    expect(result).toMatchObject({ exitCode: 1 });
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'planwright: the server answered 503 Service Unavailable: The database is not answering.\n' +
        'The server had a problem: try again later.\n',
    );
  });

  it('reports an answer that is not a Planwright health answer as a failure, not a bug', async () => {
    const server = await serve({ hello: 'world' });
    const result = await runCli(['status', '--server', server.url], { PLANWRIGHT_CONFIG_DIR: dir.path });
    expect(result).toMatchObject({ exitCode: 1 });
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^planwright: /);
    expect(result.stderr).not.toMatch(/bug/);
  });
});
