import { describe, expect, it } from 'vitest';
import { identityFromClaims } from '../../src/auth/oidc/provider-identity.js';

const google = {
  iss: 'https://accounts.google.com',
  sub: '110169484474386276334',
  email: 'ada@example.com',
  email_verified: true,
  given_name: 'Ada',
  family_name: 'Lovelace',
  name: 'Ada Lovelace',
  picture: 'https://lh3.googleusercontent.com/a/photo.jpg',
};

describe('identityFromClaims', () => {
  it('takes the subject, the verified address, the names and an https picture', () => {
    expect(identityFromClaims(google)).toEqual({
      ok: true,
      identity: {
        subject: google.sub,
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        avatarUrl: google.picture,
      },
    });
  });

  it('never trusts an address the provider has not verified, or a missing or malformed one', () => {
    for (const claims of [
      { ...google, email_verified: false },
      { ...google, email_verified: 'false' },
      { ...google, email_verified: undefined },
      { ...google, email: undefined },
      { ...google, email: 'not an address' },
    ]) {
      expect(identityFromClaims(claims)).toEqual({ ok: false, reason: 'email_unverified' });
    }
    expect(identityFromClaims({ ...google, email_verified: 'true' }).ok).toBe(true);
  });

  it('refuses claims without a subject', () => {
    expect(identityFromClaims({ ...google, sub: '' })).toEqual({ ok: false, reason: 'invalid_claims' });
  });

  it('cleans names (control characters, length), falls back to `name`, and drops non-https pictures', () => {
    const result = identityFromClaims({
      ...google,
      given_name: ' Ada\u0000 ',
      family_name: 'L'.repeat(400),
      picture: 'http://insecure.example/a.png',
    });
    expect(result.ok && result.identity).toMatchObject({ firstName: 'Ada', avatarUrl: null });
    expect(result.ok && result.identity.lastName).toHaveLength(150);
    const nameOnly = identityFromClaims({ ...google, given_name: undefined, family_name: undefined });
    expect(nameOnly.ok && nameOnly.identity).toMatchObject({ firstName: 'Ada Lovelace', lastName: '' });
  });
});
