import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineScriptHashes, pagePolicy } from '../../src/http/security-headers.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// SEC-H rules of test/security/SPEC.md: the headers on every page and API answer (docs/security.md).

const THEME_SCRIPT = "document.documentElement.setAttribute('data-theme', 'coffee');";
const builtWebApp = fileURLToPath(new URL('../../../web/dist', import.meta.url));
let t: TestApp;
let https: TestApp;
let user: SignedInUser;
let webDir: string;

/** A web build with an inline theme script, like packages/web/dist/index.html. */
function webBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'planwright-headers-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><title>P</title><script>${THEME_SCRIPT}</script><script type="module" src="/assets/index-a1.js"></script>`,
  );
  writeFileSync(join(dir, 'assets', 'index-a1.js'), 'console.log(1);');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

beforeAll(async () => {
  webDir = webBuild();
  t = await createTestApp({ PLANWRIGHT_WEB_DIR: webDir });
  https = await createTestApp({ PLANWRIGHT_WEB_DIR: webDir, PUBLIC_URL: 'https://plans.example.com' });
  user = await createSignedInUser(t, { email: 'headers@example.com' });
});
afterAll(async () => {
  await t?.close();
  await https?.close();
  rmSync(webDir, { recursive: true, force: true });
});

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );
}

function expectBaseline(res: LightMyRequestResponse, label: string): void {
  expect(res.statusCode, label).toBeLessThan(500);
  expect(res.headers['x-content-type-options'], label).toBe('nosniff');
  expect(res.headers['referrer-policy'], label).toBe('strict-origin-when-cross-origin');
  expect(res.headers['x-frame-options'], label).toBe('DENY');
  expect(res.headers['cross-origin-opener-policy'], label).toBe('same-origin');
  expect(res.headers['cross-origin-resource-policy'], label).toBe('same-origin');
  expect(String(res.headers['permissions-policy']), label).toContain('camera=()');
  const csp = directives(String(res.headers['content-security-policy']));
  expect(csp.get('frame-ancestors'), label).toEqual(["'none'"]);
}

describe('security headers', () => {
  it('SEC-H1: every page, asset, API answer and error carries the baseline headers', async () => {
    const requests: Array<[string, InjectOptions]> = [
      ['page /', { method: 'GET', url: '/' }],
      ['client route', { method: 'GET', url: '/dashboard/documents' }],
      ['asset', { method: 'GET', url: '/assets/index-a1.js' }],
      ['favicon', { method: 'GET', url: '/favicon.svg' }],
      ['missing asset', { method: 'GET', url: '/assets/gone.js' }],
      ['health', { method: 'GET', url: '/api/v1/health' }],
      ['401', { method: 'GET', url: '/api/v1/documents/' }],
      ['200 json', { method: 'GET', url: '/api/v1/documents/', headers: user.headers }],
      ['404 api', { method: 'GET', url: '/api/v1/nothing-here' }],
      ['400', { method: 'POST', url: '/api/v1/documents/', headers: user.headers, payload: { title: 5 } }],
      ['allauth', { method: 'GET', url: '/_allauth/browser/v1/config' }],
      ['websocket path over http', { method: 'GET', url: '/ws/document/x/chat/' }],
    ];
    for (const [label, request] of requests) expectBaseline(await t.app.inject(request), label);
  });

  it('SEC-H2: pages get the app policy: own scripts plus the hashed inline theme script, nothing eval-ed', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard' });
    const csp = directives(String(res.headers['content-security-policy']));
    const hash = inlineScriptHashes(`<script>${THEME_SCRIPT}</script>`)[0] ?? '';
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'", hash, 'https://js.stripe.com']);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('connect-src')).toEqual(["'self'", `ws://${new URL(t.config.publicUrl).host}`]);
    expect(String(res.headers['content-security-policy'])).not.toContain('unsafe-eval');
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  });

  it('SEC-H3: non-page answers may load nothing at all', async () => {
    for (const url of ['/api/v1/health', '/assets/index-a1.js']) {
      const csp = directives(
        String((await t.app.inject({ method: 'GET', url })).headers['content-security-policy']),
      );
      expect(csp.get('default-src'), url).toEqual(["'none'"]);
    }
  });

  it('SEC-H4: with an https PUBLIC_URL, HSTS is sent and the socket origin is wss', async () => {
    const res = await https.app.inject({ method: 'GET', url: '/' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(directives(String(res.headers['content-security-policy'])).get('connect-src')).toEqual([
      "'self'",
      'wss://plans.example.com',
    ]);
    expect(
      (await t.app.inject({ method: 'GET', url: '/' })).headers['strict-transport-security'],
    ).toBeUndefined();
  });

  it('SEC-H5: the built web app runs under the policy: every inline script of its index.html is hashed', () => {
    const html = readFileSync(join(builtWebApp, 'index.html'), 'utf8');
    const policy = directives(pagePolicy({ publicUrl: 'http://localhost:8000', webDir: builtWebApp }));
    const hashes = inlineScriptHashes(html);
    expect(hashes.length).toBeGreaterThan(0);
    for (const hash of hashes) expect(policy.get('script-src')).toContain(hash);
    // Every external script, style and icon the page names is same-origin ('self').
    for (const match of html.matchAll(/(?:src|href)="([^"]+)"/g)) expect(match[1]).toMatch(/^\/[^/]/);
  });
});
