import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import { useDismissableMenu } from '../layout/use-dismissable-menu';
import type { MenuAction } from '../ui/actions-menu';
import { TOP_BAR_TEXTS as TEXTS } from './workspace-texts';

/**
 * A menu button with a visible label (`File`), keyboard-operated like the app's actions menu: Enter, Space
 * or ArrowDown open it on the first item, ArrowUp on the last; arrows, Home and End move; Escape and Tab
 * close it; choosing an item gives the focus back to the button first (a dialog it opens returns it there).
 */
export function MenuButton({
  label,
  actions,
  disabled = false,
}: {
  label: string;
  actions: readonly MenuAction[];
  disabled?: boolean;
}) {
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemsRef = useRef<Array<HTMLButtonElement | null>>([]);
  const focusOnOpen = useRef<'first' | 'last'>('first');
  const [open, setOpen] = useDismissableMenu(rootRef, buttonRef);

  useEffect(() => {
    if (!open) return;
    const items = itemsRef.current.filter((item) => item !== null);
    (focusOnOpen.current === 'last' ? items[items.length - 1] : items[0])?.focus();
  }, [open]);

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    focusOnOpen.current = event.key === 'ArrowUp' ? 'last' : 'first';
    setOpen(true);
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = itemsRef.current.filter((item) => item !== null);
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => {
      event.preventDefault();
      items[(to + items.length) % items.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(items.length - 1);
    else if (event.key === 'Tab') setOpen(false);
  };

  const choose = (action: MenuAction) => {
    setOpen(false);
    buttonRef.current?.focus();
    action.onSelect();
  };

  return (
    <div ref={rootRef} className={`dropdown ${open ? 'dropdown-open' : 'dropdown-close'}`}>
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-ghost btn-sm font-normal"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        onClick={() => {
          focusOnOpen.current = 'first';
          setOpen((value) => !value);
        }}
        onKeyDown={onButtonKeyDown}
      >
        {label}
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={label}
          tabIndex={-1}
          className="dropdown-content z-40 mt-1 w-52 rounded-box bg-base-200 p-2 shadow-lg"
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

/**
 * W10: the File menu (Rename, System Prompt; Import and Export arrive with their issue, so they are not
 * here as dead entries) and the spec's static Edit, View, Insert, Format, Tools and Help menus, shown as
 * disabled menu buttons since they do nothing yet.
 */
export function WorkspaceMenuBar({
  onRename,
  onSystemPrompt,
  disabled = false,
}: {
  onRename: () => void;
  onSystemPrompt: () => void;
  disabled?: boolean;
}) {
  return (
    <div className="flex flex-wrap items-center">
      <MenuButton
        label={TEXTS.file}
        disabled={disabled}
        actions={[
          { label: TEXTS.rename, onSelect: onRename },
          { label: TEXTS.systemPrompt, onSelect: onSystemPrompt },
        ]}
      />
      {TEXTS.staticMenus.map((label) => (
        <button
          key={label}
          type="button"
          className="btn btn-ghost btn-sm font-normal"
          aria-haspopup="menu"
          disabled
          title={TEXTS.staticMenuHint}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
