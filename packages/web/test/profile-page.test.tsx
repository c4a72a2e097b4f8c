import { ApiError, NetworkError } from '@planwright/sdk';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { profileSaveErrorMessage, profileUpdateFrom } from '../src/account/profile-form';
import { allauth, createFakeServer, currentUser, type Handler, json } from './support/fake-server';
import { renderApp } from './support/render-app';

afterEach(cleanup);

const SESSION = { token: 'token-1', email: 'ada@example.com', name: 'Ada Lovelace' };

/** What the server answers a PATCH: the saved profile, its display name made from the new names. */
function saved(body: unknown, extra: Record<string, unknown> = {}) {
  const fields = body as { first_name: string; last_name: string };
  return currentUser({
    ...fields,
    get_display_name: `${fields.first_name} ${fields.last_name}`.trim(),
    ...extra,
  });
}

/** The account's addresses as `GET account/email` lists them: the primary first. */
const ADDRESSES = [
  { email: 'ada@example.com', primary: true, verified: true },
  { email: 'ada@lovelace.org', primary: false, verified: true },
  { email: 'ada@work.example', primary: false, verified: false },
];

/** `POST account/email`: the list with the new address, unverified (whether or not another account has it). */
const addEmail: Handler = (request) =>
  json({
    status: 200,
    data: [
      ...ADDRESSES,
      { email: (request.body as { email: string }).email, primary: false, verified: false },
    ],
  });

function server(
  patch: Handler | Response = (request) =>
    json({ user: saved(request.body), email_verification_sent: false }),
  postEmail: Handler = addEmail,
) {
  return createFakeServer()
    .on('GET /api/v1/app/me/', json(currentUser({ language: 'en', timezone: 'Europe/London' })))
    .on('PATCH /api/v1/app/me/', patch)
    .on('GET /_allauth/app/v1/auth/session', () => allauth.authenticated(undefined))
    .on('GET /_allauth/app/v1/auth/sessions', () =>
      json({
        status: 200,
        data: [
          {
            id: 1,
            client: 'app',
            user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0',
            ip: '203.0.113.7',
            created_at: 1_768_467_600,
            last_seen_at: 1_768_467_600,
            is_current: true,
          },
        ],
      }),
    )
    .on('GET /_allauth/app/v1/account/tokens', () => json({ status: 200, data: [] }))
    .on('GET /_allauth/app/v1/account/email', () => json({ status: 200, data: ADDRESSES }))
    .on('POST /_allauth/app/v1/account/email', postEmail)
    .on('GET /_allauth/app/v1/account/authenticators/totp', () =>
      json(
        {
          status: 404,
          meta: {
            secret: 'JBSWY3DPEHPK3PXP',
            totp_url: 'otpauth://totp/Planwright:ada?secret=JBSWY3DPEHPK3PXP',
          },
        },
        404,
      ),
    );
}

async function arrive(fake = server()) {
  const app = renderApp({ path: '/dashboard/profile', server: fake, session: SESSION });
  await screen.findByLabelText('First name');
  return app;
}

const field = (label: string) => screen.getByLabelText(label, { exact: true }) as HTMLInputElement;
const change = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const cancel = () => screen.getByRole('button', { name: 'Cancel' });
const save = () => screen.getByRole('button', { name: 'Save changes' });

