import { useState } from 'react';
import { VerificationBanner } from '../account/verification-banner';
import { BreadcrumbStore } from './breadcrumb-store';
import { BreadcrumbContext } from './breadcrumbs';
import { PageFrame } from './page-frame';
import { RequireSession } from './require-session';
import { SignedInNavbar } from './signed-in-navbar';

/** The frame of every guarded page (spec 000 §2): the guard, the navbar, the verification banner, content. */
export function SignedInLayout() {
  const [breadcrumbs] = useState(() => new BreadcrumbStore());
  return (
    <RequireSession>
      <BreadcrumbContext value={breadcrumbs}>
        <PageFrame navbar={<SignedInNavbar />} above={<VerificationBanner />} />
      </BreadcrumbContext>
    </RequireSession>
  );
}
