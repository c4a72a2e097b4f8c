import { describe, expect, it } from 'vitest';
import { GOOGLE_ISSUER, loadConfig } from '../../src/config/config.js';
import { configProblems } from '../support/config-problems.js';

describe('OpenID Connect configuration', () => {
  it('is off by default', () => {
    expect(loadConfig({}, '/srv').oidc).toBeUndefined();
  });

  it('talks to Google when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set', () => {
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' }, '/srv').oidc).toEqual({
      id: 'google',
      name: 'Google',
      issuer: GOOGLE_ISSUER,
      clientId: 'id',
      clientSecret: 'secret',
    });
    expect(GOOGLE_ISSUER).toBe('https://accounts.google.com');
  });

  it('talks to OIDC_ISSUER (Google when unset) with OIDC_CLIENT_ID and OIDC_CLIENT_SECRET', () => {
    const env = { OIDC_CLIENT_ID: 'id', OIDC_CLIENT_SECRET: 'secret' };
    expect(loadConfig(env, '/srv').oidc?.issuer).toBe(GOOGLE_ISSUER);
    expect(
      loadConfig({ ...env, OIDC_ISSUER: 'https://login.example.com/realms/x' }, '/srv').oidc,
    ).toMatchObject({ issuer: 'https://login.example.com/realms/x', clientId: 'id' });
    expect(loadConfig({ ...env, OIDC_ISSUER: 'http://127.0.0.1:9999' }, '/srv').oidc?.issuer).toBe(
      'http://127.0.0.1:9999',
    );
  });

  it('names every inconsistent variable', () => {
    expect(configProblems({ GOOGLE_CLIENT_ID: 'id' })).toEqual([
      'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together',
    ]);
    expect(configProblems({ OIDC_CLIENT_SECRET: 's' })).toEqual([
      'OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together',
    ]);
    expect(configProblems({ OIDC_ISSUER: 'https://login.example.com' })).toEqual([
      'OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET',
    ]);
    expect(
      configProblems({
        OIDC_CLIENT_ID: 'a',
        OIDC_CLIENT_SECRET: 'b',
        GOOGLE_CLIENT_ID: 'c',
        GOOGLE_CLIENT_SECRET: 'd',
      }),
    ).toEqual(['set OIDC_CLIENT_ID/OIDC_CLIENT_SECRET or GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET, not both']);
  });

  it('refuses a plain-http issuer other than this machine', () => {
    expect(
      configProblems({
        OIDC_ISSUER: 'http://login.example.com',
        OIDC_CLIENT_ID: 'a',
        OIDC_CLIENT_SECRET: 'b',
      }),
    ).toEqual([
      'OIDC_ISSUER: must be an https:// URL (http:// only for localhost) (got "http://login.example.com")',
    ]);
  });
});
