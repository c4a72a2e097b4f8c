import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe.js';
import { ALLAUTH_PROTOCOL_ANSWERS, useBrowserHarness } from '../support/browser.js';
import { signIn, TEST_PASSWORD } from '../support/browser-accounts.js';
import { signedInEditorUser } from '../support/editor-page.js';

/**
 * Profile › Security in Chromium against the real server (docs/auth.md "Sessions, password and tokens"): the
 * devices signed in, one ended from the list; a password change signs the other browser out; a personal access
 * token made, used by a script and revoked.
 */
const harness = useBrowserHarness();

/** A signed-out browser's own answers: its dead session (410) and the API's 401 before it goes to sign-in. */
const SIGNED_OUT = [
  ALLAUTH_PROTOCOL_ANSWERS,
  { text: /status of 410/, url: /\/_allauth\/browser\/v1\/auth\/session/ },
  { text: /status of 401/, url: /\/api\/v1\// },
];
const NEW_PASSWORD = 'amber-orchard-compass-77';

describe('account security in Chromium against the real server', () => {
  it('SECB1 end a session from the list, change the password (the other browser is signed out), make and revoke a token', async () => {
    const email = 'security-owner@example.com';
    const laptop = await signedInEditorUser(harness, email);
    const phone = await harness.openPage({ viewport: { width: 390, height: 844 } }, { expected: SIGNED_OUT });
    await phone.goto(`${harness.server.url}/account/signin`);
    await signIn(phone, email);
    await phone.waitForURL(`${harness.server.url}/dashboard`);
    // A script signed in with the app client.
    const login = await fetch(`${harness.server.url}/_allauth/app/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'nightly-script/1.0' },
      body: JSON.stringify({ email, password: TEST_PASSWORD }),
    });
    const scriptToken = ((await login.json()) as { meta: { session_token: string } }).meta.session_token;
    const api = (token: string) =>
      fetch(`${harness.server.url}/api/v1/documents/`, { headers: { 'x-session-token': token } });
    expect((await api(scriptToken)).status).toBe(200);

    const page = laptop.page;
    await page.goto(`${harness.server.url}/dashboard/profile`);
    const security = page.getByRole('region', { name: 'Security', exact: true });
    const sessions = security.getByRole('region', { name: 'Where you are signed in' });
    await sessions.getByText('This device').waitFor();
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(3);
    expect(await seriousViolations(page)).toEqual([]);

    await sessions.getByRole('button', { name: 'Sign out nightly-script' }).click();
    await sessions.getByText('nightly-script is signed out.').waitFor();
    expect((await api(scriptToken)).status).toBe(401);
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);

    const password = security.getByRole('region', { name: 'Password' });
    await password.getByLabel('Current password').fill(TEST_PASSWORD);
    await password.getByLabel('New password').fill(NEW_PASSWORD);
    await password.getByRole('button', { name: 'Change password' }).click();
    await security.getByText('Password changed. Every other device was signed out.').waitFor();
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
    // The phone's next visit finds its session gone and asks it to sign in.
    await phone.reload();
    await phone.waitForURL(/\/account\/signin/);

    const tokens = security.getByRole('region', { name: 'Personal access tokens' });
    await tokens.getByLabel('Name').fill('Nightly export');
    await tokens.getByLabel('Read-only').check();
    await tokens.getByRole('button', { name: 'Create token' }).click();
    const shown = tokens.getByRole('textbox', { name: 'Your new token' });
    await shown.waitFor();
    const token = await shown.inputValue();
    expect(token).toMatch(/^pwt_/);
    expect((await api(token)).status).toBe(200);
    await tokens.getByText(/^read-only · expires/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await tokens.getByRole('button', { name: 'Revoke Nightly export' }).click();
    await tokens.getByText('Nightly export is revoked: it stops working at once.').waitFor();
    expect((await api(token)).status).toBe(401);
    await tokens.getByText('No tokens yet.').waitFor();
  });

  it('SECB2 set up two-factor from the QR secret, then sign in with password and code, and with a recovery code', async () => {
    const email = 'two-factor@example.com';
    const owner = await signedInEditorUser(harness, email);
    const page = owner.page;
    await page.goto(`${harness.server.url}/dashboard/profile`);
    const twoFactor = page.getByRole('region', { name: 'Two-factor authentication' });
    await twoFactor.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await twoFactor
      .getByRole('img', { name: 'QR code to add Planwright to your authenticator app' })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const secret = (await twoFactor.locator('code').textContent()) ?? '';
    const app = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
    await twoFactor.getByLabel('Code from the app').fill(app.generate());
    await twoFactor.getByRole('button', { name: 'Turn on' }).click();
    const codes = twoFactor.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    const recovery = (await codes.first().textContent()) ?? '';
    await twoFactor
      .getByText('Two-factor authentication is on: signing in asks for a code from your app.')
      .waitFor();

    // Another browser: the password, then a code (of the next 30 seconds: this one was spent turning it on).
    const laptop = await harness.openPage({}, { expected: SIGNED_OUT });
    await laptop.goto(`${harness.server.url}/account/signin`);
    await signIn(laptop, email);
    await laptop.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await laptop.getByLabel('Code').fill(app.generate({ timestamp: Date.now() + 30_000 }));
    await laptop.getByRole('button', { name: 'Verify' }).click();
    await laptop.waitForURL(`${harness.server.url}/dashboard`);

    // A third: a recovery code instead; the same code again is refused.
    for (const expected of ['signed in', 'refused'] as const) {
      const phone = await harness.openPage(
        { viewport: { width: 390, height: 844 } },
        { expected: SIGNED_OUT },
      );
      await phone.goto(`${harness.server.url}/account/signin`);
      await signIn(phone, email);
      await phone.getByLabel('Code').fill(recovery);
      await phone.getByRole('button', { name: 'Verify' }).click();
      if (expected === 'signed in') await phone.waitForURL(`${harness.server.url}/dashboard`);
      else await phone.getByText('Incorrect code. Check the code in your app and try again.').waitFor();
    }
  });
});
