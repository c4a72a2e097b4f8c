import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { SiteFooter } from './site-footer';
import { SiteNavbar } from './site-navbar';

/** The frame of every public page: skip link, navigation, content, footer. */
export function PublicLayout() {
  const navigating = useNavigation().state === 'loading';
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="btn btn-primary btn-sm absolute left-2 top-2 z-50 -translate-y-16 focus:translate-y-0"
      >
        Skip to content
      </a>
      {navigating && (
        <progress
          className="progress progress-primary fixed inset-x-0 top-0 z-50 h-1"
          aria-label="Loading page"
        />
      )}
      <SiteNavbar />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <SiteFooter />
      <ScrollRestoration />
    </div>
  );
}

/** Shown on a first visit while the page's code loads. */
export function PageLoadingFallback() {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <span className="loading loading-spinner loading-lg" role="status" aria-label="Loading" />
    </div>
  );
}
