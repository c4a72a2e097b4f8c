import { Link, NavLink } from 'react-router';
import { SIGNED_IN_TEXTS as TEXTS } from '../account/account-texts';
import { ThemeToggle } from '../theme/theme-toggle';
import { AvatarMenu } from './avatar-menu';
import { BrandMark } from './brand';
import { Breadcrumbs } from './breadcrumbs';

const LINKS = [
  { to: '/dashboard', label: TEXTS.dashboard, end: true },
  { to: '/dashboard/profile', label: TEXTS.profile, end: false },
] as const;

/**
 * The signed-in navigation bar (spec 000 §2): sticky; the brand with the page's breadcrumbs (medium width
 * and wider), Dashboard and Profile, the theme toggle and the avatar menu.
 */
export function SignedInNavbar() {
  return (
    <header className="sticky top-0 z-30 border-b border-base-300 bg-base-100/90 backdrop-blur">
      <nav aria-label="Main" className="navbar mx-auto max-w-6xl gap-2 px-4">
        <div className="navbar-start min-w-0 gap-2">
          <Link
            to="/dashboard"
            className="btn btn-ghost -ml-2 px-2 text-lg"
            aria-label="Planwright dashboard"
          >
            <BrandMark />
          </Link>
          <Breadcrumbs className="hidden min-w-0 md:block" />
        </div>
        <div className="navbar-end gap-1">
          <ul className="menu menu-horizontal hidden gap-1 sm:flex">
            {LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={link.end}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <ThemeToggle />
          <AvatarMenu />
        </div>
      </nav>
    </header>
  );
}