describe('profile page (spec 000 §2 "Profile page", §7, §8; SPEC.md M1–M3)', () => {
  it('shows the initials, first name, last name, email, language and time zone', async () => {
    await arrive();
    const main = within(screen.getByRole('main'));
    expect(main.getByText('AL')).toBeTruthy();
    expect(field('First name').value).toBe('Ada');
    expect(field('Last name').value).toBe('Lovelace');
    expect(field('Email').value).toBe('ada@example.com');
    expect(field('Language').value).toBe('en');
    expect(field('Time zone').value).toBe('Europe/London');
    expect(within(field('Time zone')).getByRole('option', { name: 'Not set' })).toBeTruthy();
    expect(document.title).toBe('Profile · Planwright');
  });

  it('Security: the password, this device among the sessions, and no tokens yet', async () => {
    await arrive();
    const security = within(await screen.findByRole('region', { name: 'Security' }));
    expect(await security.findByText('Firefox on Linux')).toBeTruthy();
    expect(security.getByText('This device')).toBeTruthy();
    expect(security.getByText('You are signed in on this device only.')).toBeTruthy();
    expect(await security.findByText('No tokens yet.')).toBeTruthy();
    expect(security.getByLabelText('Current password')).toBeTruthy();
    expect(await security.findByRole('button', { name: 'Set up two-factor authentication' })).toBeTruthy();
  });

  it('Security › E-mail addresses: the list with its badges and buttons; adding one says a link was sent', async () => {
    const fake = server();
    await arrive(fake);
    const emails = within(await screen.findByRole('region', { name: 'E-mail addresses' }));
    const rows = (await emails.findAllByRole('listitem')).map((row) => within(row));
    expect(rows.map((row) => row.getByText(/@/).textContent)).toEqual([
      'ada@example.com',
      'ada@lovelace.org',
      'ada@work.example',
    ]);
    const [primary, verified, unverified] = rows;
    expect(primary?.getByText('Primary')).toBeTruthy();
    expect(primary?.getByText('Verified')).toBeTruthy();
    expect(primary?.queryAllByRole('button')).toEqual([]);
    expect(verified?.getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual([
      'Make ada@lovelace.org primary',
      'Remove ada@lovelace.org',
    ]);
    expect(unverified?.getByText('Unverified')).toBeTruthy();
    expect(unverified?.getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual([
      'Resend the link to ada@work.example',
      'Remove ada@work.example',
    ]);

    fireEvent.change(emails.getByLabelText('Add an e-mail address'), {
      target: { value: ' ada@new.example ' },
    });
    fireEvent.click(emails.getByRole('button', { name: 'Add' }));
    expect(
      await emails.findByText('We sent a link to ada@new.example. Open it to confirm the address.'),
    ).toBeTruthy();
    expect(fake.calls('/_allauth/app/v1/account/email', 'POST')[0]?.body).toEqual({
      email: 'ada@new.example',
    });
    expect(emails.getByText('ada@new.example')).toBeTruthy();
    expect((emails.getByLabelText('Add an e-mail address') as HTMLInputElement).value).toBe('');
  });

  it('Security › E-mail addresses: an old sign-in asks for the password, then adds the address', async () => {
    let signedInAt = 'long ago';
    const fake = server(undefined, (request) =>
      signedInAt === 'now'
        ? addEmail(request)
        : json(
            {
              status: 401,
              data: {
                user: allauth.user(),
                methods: [{ method: 'password', at: 1_768_467_600, email: 'ada@example.com' }],
                flows: [{ id: 'reauthenticate' }],
              },
              meta: { is_authenticated: true },
            },
            401,
          ),
    ).on('POST /_allauth/app/v1/auth/reauthenticate', () => {
      signedInAt = 'now';
      return allauth.authenticated(undefined);
    });
    await arrive(fake);
    const emails = within(await screen.findByRole('region', { name: 'E-mail addresses' }));
    fireEvent.change(emails.getByLabelText('Add an e-mail address'), {
      target: { value: 'ada@new.example' },
    });
    fireEvent.click(emails.getByRole('button', { name: 'Add' }));
    fireEvent.change(await emails.findByLabelText('Password'), { target: { value: 'correct horse' } });
    fireEvent.click(emails.getByRole('button', { name: 'Confirm' }));
    expect(
      await emails.findByText('We sent a link to ada@new.example. Open it to confirm the address.'),
    ).toBeTruthy();
    expect(fake.calls('/_allauth/app/v1/auth/reauthenticate', 'POST')[0]?.body).toEqual({
      password: 'correct horse',
    });
    expect(fake.calls('/_allauth/app/v1/account/email', 'POST')).toHaveLength(2);
    expect(emails.queryByLabelText('Password')).toBeNull();
  });

  it('shows the picture when the account has one', async () => {
    const fake = createFakeServer().on(
      'GET /api/v1/app/me/',
      json(currentUser({ avatar_url: 'https://img.example/ada.png' })),
    );
    renderApp({ path: '/dashboard/profile', server: fake, session: SESSION });
    await screen.findByLabelText('First name');
    const images = screen.getByRole('main').querySelectorAll('img');
    expect([...images].map((image) => image.getAttribute('src'))).toEqual(['https://img.example/ada.png']);
  });

  it('M2: Cancel and Save changes wait for a change; Cancel puts the saved values back', async () => {
    await arrive();
    expect(cancel().hasAttribute('disabled')).toBe(true);
    expect(save().hasAttribute('disabled')).toBe(true);
    change('First name', 'Augusta');
    expect(cancel().hasAttribute('disabled')).toBe(false);
    fireEvent.click(cancel());
    expect(field('First name').value).toBe('Ada');
    expect(save().hasAttribute('disabled')).toBe(true);
  });

  it('M1: saves with PATCH app/me/, trimmed, "not set" as null; the stored name and e-mail follow', async () => {
    const fake = server();
    const app = await arrive(fake);
    change('First name', '  Grace ');
    change('Last name', 'Hopper');
    change('Language', '');
    change('Time zone', 'America/New_York');
    fireEvent.click(save());
    expect(await screen.findByText('Your profile has been saved.')).toBeTruthy();
    expect(fake.calls('/api/v1/app/me/', 'PATCH')[0]?.body).toEqual({
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'ada@example.com',
      language: null,
      timezone: 'America/New_York',
    });
    expect(app.storage.data.get('userName')).toBe('Grace Hopper');
    expect(app.storage.data.get('userEmail')).toBe('ada@example.com');
    expect(
      screen.getByRole('button', { name: 'Account menu: Grace Hopper' }).querySelector('[aria-hidden="true"]')
        ?.textContent,
    ).toBe('GH');
    expect(field('First name').value).toBe('Grace');
    expect(save().hasAttribute('disabled')).toBe(true);
  });

  it('M1: a changed address says a link was sent to it; the account keeps its verified address meanwhile', async () => {
    // The server keeps the current address (verified) until the new one's link is opened (docs/auth.md).
    const fake = server((request) =>
      json({
        user: saved({ ...(request.body as object), email: 'ada@example.com' }),
        email_verification_sent: true,
      }),
    );
    const app = await arrive(fake);
    change('Email', 'ada@lovelace.org');
    fireEvent.click(save());
    expect(
      await screen.findByText(
        'We sent a verification link to ada@lovelace.org. Open it to confirm your new address.',
      ),
    ).toBeTruthy();
    expect(field('Email').value).toBe('ada@example.com');
    expect(screen.queryByRole('region', { name: 'Email verification' })).toBeNull();
    expect(app.storage.data.get('userEmail')).toBe('ada@example.com');
  });

  it("M3: a refused save shows 'Error saving profile: {message}' with the server's words", async () => {
    let answer: Handler = () =>
      json(
        {
          detail: 'Invalid input: email',
          code: 'invalid',
          errors: [{ param: 'email', code: 'invalid', message: 'Enter a valid email address.' }],
        },
        400,
      );
    await arrive(server((request) => answer(request)));
    change('Email', 'not-an-address');
    fireEvent.click(save());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Error saving profile: Enter a valid email address.');
    expect(field('Email').value).toBe('not-an-address');

    answer = () => json({ detail: 'The server had a problem.' }, 500);
    fireEvent.click(save());
    await vi.waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Error saving profile: The server had a problem.'),
    );
  });

  it('M3: the message comes from the field errors, the detail, or the error itself', () => {
    const withFields = new ApiError({
      status: 400,
      data: {
        detail: 'Invalid input',
        errors: [
          { message: 'First name must not start or end with spaces' },
          { message: 'Use a language tag such as en or pt-BR.' },
        ],
      },
      text: '{}',
    });
    expect(profileSaveErrorMessage(withFields)).toBe(
      'Error saving profile: First name must not start or end with spaces. Use a language tag such as en or pt-BR.',
    );
    expect(profileSaveErrorMessage(new ApiError({ status: 502, text: '' }))).toBe(
      'Error saving profile: Request failed with 502',
    );
    expect(profileSaveErrorMessage(new NetworkError({ cause: new TypeError('offline') }))).toMatch(
      /^Error saving profile: \S/,
    );
    expect(
      profileUpdateFrom({
        first_name: ' A ',
        last_name: 'B',
        email: ' a@b.c ',
        language: 'de',
        timezone: '',
      }),
    ).toEqual({
      first_name: 'A',
      last_name: 'B',
      email: 'a@b.c',
      language: 'de',
      timezone: null,
    });
  });

  it('keeps a stored language or time zone that is not in the lists', async () => {
    const fake = createFakeServer().on(
      'GET /api/v1/app/me/',
      json(currentUser({ language: 'gsw-CH', timezone: 'Mars/Olympus' })),
    );
    renderApp({ path: '/dashboard/profile', server: fake, session: SESSION });
    await screen.findByLabelText('First name');
    expect(field('Language').value).toBe('gsw-CH');
    expect(field('Time zone').value).toBe('Mars/Olympus');
  });
});
