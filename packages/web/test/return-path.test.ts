import { describe, expect, it } from 'vitest';
import {
  providerCallbackPath,
  returnPathFrom,
  safeReturnPath,
  signInPathFor,
} from '../src/account/return-path';

describe('the remembered location (SPEC.md N1–N3)', () => {
  it('N1: the sign-in path carries where the visitor was going, query and hash included', () => {
    expect(signInPathFor({ pathname: '/dashboard/profile' })).toBe(
      '/account/signin?next=%2Fdashboard%2Fprofile',
    );
    expect(signInPathFor({ pathname: '/dashboard/documents', search: '?page=2', hash: '#top' })).toBe(
      '/account/signin?next=%2Fdashboard%2Fdocuments%3Fpage%3D2%23top',
    );
    expect(signInPathFor({ pathname: '/account/signout' })).toBe('/account/signin');
  });

  it('N2: follows paths of this app and nothing else', () => {
    expect(safeReturnPath('/dashboard/profile')).toBe('/dashboard/profile');
    expect(safeReturnPath('/dashboard/documents?page=2#top')).toBe('/dashboard/documents?page=2#top');
    for (const hostile of [
      null,
      '',
      'dashboard',
      'https://evil.example/dashboard',
      '//evil.example/dashboard',
      '/\\evil.example',
      '/\u0000',
      'javascript:alert(1)',
      '/account/signout',
      '/account/signin?next=/dashboard',
      '/account',
    ]) {
      expect(safeReturnPath(hostile), String(hostile)).toBe('/dashboard');
    }
    expect(safeReturnPath('/x/../account/signout')).toBe('/dashboard');
    // Encoded characters stay encoded: a path, never a header.
    expect(safeReturnPath('/dashboard/%0d%0aSet-Cookie:x')).toBe('/dashboard/%0d%0aSet-Cookie:x');
    expect(returnPathFrom('?next=%2Fdashboard%2Fprofile')).toBe('/dashboard/profile');
    expect(returnPathFrom('?next=https%3A%2F%2Fevil.example')).toBe('/dashboard');
    expect(returnPathFrom('')).toBe('/dashboard');
  });

  it('N3: the provider callback carries the remembered location', () => {
    expect(providerCallbackPath('/dashboard/profile')).toBe(
      '/account/google/login/callback?next=%2Fdashboard%2Fprofile',
    );
    expect(providerCallbackPath('//evil.example')).toBe('/account/google/login/callback?next=%2Fdashboard');
  });
});
