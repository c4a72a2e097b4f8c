import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { OidcClient, type OidcLogger } from '../../src/auth/oidc/oidc-client.js';
import { SocialSignInError } from '../../src/auth/oidc/sign-in-errors.js';

const ISSUER = 'https://login.example.com';
const provider = {
  id: 'google',
  name: 'Google',
  issuer: ISSUER,
  clientId: 'client',
  clientSecret: 'secret',
} as const;
const checks = { state: 's'.repeat(43), nonce: 'n'.repeat(43), codeVerifier: 'v'.repeat(43) };

function recordingLog() {
  const lines: Array<{ level: string; object: object; message: string }> = [];
  const log: OidcLogger = {
    info: (object, message) => lines.push({ level: 'info', object, message }),
    warn: (object, message) => lines.push({ level: 'warn', object, message }),
    error: (object, message) => lines.push({ level: 'error', object, message }),
  };
  return { log, lines };
}

const discoveryDocument = {
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/authorize`,
  token_endpoint: `${ISSUER}/token`,
  jwks_uri: `${ISSUER}/jwks`,
  userinfo_endpoint: `${ISSUER}/userinfo`,
  response_types_supported: ['code'],
  code_challenge_methods_supported: ['S256'],
};

function refused(): never {
  const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' });
  throw new TypeError('fetch failed', { cause });
}

describe('OidcClient', () => {
  it('discovers the provider on first use only, and builds a PKCE authorization URL', async () => {
    const requested: string[] = [];
    const { log } = recordingLog();
    const client = new OidcClient({
      provider,
      redirectUri: 'https://plans.example.com/accounts/google/login/callback/',
      log,
      fetch: async (url) => {
        requested.push(url);
        return Response.json(discoveryDocument);
      },
    });
    expect(requested).toEqual([]); // lazy: nothing at construction

    const url = await client.authorizationUrl(checks);
    await client.authorizationUrl(checks);
    expect(requested).toEqual([`${ISSUER}/.well-known/openid-configuration`]);
    expect(`${url.origin}${url.pathname}`).toBe(`${ISSUER}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'client',
      response_type: 'code',
      redirect_uri: 'https://plans.example.com/accounts/google/login/callback/',
      scope: 'openid email profile',
      state: checks.state,
      nonce: checks.nonce,
      // RFC 7636's S256 of the verifier, never the verifier itself.
      code_challenge: createHash('sha256').update(checks.codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
  });

  it('logs an unreachable issuer clearly, answers provider_unavailable, and tries again next time', async () => {
    const { log, lines } = recordingLog();
    let up = false;
    let calls = 0;
    const client = new OidcClient({
      provider,
      redirectUri: 'https://plans.example.com/accounts/google/login/callback/',
      log,
      fetch: async () => {
        calls++;
        if (!up) refused();
        return Response.json(discoveryDocument);
      },
    });
    const failure = await client.authorizationUrl(checks).catch((error: unknown) => error);
    expect(SocialSignInError.isInstance(failure) && failure.code).toBe('provider_unavailable');
    expect(lines).toContainEqual({
      level: 'error',
      object: {
        issuer: ISSUER,
        failure: expect.objectContaining({
          message: 'fetch failed',
          cause: 'connect ECONNREFUSED 127.0.0.1:443',
        }),
      },
      message: expect.stringContaining(`OpenID Connect discovery failed for ${ISSUER}`),
    });

    up = true;
    await expect(client.authorizationUrl(checks)).resolves.toBeInstanceOf(URL);
    expect(calls).toBe(2);
  });

  it('answers provider_unavailable for a discovery document that is not one (wrong issuer)', async () => {
    const { log } = recordingLog();
    const client = new OidcClient({
      provider,
      redirectUri: 'https://plans.example.com/accounts/google/login/callback/',
      log,
      fetch: async () => Response.json({ ...discoveryDocument, issuer: 'https://impostor.example.com' }),
    });
    const failure = await client.authorizationUrl(checks).catch((error: unknown) => error);
    expect(SocialSignInError.isInstance(failure) && failure.code).toBe('provider_unavailable');
  });
});
