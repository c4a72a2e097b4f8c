import { describe, expect, it } from 'vitest';
import { DEFAULT_NEXT, errorTarget, redirectTarget } from '../../src/auth/oidc/redirect-target.js';

const PUBLIC_URL = 'https://plans.example.com';
const FALLBACK = `${PUBLIC_URL}${DEFAULT_NEXT}`;

describe('redirectTarget (where a Google sign-in lands)', () => {
  it('keeps paths and absolute URLs on PUBLIC_URL, with their query', () => {
    expect(redirectTarget('/account/google/login/callback?next=/dashboard/plans', PUBLIC_URL)).toBe(
      `${PUBLIC_URL}/account/google/login/callback?next=/dashboard/plans`,
    );
    expect(redirectTarget(`${PUBLIC_URL}/dashboard#top`, PUBLIC_URL)).toBe(`${PUBLIC_URL}/dashboard#top`);
  });

  it('falls back to the default callback page for anything that could leave the site', () => {
    for (const next of [
      undefined,
      '',
      'https://evil.example/steal',
      'http://plans.example.com/dashboard', // another origin: the scheme differs
      'https://plans.example.com.evil.example/',
      'https://user:pass@plans.example.com/dashboard',
      '//evil.example/x',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      'dashboard',
      `/${'a'.repeat(3000)}`,
    ]) {
      expect(redirectTarget(next, PUBLIC_URL), String(next)).toBe(FALLBACK);
    }
  });

  it('stays under PUBLIC_URL’s path when it has one', () => {
    const base = 'https://example.com/planwright';
    expect(redirectTarget('/planwright/dashboard', base)).toBe('https://example.com/planwright/dashboard');
    expect(redirectTarget('/other-app/dashboard', base)).toBe(`${base}${DEFAULT_NEXT}`);
    expect(redirectTarget('/planwright-evil/x', base)).toBe(`${base}${DEFAULT_NEXT}`);
  });
});

describe('errorTarget', () => {
  it('names the web page and the error code', () => {
    expect(errorTarget('invalid_state', PUBLIC_URL)).toBe(
      `${PUBLIC_URL}/account/google/login/callback?error=invalid_state`,
    );
  });
});
