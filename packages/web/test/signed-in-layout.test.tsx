import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UserAvatar } from '../src/account/user-avatar';
import { createFakeServer, currentUser, json } from './support/fake-server';
import { renderApp } from './support/render-app';

afterEach(cleanup);

const ADA = { token: 'token-1', email: 'ada.lovelace@example.com', name: 'Ada Lovelace' };

function server() {
  return createFakeServer().on('GET /api/v1/app/me/', json(currentUser()));
}

describe('guard (spec 000 §2; SPEC.md GD1, GD2, N1)', () => {
  it('GD1/N1: without a stored token a guarded page sends the visitor to sign-in, remembering it', async () => {
    const fake = server();
    const app = renderApp({ path: '/dashboard/profile?tab=1', server: fake });
    await screen.findByRole('heading', { name: 'Sign in to Planwright' });
    expect(app.location()).toBe('/account/signin?next=%2Fdashboard%2Fprofile%3Ftab%3D1');
    expect(fake.calls('/api/v1/app/me/')).toEqual([]);
  });

  it('GD1: a stored token is enough, without asking the server first', async () => {
    const fake = createFakeServer().on('GET /api/v1/app/me/', () => new Promise<Response>(() => {}));
    renderApp({ path: '/dashboard', server: fake, session: ADA });
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeTruthy();
  });

  it('GD2: a token cleared while a guarded page is open leaves it', async () => {
    const app = renderApp({ path: '/dashboard', server: server(), session: ADA });
    await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' });
    act(() => app.tokenStore.clear());
    await screen.findByRole('heading', { name: 'Sign in to Planwright' });
    expect(app.location()).toBe('/account/signin?next=%2Fdashboard');
  });

  it('N1: a 401 from /api/v1/ clears the token and calls onAuthRequired', async () => {
    const fake = createFakeServer().on('GET /api/v1/app/me/', json({ detail: 'expired' }, 401));
    const app = renderApp({ path: '/dashboard/profile', server: fake, session: ADA });
    await screen.findByRole('heading', { name: 'Sign in to Planwright' });
    expect(app.onAuthRequired).toHaveBeenCalled();
    expect(app.storage.data.size).toBe(0);
  });
});

describe('signed-in layout (spec 000 §2; SPEC.md GD3, GD4)', () => {
  it('GD3: a navbar with Dashboard and Profile, the theme toggle and the avatar menu', async () => {
    renderApp({ path: '/dashboard', server: server(), session: ADA });
    await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Profile' }).getAttribute('href')).toBe(
      '/dashboard/profile',
    );
    expect(within(nav).getByRole('button', { name: /^Switch to (light|dark) theme$/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit your profile' }).getAttribute('href')).toBe(
      '/dashboard/profile',
    );
    expect(document.querySelector('header')?.className).toContain('sticky');

    const menuButton = within(nav).getByRole('button', { name: 'Account menu: Ada Lovelace' });
    expect(menuButton.querySelector('[aria-hidden="true"]')?.textContent).toBe('AL');
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(menuButton);
    // Under load the dashboard's own queries may still be settling: wait for the menu, don't assume it.
    const menu = await waitFor(() => {
      const opened = document.getElementById(menuButton.getAttribute('aria-controls') ?? '');
      if (!opened) throw new Error('the account menu did not open');
      return opened;
    });
    const items = within(menu).getAllByRole('link');
    expect(items.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Dashboard', '/dashboard'],
      ['Profile', '/dashboard/profile'],
      ['Help & Support', '/contact'],
      ['Sign Out', '/account/signout'],
    ]);
    expect(menu.querySelector('li[aria-hidden="true"]')).toBeTruthy();
    fireEvent.keyDown(menuButton, { key: 'Escape' });
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
  });

  it('GD3: the page supplies its breadcrumbs, marked for medium screens and wider', async () => {
    const app = renderApp({ path: '/dashboard/profile', server: server(), session: ADA });
    await screen.findByRole('heading', { name: 'Profile' });
    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbs.className).toContain('md:block');
    expect(crumbs.className).toContain('hidden');
    expect(within(crumbs).getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(within(crumbs).getByText('Profile').getAttribute('aria-current')).toBe('page');

    fireEvent.click(within(crumbs).getByRole('link', { name: 'Dashboard' }));
    await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' });
    expect(app.location()).toBe('/dashboard');
    const dashboardCrumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(dashboardCrumbs).queryAllByRole('link')).toEqual([]);
    expect(dashboardCrumbs.textContent).toBe('Dashboard');
  });

  it('welcomes by the e-mail when no name is known; unknown guarded paths are not found', async () => {
    const grace = currentUser({
      email: 'grace@example.com',
      first_name: '',
      last_name: '',
      get_display_name: 'grace@example.com',
    });
    const fake = createFakeServer().on('GET /api/v1/app/me/', json(grace));
    renderApp({ path: '/dashboard', server: fake, session: { token: 't', email: 'grace@example.com' } });
    expect(await screen.findByRole('heading', { name: 'Welcome, grace@example.com' })).toBeTruthy();
    expect(
      screen
        .getByRole('button', { name: 'Account menu: grace@example.com' })
        .querySelector('[aria-hidden="true"]')?.textContent,
    ).toBe('G');
    cleanup();

    renderApp({
      path: '/dashboard/nothing-here',
      server: fake,
      session: { token: 't', email: 'grace@example.com' },
    });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
  });
});

describe('avatar (spec 000 §2, §9; SPEC.md GD4)', () => {
  it('shows the picture when there is one, else the initials of the name, the e-mail, or ??', () => {
    const { container, rerender } = render(
      <UserAvatar avatarUrl="https://img.example/a.png" name="Ada Lovelace" email="ada@example.com" />,
    );
    expect(container.querySelector('img')?.getAttribute('src')).toBe('https://img.example/a.png');
    expect(container.textContent).toBe('');

    rerender(<UserAvatar avatarUrl={null} name="Ada King Lovelace" email="ada@example.com" />);
    expect(container.textContent).toBe('AK');
    rerender(<UserAvatar avatarUrl={null} name={null} email="grace_hopper@example.com" />);
    expect(container.textContent).toBe('GH');
    rerender(<UserAvatar avatarUrl={null} name={null} email={null} />);
    expect(container.textContent).toBe('??');
  });

  it('falls back to the initials when the picture does not load', () => {
    const { container } = render(
      <UserAvatar avatarUrl="https://img.example/broken.png" name="Ada Lovelace" email={null} />,
    );
    fireEvent.error(container.querySelector('img') as HTMLImageElement);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe('AL');
  });
});
