import { useId, useRef } from 'react';
import { Link } from 'react-router';
import { SIGNED_IN_TEXTS as TEXTS } from '../account/account-texts';
import { useSession } from '../account/use-account';
import { UserAvatar } from '../account/user-avatar';
import { useDismissableMenu } from './use-dismissable-menu';

/** Where Help & Support leads (spec 000 §2 leaves it open): the contact page, with its Support card. */
export const HELP_AND_SUPPORT_PATH = '/contact';

/**
 * The avatar dropdown (spec 000 §2): Profile, Help & Support, a divider, Sign Out. Dashboard is listed too
 * on small screens, where the navbar has no room for its links.
 */
export function AvatarMenu() {
  const session = useSession();
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useDismissableMenu(rootRef, buttonRef);
  const who = session.name ?? session.email;
  const close = () => setOpen(false);

  return (
    <div ref={rootRef} className={`dropdown dropdown-end ${open ? 'dropdown-open' : 'dropdown-close'}`}>
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-ghost btn-circle"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        {/* The name is this hidden text, not aria-label: a label that differs from the visible initials fails
            WCAG 2.5.3 (axe label-content-name-mismatch); the initials only repeat it. */}
        <span className="sr-only">{who ? `${TEXTS.accountMenu}: ${who}` : TEXTS.accountMenu}</span>
        <span aria-hidden="true">
          <UserAvatar avatarUrl={session.avatarUrl} name={session.name} email={session.email} />
        </span>
      </button>
      {open && (
        <ul
          id={menuId}
          className="menu dropdown-content z-40 mt-3 w-64 rounded-box bg-base-200 p-2 shadow-lg"
        >
          {who && <li className="menu-title [overflow-wrap:anywhere]">{who}</li>}
          <li className="sm:hidden">
            <Link to="/dashboard" onClick={close}>
              {TEXTS.dashboard}
            </Link>
          </li>
          <li>
            <Link to="/dashboard/profile" onClick={close}>
              {TEXTS.profile}
            </Link>
          </li>
          <li>
            <Link to={HELP_AND_SUPPORT_PATH} onClick={close}>
              {TEXTS.helpAndSupport}
            </Link>
          </li>
          <li aria-hidden="true" className="my-1 border-t border-base-300" />
          <li>
            <Link to="/account/signout" onClick={close}>
              {TEXTS.signOut}
            </Link>
          </li>
        </ul>
      )}
    </div>
  );
}
