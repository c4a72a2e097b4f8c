import { useState } from 'react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { VerificationBanner } from '../account/verification-banner';
import { BreadcrumbStore } from './breadcrumb-store';
import { BreadcrumbContext } from './breadcrumbs';
import { RequireSession } from './require-session';
import { SignedInNavbar } from './signed-in-navbar';

/** The frame of every guarded page (spec 000 §2): the guard, the navbar, the verification banner, content. */
export function SignedInLayout() {
  const [breadcrumbs] = useState(() => new BreadcrumbStore());
  const navigating = useNavigation().state === 'loading';
  return (
    <RequireSession>
      <BreadcrumbContext value={breadcrumbs}>
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
          <SignedInNavbar />
          <VerificationBanner />
          <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
            <Outlet />
          </main>
          <ScrollRestoration />
        </div>
      </BreadcrumbContext>
    </RequireSession>
  );
}
