import { Link, NavLink } from 'react-router';
import { ThemeToggle } from '../theme/theme-toggle';
import { BrandMark } from './brand';
import { MobileMenu } from './mobile-menu';
import { PUBLIC_NAV_LINKS } from './nav-links';

const pageLinks = PUBLIC_NAV_LINKS.filter((link) => link.kind === 'page');
const accountLinks = PUBLIC_NAV_LINKS.filter((link) => link.kind === 'account');

/** Public navigation bar (spec 000 §2): brand, page links, theme toggle, Sign In / Sign Up. */
export function SiteNavbar() {
  return (
    <header className="sticky top-0 z-30 border-b border-base-300 bg-base-100/90 backdrop-blur">
      <nav aria-label="Main" className="navbar mx-auto max-w-6xl px-4">
        <div className="navbar-start gap-1">
          <div className="-ml-2 lg:hidden">
            <MobileMenu links={PUBLIC_NAV_LINKS} />
          </div>
          <Link to="/" className="btn btn-ghost px-2 text-lg lg:-ml-2" aria-label="Planwright home">
            <BrandMark />
          </Link>
        </div>
        <div className="navbar-center hidden lg:flex">
          <ul className="menu menu-horizontal gap-1">
            {pageLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={link.to === '/'}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
        <div className="navbar-end gap-2">
          <ThemeToggle />
          {accountLinks.map((link, index) => (
            <NavLink
              key={link.to}
              to={link.to}
              className={`btn btn-sm hidden lg:inline-flex ${index === 0 ? 'btn-ghost' : 'btn-primary'}`}
            >
              {link.label}
            </NavLink>
          ))}
        </div>
      </nav>
    </header>
  );
}
