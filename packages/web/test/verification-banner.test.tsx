import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BANNER_DISMISS_MS } from '../src/account/account-timing';
import { bannerVisible, dismissedRecently, parseDismissedAt } from '../src/account/banner-dismissal';
import { createFakeServer, currentUser, type Handler, json } from './support/fake-server';
import { serveWorkspace } from './support/fake-workspace';
import { ManualClock } from './support/manual-clock';
import { memoryStorage, renderApp } from './support/render-app';

afterEach(cleanup);

const SESSION = { token: 'token-1', email: 'ada@example.com', name: 'Ada Lovelace' };
const NOW = new ManualClock().now();

function server(
  me: Handler | Response = json(currentUser({ has_verified_email: false })),
  resend: Handler | Response = json({ detail: 'ok' }),
) {
  const fake = createFakeServer()
    .on('GET /api/v1/app/me/', me)
    .on('POST /api/v1/users/resend-verification/', resend);
  // The dashboard's own calls (tiles, activity) answer an empty workspace, so only the banner can fail.
  serveWorkspace(fake);
  return fake;
}

function waitForCheck(fake: ReturnType<typeof server>) {
  return vi.waitFor(() => expect(fake.calls('/api/v1/app/me/').length).toBeGreaterThan(0));
}

const banner = () => screen.findByRole('region', { name: 'Email verification' });

describe('verification banner rules (spec 000 §4, §9; SPEC.md B1, B2)', () => {
  it('B1: dismissed less than 24 hours ago, and only in the past', () => {
    expect(dismissedRecently(null, NOW)).toBe(false);
    expect(dismissedRecently(NOW, NOW)).toBe(true);
    expect(dismissedRecently(NOW - BANNER_DISMISS_MS + 1, NOW)).toBe(true);
    expect(dismissedRecently(NOW - BANNER_DISMISS_MS, NOW)).toBe(false);
    expect(dismissedRecently(NOW + 60_000, NOW)).toBe(false);
    expect(BANNER_DISMISS_MS).toBe(24 * 60 * 60 * 1000);
  });

  it('B1: reads only whole milliseconds from storage', () => {
    expect(parseDismissedAt('1768467600000')).toBe(1_768_467_600_000);
    expect(parseDismissedAt(' 42 ')).toBe(42);
    for (const bad of [null, undefined, '', 'yesterday', '-5', '1e12', '12.5', '9'.repeat(20)]) {
      expect(parseDismissedAt(bad), String(bad)).toBeNull();
    }
  });

  it('B2: visible only for an unverified address that was checked', () => {
    expect(bannerVisible({ dismissedAt: null, now: NOW, user: { has_verified_email: false } })).toBe(true);
    expect(bannerVisible({ dismissedAt: null, now: NOW, user: { has_verified_email: true } })).toBe(false);
    expect(bannerVisible({ dismissedAt: null, now: NOW, user: undefined })).toBe(false);
    expect(bannerVisible({ dismissedAt: NOW - 1_000, now: NOW, user: { has_verified_email: false } })).toBe(
      false,
    );
  });
});

describe('verification banner (spec 000 §2, §4 "Verification banner"; SPEC.md B2–B4)', () => {
  it('B2: shows above the content for an unverified address, naming it', async () => {
    renderApp({ path: '/dashboard', server: server(), session: SESSION });
    const region = await banner();
    expect(within(region).getByText('Please verify your email address.')).toBeTruthy();
    expect(
      within(region).getByText(
        'We sent a verification link to ada@example.com. Open it to confirm the address.',
      ),
    ).toBeTruthy();
    const main = screen.getByRole('main');
    expect(region.compareDocumentPosition(main) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('B2: stays away for a verified address', async () => {
    const fake = server(json(currentUser()));
    renderApp({ path: '/dashboard', server: fake, session: SESSION });
    await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' });
    await waitForCheck(fake);
    expect(screen.queryByRole('region', { name: 'Email verification' })).toBeNull();
  });

  it('B2: a failed check is only logged', async () => {
    const fake = server(json({ detail: 'boom' }, 500));
    const app = renderApp({ path: '/dashboard', server: fake, session: SESSION });
    await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' });
    await waitForCheck(fake);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(app.ports.logError).toHaveBeenCalledWith(
      'Failed to check email verification status',
      expect.anything(),
    );
    expect(screen.queryByRole('region', { name: 'Email verification' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('B3: Dismiss hides it and stores the time in milliseconds', async () => {
    const app = renderApp({ path: '/dashboard', server: server(), session: SESSION });
    fireEvent.click(within(await banner()).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Email verification' })).toBeNull();
    expect(app.storage.data.get('emailVerificationBannerDismissed')).toBe(String(app.clock.now()));
  });

  it('B1: after a dismissal less than 24 hours old the check is not made; after 24 hours it is', async () => {
    const fake = server();
    const storage = memoryStorage({
      emailVerificationBannerDismissed: String(NOW - BANNER_DISMISS_MS + 60_000),
    });
    renderApp({ path: '/dashboard', server: fake, session: SESSION, storage });
    await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fake.calls('/api/v1/app/me/')).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Email verification' })).toBeNull();
    cleanup();

    storage.setItem('emailVerificationBannerDismissed', String(NOW - BANNER_DISMISS_MS));
    renderApp({ path: '/dashboard', server: fake, session: SESSION, storage });
    expect(await banner()).toBeTruthy();
    expect(fake.calls('/api/v1/app/me/')).toHaveLength(1);
  });

  it("B4: Resend says 'Sending...', then 'Email sent!' for 5 seconds", async () => {
    let answer: (response: Response) => void = () => {};
    const fake = server(
      undefined,
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    const app = renderApp({ path: '/dashboard', server: fake, session: SESSION });
    const region = await banner();
    fireEvent.click(within(region).getByRole('button', { name: 'Resend' }));
    const sending = within(region).getByRole('button', { name: 'Sending...' });
    expect(sending.hasAttribute('disabled')).toBe(true);
    await vi.waitFor(() =>
      expect(fake.calls('/api/v1/users/resend-verification/')[0]?.body).toEqual({ email: 'ada@example.com' }),
    );

    answer(json({ detail: 'ok' }));
    expect(await within(region).findByText('Email sent!')).toBeTruthy();
    app.advance(4_999);
    expect(within(region).queryByText('Email sent!')).toBeTruthy();
    app.advance(1);
    expect(within(region).queryByText('Email sent!')).toBeNull();
    expect(within(region).getByRole('button', { name: 'Resend' })).toBeTruthy();
  });

  it('B4: a failed resend is only logged', async () => {
    const fake = server(undefined, json({ detail: 'Too many requests.' }, 429));
    const app = renderApp({ path: '/dashboard', server: fake, session: SESSION });
    const region = await banner();
    fireEvent.click(within(region).getByRole('button', { name: 'Resend' }));
    expect(await within(region).findByRole('button', { name: 'Resend' })).toBeTruthy();
    expect(app.ports.logError).toHaveBeenCalledWith('Failed to resend verification email', expect.anything());
    expect(within(region).queryByText('Email sent!')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
