import { type KeyboardEvent, useId, useRef } from 'react';
import { useDismissableMenu } from '../layout/use-dismissable-menu';
import { moveMenuFocus } from './menu-keys';
import { useMenuOpening } from './use-menu-opening';

export interface MenuAction {
  label: string;
  onSelect: () => void;
  /** Shown in the error colour (Delete). */
  danger?: boolean;
}

/**
 * A menu button (WAI-ARIA "menu button"): Enter, Space or ArrowDown open it on the first item, ArrowUp on
 * the last; arrows, Home and End move between items; Escape closes it with the focus back on the button;
 * Tab, a click outside and navigation close it. Choosing an item puts the focus back on the button first,
 * so a dialog the item opens returns the focus there when it closes.
 */
export function ActionsMenu({
  label,
  actions,
  labelled = false,
  disabled = false,
}: {
  label: string;
  actions: readonly MenuAction[];
  /** The label as the button's text (a menu bar's `File`), instead of a ⋮ button named by it. */
  labelled?: boolean;
  disabled?: boolean;
}) {
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemsRef = useRef<Array<HTMLButtonElement | null>>([]);
  const [open, setOpen] = useDismissableMenu(rootRef, buttonRef);
  const opening = useMenuOpening({
    open,
    setOpen,
    items: () => itemsRef.current.filter((item) => item !== null),
  });

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) =>
    moveMenuFocus(
      event,
      itemsRef.current.filter((item) => item !== null),
      () => setOpen(false),
    );

  const choose = (action: MenuAction) => {
    setOpen(false);
    buttonRef.current?.focus();
    action.onSelect();
  };

  return (
    <div
      ref={rootRef}
      className={`dropdown ${labelled ? '' : 'dropdown-end'} ${open ? 'dropdown-open' : 'dropdown-close'}`}
    >
      <button
        ref={buttonRef}
        type="button"
        className={labelled ? 'btn btn-ghost btn-sm font-normal' : 'btn btn-ghost btn-square'}
        aria-label={labelled ? undefined : label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        onClick={opening.onClick}
        onKeyDown={opening.onKeyDown}
      >
        {labelled ? (
          label
        ) : (
          <svg aria-hidden="true" className="size-5" viewBox="0 0 24 24" fill="currentColor">
            <circle cx="12" cy="5" r="1.8" />
            <circle cx="12" cy="12" r="1.8" />
            <circle cx="12" cy="19" r="1.8" />
          </svg>
        )}
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={label}
          tabIndex={-1}
          className="dropdown-content z-40 mt-2 w-52 rounded-box bg-base-200 p-2 shadow-lg"
          onKeyDown={onMenuKeyDown}
        >
          <ul role="none" className="menu w-full p-0">
            {actions.map((action, index) => (
              <li key={action.label} role="none">
                <button
                  ref={(element) => {
                    itemsRef.current[index] = element;
                  }}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className={action.danger ? 'text-error' : undefined}
                  onClick={() => choose(action)}
                >
                  {action.label}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
