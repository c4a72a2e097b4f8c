import { useId, useRef } from 'react';
import { NavLink } from 'react-router';
import { Icon } from '../ui/icon';
import type { NavLinkItem } from './nav-links';
import { useDismissableMenu } from './use-dismissable-menu';

/**
 * The navigation as a dropdown on small screens: a disclosure button with `aria-expanded`, closed by a
 * link, Escape, a click or focus outside, and any navigation (see `useDismissableMenu`).
 */
export function MobileMenu({ links }: { links: readonly NavLinkItem[] }) {
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useDismissableMenu(rootRef, buttonRef);

  return (
    <div ref={rootRef} className={`dropdown ${open ? 'dropdown-open' : 'dropdown-close'}`}>
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-ghost btn-square"
        aria-label="Menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        <Icon>
          <path d="M4 6h16M4 12h16M4 18h16" />
        </Icon>
      </button>
      {open && (
        <ul
          id={menuId}
          className="menu dropdown-content z-40 mt-3 w-56 rounded-box bg-base-200 p-2 shadow-lg"
        >
          {links.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end={link.to === '/'} onClick={() => setOpen(false)}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
