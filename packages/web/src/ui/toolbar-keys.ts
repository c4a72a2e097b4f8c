import type { KeyboardEvent } from 'react';

/** The keys that move the focus between a toolbar's controls (the WAI-ARIA toolbar pattern). */
const MOVE_KEYS = ['ArrowLeft', 'ArrowRight', 'Home', 'End'];

/**
 * The controls a toolbar's keys move between, in document order: its enabled buttons and selects, leaving
 * out the items of a menu open inside it (the menu has keys of its own).
 */
export function toolbarControls(toolbar: HTMLElement): HTMLElement[] {
  return [...toolbar.querySelectorAll<HTMLElement>('button:not(:disabled), select:not(:disabled)')].filter(
    (control) => control.closest('[role="menu"]') === null,
  );
}

/**
 * Makes the toolbar one tab stop (roving tabindex): `preferred` (the control used last) keeps
 * `tabIndex=0` while it can take the focus, else the first control does; every other control gets -1.
 * Answers the tab stop, or null when no control is enabled (then Tab passes the toolbar by).
 */
export function setToolbarTabStop(toolbar: HTMLElement, preferred: Element | null): HTMLElement | null {
  const controls = toolbarControls(toolbar);
  const stop = controls.find((control) => control === preferred) ?? controls[0] ?? null;
  for (const control of toolbar.querySelectorAll<HTMLElement>('button, select')) {
    if (control.closest('[role="menu"]') !== null) continue;
    control.tabIndex = control === stop ? 0 : -1;
  }
  return stop;
}

/**
 * ArrowLeft and ArrowRight move the focus to the previous and next control, wrapping; Home and End go to
 * the ends. On a select they move too (its own Up and Down still pick an option), so the focus never
 * sticks there. Keys inside an open menu are left to the menu.
 */
export function moveToolbarFocus(event: KeyboardEvent<HTMLElement>): void {
  if (!MOVE_KEYS.includes(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (!(target instanceof HTMLElement) || target.closest('[role="menu"]') !== null) return;
  const controls = toolbarControls(event.currentTarget);
  const index = controls.indexOf(target);
  if (index < 0) return;
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? controls.length - 1
        : (index + (event.key === 'ArrowRight' ? 1 : -1) + controls.length) % controls.length;
  event.preventDefault();
  controls[next]?.focus();
}
