import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { configProblems } from './support/config-problems.js';
import { createTestApp, type TestApp } from './support/test-app.js';

// The client address every per-IP rate limit and session record uses, read back through an extra route.
const echoIp = (app: TestApp['app']) => app.get('/test/ip', async (request) => ({ ip: request.ip }));
const ipOf = async (app: TestApp['app'], headers: Record<string, string>, remoteAddress: string) =>
  (await app.inject({ method: 'GET', url: '/test/ip', headers, remoteAddress })).json<{ ip: string }>().ip;

describe('TRUST_PROXY', () => {
  it('is off by default, and reads a hop count or a list of addresses, CIDRs and range names', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, loopback,fd00::1 ' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'loopback',
      'fd00::1',
    ]);
  });

  it('refuses what is neither, naming the variable', () => {
    for (const bad of ['0', '11', 'true', '10.0.0.0/33', '999.1.1.1', 'loopback,', '::1/129', '<script>']) {
      expect(configProblems({ TRUST_PROXY: bad })[0], bad).toMatch(/^TRUST_PROXY: /);
    }
  });

  describe('in the app', () => {
    let direct: TestApp;
    let proxied: TestApp;
    let hops: TestApp;
    beforeAll(async () => {
      direct = await createTestApp({}, { routes: echoIp });
      proxied = await createTestApp({ TRUST_PROXY: 'loopback' }, { routes: echoIp });
      hops = await createTestApp({ TRUST_PROXY: '1' }, { routes: echoIp });
    });
    afterAll(async () => {
      await Promise.all([direct?.close(), proxied?.close(), hops?.close()]);
    });

    it('ignores X-Forwarded-For unless the proxy is trusted: nobody picks their own rate-limit key', async () => {
      expect(await ipOf(direct.app, { 'x-forwarded-for': '203.0.113.7' }, '127.0.0.1')).toBe('127.0.0.1');
      expect(await ipOf(proxied.app, { 'x-forwarded-for': '203.0.113.7' }, '127.0.0.1')).toBe('203.0.113.7');
      // A client that is not the trusted proxy cannot claim another address.
      expect(await ipOf(proxied.app, { 'x-forwarded-for': '203.0.113.7' }, '198.51.100.2')).toBe(
        '198.51.100.2',
      );
    });

    it('with a hop count, believes that many proxies from the nearest', async () => {
      const chain = { 'x-forwarded-for': '203.0.113.7, 10.0.0.2' };
      expect(await ipOf(hops.app, chain, '10.0.0.9')).toBe('10.0.0.2');
    });
  });
});
