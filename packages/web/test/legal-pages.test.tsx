import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PrivacyPage, TermsPage } from '../src/pages/legal-pages';
import { jsonResponse, renderPage } from './render-page';

afterEach(cleanup);

const site = (overrides: { company?: object; legal?: object } = {}) => ({
  company: {
    name: 'Example Planning Ltd',
    email: 'legal@example.com',
    address: '1 Example Street\nExample City',
    jurisdiction: 'England and Wales',
    configured: true,
    ...overrides.company,
  },
  legal: { terms_url: null, privacy_url: null, ...overrides.legal },
  pricing: { payment_table: false, plans: [] },
});

describe('legal pages', () => {
  it("shows the terms with the operator's details, law and contact from the server", async () => {
    renderPage(<TermsPage />, () => jsonResponse(site()));
    expect(screen.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeTruthy();
    await screen.findByText(/provided by Example Planning Ltd/);
    expect(screen.getByText(/governed by the laws of England and Wales/)).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'legal@example.com' })[0]?.getAttribute('href')).toBe(
      'mailto:legal@example.com',
    );
    expect(screen.getByText(/1 Example Street/)).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says the details are placeholders while the operator has not configured them', async () => {
    renderPage(<PrivacyPage />, () =>
      jsonResponse(
        site({
          company: {
            name: 'the operator of this Planwright server',
            address: null,
            jurisdiction: null,
            configured: false,
          },
        }),
      ),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeTruthy();
    expect((await screen.findByRole('status')).textContent).toContain(
      'has not entered its company details yet',
    );
    expect(
      screen.getByText(/controller of that data is the operator of this Planwright server/),
    ).toBeTruthy();
  });

  it('keeps the text readable when the settings cannot be loaded', async () => {
    renderPage(<TermsPage />, () => Promise.reject(new TypeError('Failed to fetch')));
    await vi.waitFor(() =>
      expect(
        screen.getByText(/governed by the laws of the country where the operator is established/),
      ).toBeTruthy(),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('links to the terms elsewhere when the server names TERMS_URL', async () => {
    renderPage(<TermsPage />, () =>
      jsonResponse(site({ legal: { terms_url: 'https://example.com/terms' } })),
    );
    const link = await screen.findByRole('link', { name: 'https://example.com/terms' });
    expect(link.getAttribute('href')).toBe('https://example.com/terms');
    expect(screen.queryByText(/Your account/)).toBeNull();
  });
});
