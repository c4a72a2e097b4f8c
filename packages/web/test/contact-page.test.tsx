import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { validateContactForm } from '../src/contact/contact-form-model';
import { ContactPage } from '../src/pages/contact-page';
import { jsonResponse, renderPage } from './render-page';

afterEach(cleanup);

const SUCCESS = 'Thank you for your message! We will get back to you soon.';
const FAILURE = 'An error occurred while submitting the form';

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function fillValidForm() {
  fill('First name', 'Ada');
  fill('Last name', 'Lovelace');
  fill('Email', 'ada@example.com');
  fill('Message', 'Hello there');
}

const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send message' }));

describe('contact form validation (spec 000 §5)', () => {
  it('requires first name, last name, email and message; phone is optional', () => {
    const result = validateContactForm({ first_name: ' ', last_name: '', email: '', phone: '', message: '' });
    expect(result).toEqual({
      ok: false,
      errors: {
        first_name: 'First name is required',
        last_name: 'Last name is required',
        email: 'Email is required',
        message: 'Message is required',
      },
    });
  });

  it('rejects an email that is not an address', () => {
    const result = validateContactForm({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada-at-example',
      phone: '',
      message: 'Hi',
    });
    expect(result).toEqual({ ok: false, errors: { email: 'Please enter a valid email address' } });
  });

  it('accepts a complete message and trims it', () => {
    const result = validateContactForm({
      first_name: ' Ada ',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      phone: '',
      message: ' Hi ',
    });
    expect(result).toEqual({
      ok: true,
      message: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        phone: '',
        message: 'Hi',
      },
    });
  });
});

describe('ContactPage', () => {
  it('shows field errors next to the inputs and sends nothing while the form is invalid', async () => {
    const { fetch } = renderPage(<ContactPage />, () => jsonResponse({}));
    fill('Email', 'not-an-address');
    send();
    expect(await screen.findByText('First name is required')).toBeTruthy();
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    const firstName = screen.getByLabelText('First name');
    expect(firstName.getAttribute('aria-invalid')).toBe('true');
    expect(firstName.getAttribute('aria-describedby')).toBe(screen.getByText('First name is required').id);
    expect(screen.getByLabelText('Phone (optional)').getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(firstName);
    expect(fetch).not.toHaveBeenCalled();

    fill('First name', 'Ada');
    expect(screen.queryByText('First name is required')).toBeNull();
  });

  it('posts the message to apps/contact/ without a session token, then thanks the user and clears the form', async () => {
    const { fetch } = renderPage(<ContactPage />, () => jsonResponse({ detail: 'ok' }, { status: 201 }));
    fillValidForm();
    fill('Phone (optional)', '+1 555 0100');
    send();

    expect(await screen.findByText(SUCCESS)).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(String(url)).toBe('http://planwright.test/api/v1/apps/contact/');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).has('x-session-token')).toBe(false);
    expect(JSON.parse(String(init?.body))).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      phone: '+1 555 0100',
      message: 'Hello there',
    });
    for (const label of ['First name', 'Last name', 'Email', 'Phone (optional)', 'Message']) {
      expect((screen.getByLabelText(label) as HTMLInputElement).value).toBe('');
    }
  });

  it('says the submission failed when the server refuses it, and keeps what was typed', async () => {
    renderPage(<ContactPage />, () => jsonResponse({ detail: 'boom' }, { status: 500 }));
    fillValidForm();
    send();
    expect(await screen.findByText(FAILURE)).toBeTruthy();
    expect(screen.queryByText(SUCCESS)).toBeNull();
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Ada');
  });

  it('says the submission failed when the server cannot be reached', async () => {
    renderPage(<ContactPage />, () => Promise.reject(new TypeError('Failed to fetch')));
    fillValidForm();
    send();
    expect(await screen.findByText(FAILURE)).toBeTruthy();
  });

  it('clears an earlier failure when the next try succeeds', async () => {
    let fail = true;
    renderPage(<ContactPage />, () =>
      fail ? jsonResponse({}, { status: 503 }) : jsonResponse({}, { status: 201 }),
    );
    fillValidForm();
    send();
    await screen.findByText(FAILURE);
    fail = false;
    send();
    await screen.findByText(SUCCESS);
    expect(screen.queryByText(FAILURE)).toBeNull();
  });

  it('offers the Support and Sales cards, whose buttons do nothing yet', () => {
    renderPage(<ContactPage />, () => jsonResponse({}));
    expect(screen.getByRole('heading', { name: 'Support' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Sales' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Visit Help Center' }).getAttribute('type')).toBe('button');
    expect(screen.getByRole('button', { name: 'Schedule a Demo' }).getAttribute('type')).toBe('button');
  });
});
