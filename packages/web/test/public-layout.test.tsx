import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../src/api/query-client';
import { routes } from '../src/router/routes';

afterEach(cleanup);

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const mainNav = () => screen.getByRole('navigation', { name: 'Main' });

describe('public layout and routes', () => {
  it('shows the landing page with both audiences and two Get started links to sign-in', () => {
    renderAt('/');
    expect(screen.getByRole('heading', { name: 'For Founders' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'For Investors' })).toBeTruthy();
    const getStarted = screen.getAllByRole('link', { name: 'Get started' });
    expect(getStarted.map((link) => link.getAttribute('href'))).toEqual([
      '/account/signin',
      '/account/signin',
    ]);
    expect(screen.getByRole('main')).toBeTruthy();
    expect(screen.getByRole('contentinfo').textContent).toContain(String(new Date().getFullYear()));
  });

  it('links every public page and marks the current one', () => {
    renderAt('/');
    const nav = within(mainNav());
    const hrefs = (name: string) =>
      nav.getAllByRole('link', { name }).map((link) => link.getAttribute('href'));
    expect(hrefs('Planwright home')).toEqual(['/']);
    expect(hrefs('Home')).toEqual(['/']);
    expect(hrefs('Pricing')).toEqual(['/pricing']);
    expect(hrefs('About')).toEqual(['/about']);
    expect(hrefs('Contact')).toEqual(['/contact']);
    expect(hrefs('Sign In')).toEqual(['/account/signin']);
    expect(hrefs('Sign Up')).toEqual(['/account/signup']);
    expect(nav.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
    expect(nav.getByRole('link', { name: 'Pricing' }).getAttribute('aria-current')).toBeNull();
  });

  it('loads a page on demand and moves the active mark', async () => {
    renderAt('/');
    fireEvent.click(within(mainNav()).getByRole('link', { name: 'About' }));
    expect(await screen.findByRole('heading', { name: 'About Planwright' })).toBeTruthy();
    expect(screen.getByText(/began in a venture studio/)).toBeTruthy();
    expect(screen.getByText(/reviewed by an advisory board/)).toBeTruthy();
    expect(within(mainNav()).getByRole('link', { name: 'About' }).getAttribute('aria-current')).toBe('page');
  });

  it('shows a not-found page with a link home for an unknown route', async () => {
    const router = renderAt('/no/such/page');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Go to the home page' }));
    await act(async () => {});
    expect(router.state.location.pathname).toBe('/');
  });

  it('toggles and stores the theme from the navigation bar', () => {
    renderAt('/');
    const before = document.documentElement.dataset.theme;
    const toggle = within(mainNav()).getByRole('button', { name: /^Switch to (light|dark) theme$/ });
    fireEvent.click(toggle);
    const after = document.documentElement.dataset.theme;
    expect(after).not.toBe(before);
    expect(['coffee', 'caramellatte']).toContain(after);
    expect(localStorage.getItem('theme')).toBe(after);
    expect(toggle.getAttribute('aria-label')).toBe(
      after === 'coffee' ? 'Switch to light theme' : 'Switch to dark theme',
    );
  });

  it('opens and closes the small-screen menu', () => {
    renderAt('/');
    const button = within(mainNav()).getByRole('button', { name: 'Menu' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const menu = document.getElementById(button.getAttribute('aria-controls') ?? '');
    expect(
      menu &&
        within(menu)
          .getAllByRole('link')
          .map((link) => link.textContent),
    ).toEqual(['Home', 'Pricing', 'About', 'Contact', 'Sign In', 'Sign Up']);
    fireEvent.keyDown(button, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });
});
