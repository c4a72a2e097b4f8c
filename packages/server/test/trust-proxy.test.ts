import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { fastifyTrustProxy } from '../src/http/trust-proxy.js';
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

  it('a hop count believes that many proxies from the TCP peer, whatever their address', () => {
    const trust = fastifyTrustProxy(2);
    expect(typeof trust).toBe('function');
    if (typeof trust !== 'function') return;
    expect([trust('10.0.0.9', 0), trust('203.0.113.1', 1), trust('10.0.0.2', 2)]).toEqual([
      true,
      true,
      false,
    ]);
    expect(fastifyTrustProxy(['loopback'])).toEqual(['loopback']);
    expect(fastifyTrustProxy(false)).toBe(false);
  });

  describe('in the app', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await createTestApp({ TRUST_PROXY: 'loopback' }, { routes: echoIp });
    });
    afterAll(async () => {
      await app?.close();
    });

    it('believes X-Forwarded-For from a trusted proxy only: nobody else picks their own rate-limit key', async () => {
      const forwarded = { 'x-forwarded-for': '203.0.113.7, 10.0.0.2' };
      expect(await ipOf(app.app, forwarded, '127.0.0.1')).toBe('10.0.0.2');
      expect(await ipOf(app.app, forwarded, '198.51.100.2')).toBe('198.51.100.2');
      expect(await ipOf(app.app, {}, '127.0.0.1')).toBe('127.0.0.1');
    });
  });
});
