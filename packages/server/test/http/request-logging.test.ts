import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { chooseLogFormat, loggerOptions, pathOf, requestLine } from '../../src/http/request-logging.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('chooseLogFormat (LOG_FORMAT and whether stdout is a terminal)', () => {
  it.each([
    [true, 'auto', 'pretty'],
    [false, 'auto', 'json'],
    [true, 'json', 'json'],
    [false, 'json', 'json'],
    [true, 'pretty', 'pretty'],
    [false, 'pretty', 'pretty'],
  ] as const)('a terminal: %s, LOG_FORMAT=%s → %s', (isTTY, logFormat, expected) => {
    expect(chooseLogFormat(isTTY, logFormat)).toBe(expected);
  });

  it('reads LOG_FORMAT: unset or empty is auto, any case, and anything else is refused by name', () => {
    expect(loadConfig({}).logFormat).toBe('auto');
    expect(loadConfig({ LOG_FORMAT: '' }).logFormat).toBe('auto');
    expect(loadConfig({ LOG_FORMAT: ' Pretty ' }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'JSON' }).logFormat).toBe('json');
    for (const bad of ['yaml', 'pretty json', '1']) {
      const error = (() => {
        try {
          loadConfig({ LOG_FORMAT: bad });
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^LOG_FORMAT: .*"(auto|json|pretty)"/),
      ]);
    }
  });

  it('JSON is pino as it is; the readable form writes through a stream', () => {
    expect(loggerOptions('warn', 'json')).toEqual({ level: 'warn' });
    expect(loggerOptions('info', 'pretty')).toMatchObject({ level: 'info', stream: expect.any(Writable) });
  });
});

describe('request lines', () => {
  it('a path never carries its query string or fragment', () => {
    expect(pathOf('/api/v1/documents/?token=secret&page=2')).toBe('/api/v1/documents/');
    expect(pathOf('/ws/document/abc?token=x')).toBe('/ws/document/abc');
    expect(pathOf('/web/#key=1')).toBe('/web/');
    expect(pathOf('/plain')).toBe('/plain');
    expect(pathOf('?only')).toBe('');
  });

  it('one short line: method, path, status, whole milliseconds', () => {
    expect(requestLine('GET', '/api/v1/health', 200, 1.6)).toBe('GET /api/v1/health 200 2 ms');
  });
});

describe('one log line per request, health probes below info', () => {
  let test: TestApp;
  let lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });

  beforeAll(async () => {
    test = await createTestApp({}, { logger: { level: 'debug', stream: sink } });
  });
  afterAll(async () => {
    await test?.close();
  });

  const requestLines = () => lines.filter((line) => line.req !== undefined || line.res !== undefined);

  it('an API request logs one info line with method, path without the query, status and time', async () => {
    lines = [];
    const answer = await test.app.inject({ url: '/api/v1/documents/?token=secret-in-query' });
    expect(answer.statusCode).toBe(401);
    expect(requestLines()).toEqual([
      expect.objectContaining({
        level: 30,
        msg: expect.stringMatching(/^GET \/api\/v1\/documents\/ 401 \d+ ms$/),
        req: { method: 'GET', url: '/api/v1/documents/' },
        res: { statusCode: 401 },
        responseTime: expect.any(Number),
        reqId: answer.headers['x-request-id'],
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret-in-query');
    expect(lines.map((line) => line.msg)).not.toContain('incoming request');
  });

  it('a health probe logs at debug only', async () => {
    lines = [];
    expect((await test.app.inject({ url: '/api/v1/health' })).statusCode).toBe(200);
    expect(requestLines()).toEqual([
      expect.objectContaining({ level: 20, msg: expect.stringMatching(/^GET \/api\/v1\/health 200 /) }),
    ]);
  });

  it('an unknown route logs its one line too (no separate "Route … not found")', async () => {
    lines = [];
    const answer = await test.app.inject({ method: 'DELETE', url: '/api/v1/no-such-thing?key=abc' });
    expect(answer.statusCode).toBe(404);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: expect.stringMatching(/^DELETE \/api\/v1\/no-such-thing 404 /),
      }),
    ]);
  });
});
