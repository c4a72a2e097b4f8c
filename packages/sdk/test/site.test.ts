import {
  AuthRequiredError,
  createHttpClient,
  createPlanwrightClient,
  createSiteResource,
  type Health,
  MemoryTokenStore,
  ResponseValidationError,
  type SiteConfig,
  type StripeConfig,
} from '@planwright/sdk';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { reply, useRecordingServer } from './support/recording-server.js';

const server = useRecordingServer();

const stripe = {
  stripe_public_key: 'pk_test_1',
  stripe_pricing_table_id: 'prctbl_1',
  client_reference_id: 'user-7',
};

describe('site.stripeConfig', () => {
  it('GETs /api/v1/website/stripe-config/ with the session token and returns the config', async () => {
    server.handle((_req, res) => reply(res, 200, { ...stripe, unrelated: true }));
    const site = createSiteResource(
      createHttpClient({ baseUrl: server.origin, tokenStore: new MemoryTokenStore({ token: 'tok' }) }),
    );
    const config = await site.stripeConfig();
    expectTypeOf(config).toEqualTypeOf<StripeConfig>();
    expect(config).toEqual(stripe);
    expect(server.last().method).toBe('GET');
    expect(server.last().url).toBe('/api/v1/website/stripe-config/');
    expect(server.last().headers['x-session-token']).toBe('tok');
  });

  it.each([null, undefined])('accepts client_reference_id %s', async (clientReferenceId) => {
    server.handle((_req, res) => reply(res, 200, { ...stripe, client_reference_id: clientReferenceId }));
    const config = await createSiteResource(createHttpClient({ baseUrl: server.origin })).stripeConfig();
    expect(config.client_reference_id ?? null).toBeNull();
  });

  it('rejects a config without the pricing table id', async () => {
    server.handle((_req, res) => reply(res, 200, { stripe_public_key: 'pk' }));
    const call = createSiteResource(createHttpClient({ baseUrl: server.origin })).stripeConfig();
    await expect(call).rejects.toSatisfy(ResponseValidationError.isInstance);
    await expect(call).rejects.toMatchObject({
      issues: [expect.objectContaining({ path: ['stripe_pricing_table_id'] })],
    });
  });

  it('passes the signal through', async () => {
    server.handle(() => {});
    const controller = new AbortController();
    const call = createSiteResource(createHttpClient({ baseUrl: server.origin })).stripeConfig({
      signal: controller.signal,
    });
    await server.nextRequest();
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('site.health', () => {
  it('GETs /api/v1/health without the session token', async () => {
    server.handle((_req, res) => reply(res, 200, { status: 'ok', database: 'pglite', version: '0.1.0' }));
    const site = createSiteResource(
      createHttpClient({ baseUrl: server.origin, tokenStore: new MemoryTokenStore({ token: 'tok' }) }),
    );
    const health = await site.health();
    expectTypeOf(health).toEqualTypeOf<Health>();
    expect(health).toEqual({ status: 'ok', database: 'pglite', version: '0.1.0' });
    expect(server.last().url).toBe('/api/v1/health');
    expect(server.last().headers).not.toHaveProperty('x-session-token');
  });

  it.each([
    { status: 'error', database: 'pglite', version: '1' },
    { status: 'ok', database: 'sqlite', version: '1' },
    { status: 'ok', database: 'postgres' },
  ])('refuses %j', async (body) => {
    server.handle((_req, res) => reply(res, 200, body));
    await expect(createSiteResource(createHttpClient({ baseUrl: server.origin })).health()).rejects.toSatisfy(
      ResponseValidationError.isInstance,
    );
  });

  it('reports a 503 as a retryable ApiError with the server detail', async () => {
    server.handle((_req, res) =>
      reply(res, 503, {
        status: 'error',
        database: 'postgres',
        version: '1',
        detail: 'The database is not answering.',
      }),
    );
    await expect(
      createSiteResource(createHttpClient({ baseUrl: server.origin })).health(),
    ).rejects.toMatchObject({
      status: 503,
      detail: 'The database is not answering.',
      isRetryable: true,
    });
  });
});

describe('createPlanwrightClient', () => {
  it('defaults to an in-memory token store shared by every resource', async () => {
    const client = createPlanwrightClient({ baseUrl: server.origin });
    expect(client.tokenStore).toBeInstanceOf(MemoryTokenStore);
    expect(client.http.baseUrl).toBe(server.origin);
    client.tokenStore.setSession({ token: 'signed-in' });
    server.handle((_req, res) => reply(res, 200, stripe));
    await client.site.stripeConfig();
    await client.http.get('app/me/');
    expect(server.requests.map((r) => r.headers['x-session-token'])).toEqual(['signed-in', 'signed-in']);
  });

  it('uses the given store and hook: a 401 signs out and calls the hook', async () => {
    const tokenStore = new MemoryTokenStore({ token: 'expired' });
    const onAuthRequired = vi.fn();
    const client = createPlanwrightClient({ baseUrl: server.origin, tokenStore, onAuthRequired });
    expect(client.tokenStore).toBe(tokenStore);
    server.handle((_req, res) => reply(res, 401, { detail: 'Session expired' }));
    await expect(client.site.stripeConfig()).rejects.toSatisfy(AuthRequiredError.isInstance);
    expect(tokenStore.getToken()).toBeNull();
    expect(onAuthRequired).toHaveBeenCalledWith({
      status: 401,
      path: '/api/v1/website/stripe-config/',
      method: 'GET',
      url: `${server.origin}/api/v1/website/stripe-config/`,
    });
  });

  it('sends the client headers and uses the given fetch', async () => {
    const seen: string[] = [];
    const client = createPlanwrightClient({
      baseUrl: server.origin,
      headers: { 'X-Planwright-Client': 'cli/0.1.0' },
      fetch: (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      },
    });
    server.handle((_req, res) => reply(res, 200, { status: 'ok', database: 'postgres', version: '2' }));
    await client.site.health();
    expect(seen).toEqual([`${server.origin}/api/v1/health`]);
    expect(server.last().headers['x-planwright-client']).toBe('cli/0.1.0');
  });
});

const siteConfig = {
  company: {
    name: 'Example Ltd',
    email: 'legal@example.com',
    address: '1 Example Street',
    jurisdiction: null,
    configured: true,
  },
  legal: { terms_url: null, privacy_url: 'https://example.com/privacy' },
  pricing: {
    payment_table: false,
    plans: [
      {
        name: 'Starter',
        price: 'Free',
        period: '',
        description: 'First plan',
        features: ['One plan'],
        action: 'signup',
        highlighted: false,
      },
    ],
  },
};

describe('site.config', () => {
  it('GETs /api/v1/website/config/ without the session token and returns the settings', async () => {
    server.handle((_req, res) => reply(res, 200, siteConfig));
    const site = createSiteResource(
      createHttpClient({ baseUrl: server.origin, tokenStore: new MemoryTokenStore({ token: 'tok' }) }),
    );
    const config = await site.config();
    expectTypeOf(config).toEqualTypeOf<SiteConfig>();
    // A server that predates live plans says nothing of them: they are off.
    expect(config).toEqual({ ...siteConfig, live_documents: false });
    expect(server.last().url).toBe('/api/v1/website/config/');
    expect(server.last().headers['x-session-token']).toBeUndefined();
  });

  it('fills the optional fields of a plan with defaults, also an action it does not know', async () => {
    server.handle((_req, res) =>
      reply(res, 200, {
        ...siteConfig,
        pricing: { payment_table: false, plans: [{ name: 'Team', price: 'Contact us', action: 'call-us' }] },
      }),
    );
    const config = await createSiteResource(createHttpClient({ baseUrl: server.origin })).config();
    expect(config.pricing.plans).toEqual([
      {
        name: 'Team',
        price: 'Contact us',
        period: '',
        description: '',
        features: [],
        action: 'signup',
        highlighted: false,
      },
    ]);
  });

  it('reads whether the server co-edits plans live', async () => {
    server.handle((_req, res) => reply(res, 200, { ...siteConfig, live_documents: true }));
    const config = await createSiteResource(createHttpClient({ baseUrl: server.origin })).config();
    expect(config.live_documents).toBe(true);
  });

  it('rejects an answer without the company', async () => {
    server.handle((_req, res) => reply(res, 200, { legal: siteConfig.legal, pricing: siteConfig.pricing }));
    const call = createSiteResource(createHttpClient({ baseUrl: server.origin })).config();
    await expect(call).rejects.toSatisfy(ResponseValidationError.isInstance);
  });
});
