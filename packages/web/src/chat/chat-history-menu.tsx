import type { ChatSummary } from '@planwright/sdk';
import { type KeyboardEvent, useId, useRef } from 'react';
import { useDismissableMenu } from '../layout/use-dismissable-menu';
import { moveMenuFocus } from '../ui/menu-keys';
import { useMenuOpening } from '../ui/use-menu-opening';
import type { RecentChats } from './chat-panel-model';
import { recentChatLabel } from './chat-panel-rules';
import { CHAT_PANEL_TEXTS as TEXTS } from './chat-panel-texts';

/** The items of the open menu, in order (the list changes as the recent chats load). */
function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return [...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
}

/**
 * K6: the history dropdown: a menu button "Chat history" whose menu holds New Chat and the scope's recent
 * chats ("date - title"), or "Loading...", "No recent chats", "Failed to load recent chats". Opening it reads
 * the list again. Enter, Space and ArrowDown open it on its first item, ArrowUp on its last; arrow keys, Home
 * and End move between items; Escape (focus back on the button), Tab and a click outside close it.
 */
export function ChatHistoryMenu({
  recent,
  currentChatId,
  onOpen,
  onNewChat,
  onSelect,
}: {
  recent: RecentChats;
  currentChatId: string | null;
  onOpen: () => void;
  onNewChat: () => void;
  onSelect: (chat: ChatSummary) => void;
}) {
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useDismissableMenu(rootRef, buttonRef);
  const opening = useMenuOpening({ open, setOpen, items: () => menuItems(menuRef.current), onOpen });

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) =>
    moveMenuFocus(event, menuItems(menuRef.current), () => setOpen(false));

  const choose = (action: () => void) => {
    setOpen(false);
    buttonRef.current?.focus();
    action();
  };

  return (
    <div ref={rootRef} className={`dropdown dropdown-end ${open ? 'dropdown-open' : 'dropdown-close'}`}>
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-ghost btn-sm whitespace-nowrap"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={opening.onClick}
        onKeyDown={opening.onKeyDown}
      >
        {TEXTS.history}
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={TEXTS.history}
          tabIndex={-1}
          className="dropdown-content z-40 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-box bg-base-200 p-2 shadow-lg"
          onKeyDown={onMenuKeyDown}
        >
          <ul role="none" className="menu w-full min-w-0 p-0">
            <li role="none">
              <button type="button" role="menuitem" tabIndex={-1} onClick={() => choose(onNewChat)}>
                {TEXTS.newChatItem}
              </button>
            </li>
            {recent.status === 'ready' &&
              recent.chats.map((chat) => (
                <li role="none" key={chat.id}>
                  <button
                    type="button"
                    role="menuitem"
                    tabIndex={-1}
                    aria-current={chat.id === currentChatId ? 'true' : undefined}
                    className="min-w-0 text-start"
                    dir="auto"
                    title={recentChatLabel(chat)}
                    onClick={() => choose(() => onSelect(chat))}
                  >
                    <span className="block min-w-0 truncate">{recentChatLabel(chat)}</span>
                  </button>
                </li>
              ))}
          </ul>
          {(recent.status === 'loading' || recent.status === 'idle') && (
            <p role="status" className="px-3 py-2 text-sm opacity-80">
              {TEXTS.loadingRecent}
            </p>
          )}
          {recent.status === 'ready' && recent.chats.length === 0 && (
            <p className="px-3 py-2 text-sm opacity-80">{TEXTS.noRecentChats}</p>
          )}
          {recent.status === 'failed' && (
            <p role="alert" className="px-3 py-2 text-sm text-error">
              {TEXTS.recentFailed}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
