import type { KeyboardEvent } from 'react';

/**
 * The keys of an open menu (the WAI-ARIA menu pattern): ArrowDown and ArrowUp move the focus through
 * `items`, wrapping; Home and End go to the ends; Tab closes the menu and lets the focus go on. Escape is
 * left to the caller (or `useDismissableMenu`), which knows where the focus goes back to.
 */
export function moveMenuFocus(
  event: KeyboardEvent<HTMLElement>,
  items: readonly HTMLElement[],
  close: () => void,
): void {
  const index = items.indexOf(document.activeElement as HTMLElement);
  const move = (to: number) => {
    event.preventDefault();
    items[(to + items.length) % items.length]?.focus();
  };
  if (event.key === 'ArrowDown') move(index + 1);
  else if (event.key === 'ArrowUp') move(index - 1);
  else if (event.key === 'Home') move(0);
  else if (event.key === 'End') move(items.length - 1);
  else if (event.key === 'Tab') close();
}

/** Which end of a menu gets the focus when it opens. */
export type MenuOpenAt = 'first' | 'last';

/**
 * The keys of a closed menu's button besides Enter and Space (the WAI-ARIA menu button): ArrowDown opens
 * the menu on its first item, ArrowUp on its last. Answers where to open (the key is then taken), else null.
 */
export function menuButtonOpenKey(event: KeyboardEvent<HTMLElement>): MenuOpenAt | null {
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return null;
  event.preventDefault();
  return event.key === 'ArrowUp' ? 'last' : 'first';
}

/** Focuses the first or the last of `items` (a menu that just opened). */
export function focusMenuEnd(items: readonly HTMLElement[], at: MenuOpenAt): void {
  (at === 'last' ? items[items.length - 1] : items[0])?.focus();
}
