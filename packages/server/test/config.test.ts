import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { configProblems } from './support/config-problems.js';

describe('loadConfig', () => {
  it('has defaults that run out of the box: 127.0.0.1:8787, PGlite in ./data, outbox mail', () => {
    const config = loadConfig({}, '/srv/planwright');
    expect(config.port).toBe(8787);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrl).toBe('http://127.0.0.1:8787');
    expect(config.dataDir).toBe('/srv/planwright/data');
    expect(config.database).toEqual({ kind: 'pglite', dataDir: '/srv/planwright/data/pglite' });
    expect(config.mail).toMatchObject({ smtpUrl: undefined, outboxDir: '/srv/planwright/data/outbox' });
    expect(config.stripe).toBeUndefined();
    expect(config.webDir).toMatch(/packages[\\/]web[\\/]dist[\\/]?$/);
  });

  it('reads PORT, HOST, PLANWRIGHT_DATA_DIR, PUBLIC_URL and DATABASE_URL', () => {
    const config = loadConfig(
      {
        PORT: '9000',
        HOST: '0.0.0.0',
        PLANWRIGHT_DATA_DIR: 'var/pw',
        PUBLIC_URL: 'https://plans.example.com/',
        DATABASE_URL: 'postgres://u:p@db:5432/planwright',
      },
      '/srv',
    );
    expect(config.port).toBe(9000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.dataDir).toBe('/srv/var/pw');
    expect(config.publicUrl).toBe('https://plans.example.com');
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u:p@db:5432/planwright' });
  });

  it('keeps automatic versions 90 days unless VERSION_RETENTION_DAYS says otherwise (docs/versions.md)', () => {
    const day = 24 * 60 * 60 * 1000;
    expect(loadConfig({}).versionRetentionMs).toBe(90 * day);
    expect(loadConfig({ VERSION_RETENTION_DAYS: '7' }).versionRetentionMs).toBe(7 * day);
    for (const bad of ['0', '-1', 'a week', '1.5']) {
      expect(() => loadConfig({ VERSION_RETENTION_DAYS: bad })).toThrow(/VERSION_RETENTION_DAYS/);
    }
  });

  it('caps chat sockets per user at 20 unless CHAT_SOCKETS_PER_USER says otherwise', () => {
    expect(loadConfig({}).chatSocketsPerUser).toBe(20);
    expect(loadConfig({ CHAT_SOCKETS_PER_USER: '5' }).chatSocketsPerUser).toBe(5);
    expect(loadConfig({ CHAT_SOCKETS_PER_USER: '' }).chatSocketsPerUser).toBe(20);
    for (const bad of ['0', '-1', '2.5', 'many', '10001'])
      expect(configProblems({ CHAT_SOCKETS_PER_USER: bad })[0]).toMatch(/^CHAT_SOCKETS_PER_USER: /);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', SMTP_URL: '' }).port).toBe(8787);
  });

  it('names every bad variable, what it must be and what it got', () => {
    const found = configProblems({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      SMTP_URL: 'http://mail',
      LOG_LEVEL: 'loud',
    });
    expect(found).toHaveLength(4);
    expect(found.find((p) => p.startsWith('PORT:'))).toContain('"eighty"');
    expect(found.find((p) => p.startsWith('DATABASE_URL:'))).toContain('postgres://');
    expect(found.find((p) => p.startsWith('SMTP_URL:'))).toContain('smtp://');
    expect(found.find((p) => p.startsWith('LOG_LEVEL:'))).toBeDefined();
  });

  it('serves live plans unless LIVE_DOCUMENTS=off, and refuses another word', () => {
    expect(loadConfig({}).live.enabled).toBe(true);
    expect(loadConfig({ LIVE_DOCUMENTS: ' OFF ' }).live.enabled).toBe(false);
    expect(loadConfig({ LIVE_DOCUMENTS: '' }).live.enabled).toBe(true);
    expect(configProblems({ LIVE_DOCUMENTS: 'yes' })[0]).toMatch(/^LIVE_DOCUMENTS: /);
  });

  it('reads REDIS_URL for live plans on several instances, and refuses one that is not redis(s)://', () => {
    expect(loadConfig({}).live.redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: ' redis://:secret@cache:6379/2 ' }).live.redisUrl).toBe(
      'redis://:secret@cache:6379/2',
    );
    for (const bad of ['http://cache:6379', 'redis://', 'cache:6379', 'redis://[::1'])
      expect(configProblems({ REDIS_URL: bad })[0]).toMatch(/^REDIS_URL: .*redis:\/\//);
  });

  it('refuses ports out of range and a PUBLIC_URL that is not http(s)', () => {
    expect(configProblems({ PORT: '70000' })[0]).toMatch(/^PORT:/);
    expect(configProblems({ PUBLIC_URL: 'javascript:alert(1)' })[0]).toMatch(/^PUBLIC_URL: must be an http/);
  });

  it('reads the conversion heap budget: 256 MB to 1536 MB by default, a maximum never below the base', () => {
    expect(loadConfig({}).conversion).toMatchObject({ memoryMb: 256, maxMemoryMb: 1536 });
    expect(
      loadConfig({ CONVERSION_MEMORY_MB: '512', CONVERSION_MAX_MEMORY_MB: '300' }).conversion,
    ).toMatchObject({ memoryMb: 512, maxMemoryMb: 512 });
    for (const bad of ['16', 'lots', '1.5', '-1'])
      expect(configProblems({ CONVERSION_MEMORY_MB: bad })[0]).toMatch(/^CONVERSION_MEMORY_MB:/);
  });

  it('needs both Stripe variables or neither', () => {
    expect(configProblems({ STRIPE_PUBLIC_KEY: 'pk_test' })[0]).toContain('must be set together');
  });

  it('refuses pricing plans that are not a list of valid plans, and bad legal settings', () => {
    expect(configProblems({ PRICING_PLANS: '[{name:' })[0]).toBe(
      'PRICING_PLANS: must be a JSON array of plans (see docs/deployment.md)',
    );
    expect(configProblems({ PRICING_PLANS: '[]' })[0]).toMatch(
      /^PRICING_PLANS: not a valid list of 1–6 plans/,
    );
    expect(configProblems({ PRICING_PLANS: '[{"name":"A","price":"1","action":"call"}]' })[0]).toMatch(
      /^PRICING_PLANS: not a valid list of 1–6 plans at 0\.action/,
    );
    expect(configProblems({ PRICING_PLANS: '[{"name":"A","price":"1","extra":true}]' })[0]).toMatch(
      /^PRICING_PLANS:/,
    );
    expect(configProblems({ TERMS_URL: 'javascript:alert(1)' })[0]).toMatch(/^TERMS_URL: must be an http/);
    expect(configProblems({ COMPANY_EMAIL: 'not-an-address' })[0]).toMatch(/^COMPANY_EMAIL:/);
    expect(loadConfig({ STRIPE_PUBLIC_KEY: 'pk', STRIPE_PRICING_TABLE_ID: 'prctbl' }).stripe).toEqual({
      publicKey: 'pk',
      pricingTableId: 'prctbl',
    });
  });

  it('puts the whole list in the message, one problem a line', () => {
    try {
      loadConfig({ PORT: '-1', CONTACT_EMAIL: 'not-an-address' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/^Invalid configuration:\n {2}- /);
      expect((error as Error).message.split('\n')).toHaveLength(3);
    }
  });
});
