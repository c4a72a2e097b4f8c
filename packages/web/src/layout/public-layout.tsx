import { PageFrame } from './page-frame';
import { SiteFooter } from './site-footer';
import { SiteNavbar } from './site-navbar';

/** The frame of every public page: skip link, navigation, content, footer. */
export function PublicLayout() {
  return <PageFrame navbar={<SiteNavbar />} footer={<SiteFooter />} />;
}

/** Shown on a first visit while the page's code loads. */
export function PageLoadingFallback() {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <span className="loading loading-spinner loading-lg" role="status" aria-label="Loading" />
    </div>
  );
}
