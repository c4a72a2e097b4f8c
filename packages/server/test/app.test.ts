import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/v1/health', () => {
  it('answers ok with the database kind and the version', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: 'pglite',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
  });

  it('also answers with a trailing slash', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/health/' })).statusCode).toBe(200);
  });
});

describe('request ids and headers', () => {
  it('gives every answer a request id, keeping a safe one the caller sent', async () => {
    const fresh = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const unsafe = await t.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-request-id': 'a b<script>' },
    });
    expect(unsafe.headers['x-request-id']).not.toBe('a b<script>');
  });

  it('sends the baseline security headers on API answers and pages', async () => {
    for (const url of ['/api/v1/health', '/', '/api/v1/nope']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });
});

describe('the web app', () => {
  it('serves index.html at / without caching it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
  });

  it('falls back to index.html for client routes, with their query strings', async () => {
    for (const url of ['/pricing', '/dashboard/documents/123/edit?section=a&subsection=b', '/no/such/page']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('caches hashed assets for a year and 404s a missing one instead of answering HTML', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await t.app.inject({ method: 'GET', url: '/assets/index-gone.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
  });

  it('never answers the SPA for API paths or non-GET methods', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/no-such-thing'],
      ['GET', '/_allauth/app/v1/nope'],
      ['GET', '/api'],
      ['POST', '/pricing'],
      ['DELETE', '/'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
  });
});

describe('GET /api/v1/website/stripe-config/', () => {
  it('answers 404 with a detail when pricing is not configured', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/website/stripe-config/' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      detail: 'Pricing is not configured on this server.',
      code: 'not_configured',
    });
  });

  it('answers the configured keys', async () => {
    const configured = await createTestApp({
      STRIPE_PUBLIC_KEY: 'pk_test_1',
      STRIPE_PRICING_TABLE_ID: 'prctbl_1',
    });
    try {
      const res = await configured.app.inject({ method: 'GET', url: '/api/v1/website/stripe-config/' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        stripe_public_key: 'pk_test_1',
        stripe_pricing_table_id: 'prctbl_1',
        client_reference_id: null,
      });
    } finally {
      await configured.close();
    }
  });
});

describe('GET /api/v1/website/config/', () => {
  it('answers placeholder company details, the built-in legal pages and the default plans on a fresh install', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/website/config/' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.company).toEqual({
      name: 'the operator of this Planwright server',
      email: 'contact@planwright.localhost',
      address: null,
      jurisdiction: null,
      configured: false,
    });
    expect(body.legal).toEqual({ terms_url: null, privacy_url: null });
    expect(body.pricing.payment_table).toBe(false);
    expect(body.pricing.plans.map((plan: { name: string }) => plan.name)).toEqual([
      'Starter',
      'Professional',
      'Team',
    ]);
    expect(body.pricing.plans.at(-1).action).toBe('contact');
    // Plans are live by default: the web app edits them through the sync socket.
    expect(body.live_documents).toBe(true);
  });

  it("answers the operator's details, legal addresses, plans and live plans switched off from the environment", async () => {
    const configured = await createTestApp({
      COMPANY_NAME: 'Example Planning Ltd',
      COMPANY_EMAIL: 'legal@example.com',
      COMPANY_ADDRESS: '1 Example Street, Example City',
      COMPANY_JURISDICTION: 'England and Wales',
      TERMS_URL: 'https://example.com/terms',
      PRIVACY_URL: 'https://example.com/privacy',
      PRICING_PLANS: JSON.stringify([{ name: 'Everything', price: '€9', period: 'per month' }]),
      STRIPE_PUBLIC_KEY: 'pk_test_1',
      STRIPE_PRICING_TABLE_ID: 'prctbl_1',
      LIVE_DOCUMENTS: 'off',
    });
    try {
      const res = await configured.app.inject({ method: 'GET', url: '/api/v1/website/config/' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        company: {
          name: 'Example Planning Ltd',
          email: 'legal@example.com',
          address: '1 Example Street, Example City',
          jurisdiction: 'England and Wales',
          configured: true,
        },
        legal: { terms_url: 'https://example.com/terms', privacy_url: 'https://example.com/privacy' },
        pricing: {
          payment_table: true,
          plans: [
            {
              name: 'Everything',
              price: '€9',
              period: 'per month',
              description: '',
              features: [],
              action: 'signup',
              highlighted: false,
            },
          ],
        },
        live_documents: false,
      });
    } finally {
      await configured.close();
    }
  });
});

describe('errors', () => {
  it('answers malformed JSON with 400 and a detail, never a stack', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/apps/contact/',
      headers: { 'content-type': 'application/json' },
      payload: '{"first_name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'The body is not valid JSON.', code: 'invalid_json' });
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/apps/contact/',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'x',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('unsupported_media_type');
  });

  it('hides internals of a failure and says only that the database is gone', async () => {
    const broken = await createTestApp();
    await broken.storage.close();
    try {
      const health = await broken.app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toMatchObject({ status: 'error', database: 'pglite', code: 'unavailable' });
      const contact = await broken.app.inject({
        method: 'POST',
        url: '/api/v1/apps/contact/',
        payload: { first_name: 'A', last_name: 'B', email: 'a@example.com', message: 'hi' },
      });
      expect(contact.statusCode).toBeGreaterThanOrEqual(500);
      expect(Object.keys(contact.json()).sort()).toEqual(['code', 'detail']);
      expect(contact.body).not.toMatch(/at .*\.(ts|js):\d+/);
    } finally {
      await broken.close();
    }
  });
});
