import type { TransformAction } from '@planwright/sdk';
import { type FormEvent, type JSX, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { moveMenuFocus } from '../ui/menu-keys';
import { useMenuOpening } from '../ui/use-menu-opening';
import type { AiActionRequest } from './ai-action-runs.js';
import { AI_ACTION_GROUPS } from './ai-actions.js';

/** Why an action cannot run here (E45), in words for its tooltip: null when it can. */
export type AiActionRefusal = (action: TransformAction | 'custom') => string | null;

/** The menu's own texts (E44–E45). */
export const AI_ACTIONS_MENU_TEXTS = {
  askLabel: 'Ask AI to…',
  askPlaceholder: 'e.g. make it more concrete',
  askSubmit: 'Ask',
  offline: 'offline',
} as const;

/**
 * The "AI actions" dropdown of the bubble toolbar (E31): the eight actions in their three groups. A menu
 * button: Enter, Space and ArrowDown open it on the first action, ArrowUp on the last; Escape closes it
 * with the focus back on the button.
 */
export function AiActionsMenu(props: {
  enabled: boolean;
  onChoose(request: AiActionRequest): void;
  /** Which actions this server's AI can do; all when absent. */
  availability?: AiActionRefusal;
  /** The provider answers offline: actions that run say so (E45). */
  offline?: boolean;
}): JSX.Element {
  const { enabled, onChoose, availability = () => null, offline = false } = props;
  const [open, setOpen] = useState(false);
  const [prompt, setPrompt] = useState('');
  const promptId = useId();
  const askRefusal = availability('custom');
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const opening = useMenuOpening({
    open,
    setOpen,
    items: () => [...(rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])],
  });

  useEffect(() => {
    if (!open) return;
    const onOutside = (event: Event) => {
      if (!(event.target instanceof Node && rootRef.current?.contains(event.target))) setOpen(false);
    };
    document.addEventListener('pointerdown', onOutside);
    return () => document.removeEventListener('pointerdown', onOutside);
  }, [open]);

  useEffect(() => {
    if (!enabled) setOpen(false);
  }, [enabled]);

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      buttonRef.current?.focus();
      return;
    }
    // Typing in the prompt field is typing: the menu's letter and arrow keys stay out of it.
    if (event.target instanceof HTMLInputElement) return;
    moveMenuFocus(event, [...event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]')], () =>
      setOpen(false),
    );
  };

  const ask = (event: FormEvent) => {
    event.preventDefault();
    const words = prompt.trim();
    if (words === '' || askRefusal !== null) return;
    setOpen(false);
    setPrompt('');
    onChoose({ action: 'improve', label: `${AI_ACTIONS_MENU_TEXTS.askLabel} ${words}`, customPrompt: words });
  };

  return (
    <div ref={rootRef} className={`dropdown join-item ${open ? 'dropdown-open' : 'dropdown-close'}`}>
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-ghost btn-sm"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={!enabled}
        onMouseDown={(event) => event.preventDefault()}
        onClick={opening.onClick}
        onKeyDown={opening.onKeyDown}
      >
        AI actions
      </button>
      {open && (
        // biome-ignore lint/a11y/noStaticElementInteractions: Escape from the prompt field or the menu closes both.
        <div
          className="dropdown-content z-40 mt-2 w-64 rounded-box bg-base-200 p-2 shadow-lg"
          onKeyDown={onMenuKeyDown}
        >
          <form className="flex flex-col gap-1 px-2 pb-2" onSubmit={ask}>
            <label htmlFor={promptId} className="text-xs font-semibold opacity-60">
              {AI_ACTIONS_MENU_TEXTS.askLabel}
            </label>
            <div className="join w-full" title={askRefusal ?? undefined}>
              <input
                id={promptId}
                className="input input-sm join-item min-w-0 flex-1"
                placeholder={AI_ACTIONS_MENU_TEXTS.askPlaceholder}
                maxLength={2000}
                value={prompt}
                disabled={askRefusal !== null}
                onChange={(event) => setPrompt(event.target.value)}
              />
              <button
                type="submit"
                className="btn btn-sm join-item"
                disabled={askRefusal !== null || prompt.trim() === ''}
              >
                {AI_ACTIONS_MENU_TEXTS.askSubmit}
              </button>
            </div>
            {askRefusal !== null && <p className="text-xs opacity-70">{askRefusal}</p>}
          </form>
          <div id={menuId} role="menu" aria-label="AI actions" tabIndex={-1}>
            {AI_ACTION_GROUPS.map((group) => (
              <fieldset key={group.label} aria-label={group.label} className="m-0 border-0 p-0">
                <legend className="px-2 pt-1 text-xs font-semibold opacity-60">{group.label}</legend>
                <ul role="none" className="menu w-full p-0">
                  {group.items.map((item) => {
                    const refusal = availability(item.action);
                    return (
                      <li key={item.action} role="none" title={refusal ?? undefined}>
                        <button
                          type="button"
                          role="menuitem"
                          tabIndex={-1}
                          aria-disabled={refusal !== null}
                          aria-description={refusal ?? undefined}
                          className={refusal !== null ? 'opacity-50' : undefined}
                          onMouseDown={(event) => event.preventDefault()}
                          onClick={() => {
                            if (refusal !== null) return;
                            setOpen(false);
                            onChoose({ action: item.action, label: item.label });
                          }}
                        >
                          {item.label}
                          {offline && refusal === null && (
                            <span className="badge badge-ghost badge-xs ml-auto">
                              {AI_ACTIONS_MENU_TEXTS.offline}
                            </span>
                          )}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </fieldset>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
