import { Link } from 'react-router';
import { BrandMark } from './brand';

/** Public footer with the current year. */
export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-base-300 bg-base-200">
      <div className="footer mx-auto max-w-6xl px-4 py-10 sm:footer-horizontal">
        <aside className="gap-2">
          <BrandMark />
          <p className="text-sm opacity-80">Business plans, drafted with AI and read with confidence.</p>
          <p className="text-sm opacity-80">© {year} Planwright. All rights reserved.</p>
        </aside>
        <nav aria-label="Footer">
          <h2 className="footer-title">Product</h2>
          <Link to="/pricing" className="link link-hover">
            Pricing
          </Link>
          <Link to="/about" className="link link-hover">
            About
          </Link>
          <Link to="/contact" className="link link-hover">
            Contact
          </Link>
        </nav>
        <nav aria-label="Legal">
          <h2 className="footer-title">Legal</h2>
          {/* Plain paths, not the site config: / must not load the SDK. The pages link on when the
              operator's texts live elsewhere (TERMS_URL, PRIVACY_URL). */}
          <Link to="/web/terms" className="link link-hover">
            Terms
          </Link>
          <Link to="/web/privacy" className="link link-hover">
            Privacy
          </Link>
        </nav>
      </div>
    </footer>
  );
}
