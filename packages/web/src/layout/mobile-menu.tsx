import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { Icon } from '../ui/icon';
import type { NavLinkItem } from './nav-links';

/**
 * The navigation as a dropdown on small screens: a disclosure button with `aria-expanded`, closed by a
 * link, Escape, a click or focus outside, and any navigation. daisyUI's dropdown opens on focus alone,
 * so `dropdown-open` / `dropdown-close` hand that decision to this component.
 */
export function MobileMenu({ links }: { links: readonly NavLinkItem[] }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing on every navigation is the point.
  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    const isOutside = (target: EventTarget | null) =>
      !(target instanceof Node && rootRef.current?.contains(target));
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onOutside = (event: Event) => {
      if (isOutside(event.target)) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onOutside);
    document.addEventListener('focusin', onOutside);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onOutside);
      document.removeEventListener('focusin', onOutside);
    };
  }, [open]);

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
