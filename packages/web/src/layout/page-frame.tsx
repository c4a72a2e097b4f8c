import type { ReactNode } from 'react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { SKIP_LINK_CLASS } from '../ui/skip-link';

/**
 * What every layout shares: a skip link to the content, a loading bar while a route loads, the
 * `main` landmark around the route, and scroll restoration. `above` goes under the navbar.
 */
export function PageFrame({
  navbar,
  above,
  footer,
}: {
  navbar: ReactNode;
  above?: ReactNode;
  footer?: ReactNode;
}) {
  const navigating = useNavigation().state === 'loading';
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className={SKIP_LINK_CLASS}>
        Skip to content
      </a>
      {navigating && (
        <progress
          className="progress progress-primary fixed inset-x-0 top-0 z-50 h-1"
          aria-label="Loading page"
        />
      )}
      {navbar}
      {above}
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      {footer}
      <ScrollRestoration />
    </div>
  );
}
