import { type KeyboardEvent, useEffect, useRef } from 'react';
import { focusMenuEnd, type MenuOpenAt, menuButtonOpenKey } from './menu-keys';

/** What {@link useMenuOpening} needs to know about one menu button. */
export interface MenuOpeningOptions {
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The menu's items, in order, once it has rendered open. */
  items: () => readonly HTMLElement[];
  /** Runs at each opening (a menu that reads its list again). */
  onOpen?: () => void;
}

/**
 * How a menu button opens (the WAI-ARIA menu button): a click toggles the menu, opening it on its first item;
 * ArrowDown and ArrowUp open it on the first or the last item; the focus goes there once the menu has
 * rendered. Closing (Escape, Tab, outside) stays with each menu. Answers the button's handlers.
 */
export function useMenuOpening(options: MenuOpeningOptions): {
  onClick: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
} {
  const focusOnOpen = useRef<MenuOpenAt>('first');
  // The latest options, read by the effect and the handlers without re-running the effect per render.
  const latest = useRef(options);
  latest.current = options;
  const { open } = options;

  useEffect(() => {
    if (open) focusMenuEnd(latest.current.items(), focusOnOpen.current);
  }, [open]);

  const openAt = (at: MenuOpenAt) => {
    focusOnOpen.current = at;
    latest.current.onOpen?.();
    latest.current.setOpen(true);
  };

  return {
    onClick: () => (open ? latest.current.setOpen(false) : openAt('first')),
    onKeyDown: (event) => {
      const at = open ? null : menuButtonOpenKey(event);
      if (at !== null) openAt(at);
    },
  };
}
