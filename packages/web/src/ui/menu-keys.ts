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
