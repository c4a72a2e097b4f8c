import { type RefObject, useEffect, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * The open state of a disclosure menu, closed by Escape (focus back on its button), a click or focus
 * outside `root`, and any navigation. daisyUI's dropdown opens on focus alone, so the components hand
 * that decision to this hook with `dropdown-open` / `dropdown-close`.
 */
export function useDismissableMenu(
  root: RefObject<HTMLElement | null>,
  button: RefObject<HTMLElement | null>,
): [boolean, (open: boolean | ((open: boolean) => boolean)) => void] {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing on every navigation is the point.
  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    const isOutside = (target: EventTarget | null) =>
      !(target instanceof Node && root.current?.contains(target));
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
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
  }, [open, root, button]);

  return [open, setOpen];
}
