import { AI_TEXTS, type PlanwrightClient, PlanwrightError, type TransformAction } from '@planwright/sdk';
import type { Editor } from '@tiptap/core';
import { type JSX, type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Alert } from '../ui/alert';
import { Dialog } from '../ui/dialog';
import { moveMenuFocus } from '../ui/menu-keys';
import { useMenuOpening } from '../ui/use-menu-opening';
import {
  AI_ACTION_GROUPS,
  type AiActionItem,
  replaceTransformTarget,
  type TransformTarget,
  transformTarget,
} from './ai-actions.js';

/** Where one AI action stands (E32–E34): asked, answered, or failed. */
export type AiSuggestion =
  | { readonly status: 'loading'; readonly label: string; readonly target: TransformTarget }
  | {
      readonly status: 'ready';
      readonly label: string;
      readonly target: TransformTarget;
      readonly text: string;
    }
  | {
      readonly status: 'failed';
      readonly label: string;
      readonly target: TransformTarget;
      readonly message: string;
    };

/** The message a failed transform shows (E34): the SDK's words, else the spec's fallback. */
export function transformFailureMessage(error: unknown): string {
  return PlanwrightError.isInstance(error) && error.message.trim() !== ''
    ? error.message
    : AI_TEXTS.transformFailed;
}

/**
 * The AI actions of one editor (E32–E34): `run` sends the selection to `client.ai.transformText`, `accept`
 * puts the answer in its place, `discard` drops it (and cancels a call still out).
 */
export function useAiActions(
  editor: Editor,
  client: PlanwrightClient,
  documentUuid: string | null,
): {
  suggestion: AiSuggestion | null;
  run(item: AiActionItem): void;
  accept(): void;
  discard(): void;
} {
  const [suggestion, setSuggestion] = useState<AiSuggestion | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => () => abortRef.current?.abort(), []);

  const run = useCallback(
    (item: AiActionItem) => {
      abortRef.current?.abort();
      const abort = new AbortController();
      abortRef.current = abort;
      const target = transformTarget(editor.state);
      const label = item.label;
      setSuggestion({ status: 'loading', label, target });
      const action: TransformAction = item.action;
      client.ai
        .transformText(
          { text: target.text, action, ...(documentUuid ? { documentUuid } : {}) },
          { signal: abort.signal },
        )
        .then(
          (result) => {
            if (!abort.signal.aborted)
              setSuggestion({ status: 'ready', label, target, text: result.transformedText });
          },
          (error: unknown) => {
            if (!abort.signal.aborted) {
              setSuggestion({ status: 'failed', label, target, message: transformFailureMessage(error) });
            }
          },
        );
    },
    [editor, client, documentUuid],
  );

  const discard = useCallback(() => {
    abortRef.current?.abort();
    abortRef.current = null;
    setSuggestion(null);
  }, []);

  const accept = useCallback(() => {
    if (suggestion?.status !== 'ready') return;
    if (!replaceTransformTarget(editor, suggestion.target, suggestion.text)) {
      setSuggestion({
        ...suggestion,
        status: 'failed',
        message: 'The selected text has changed; select it again and retry.',
      });
      return;
    }
    setSuggestion(null);
    editor.commands.focus();
  }, [editor, suggestion]);

  return { suggestion, run, accept, discard };
}

/**
 * The "AI actions" dropdown of the bubble toolbar (E31): the eight actions in their three groups. A menu
 * button: Enter, Space and ArrowDown open it on the first action, ArrowUp on the last; Escape closes it
 * with the focus back on the button.
 */
export function AiActionsMenu(props: { enabled: boolean; onChoose(item: AiActionItem): void }): JSX.Element {
  const { enabled, onChoose } = props;
  const [open, setOpen] = useState(false);
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
    moveMenuFocus(event, [...event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]')], () =>
      setOpen(false),
    );
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
        <div
          id={menuId}
          role="menu"
          aria-label="AI actions"
          tabIndex={-1}
          className="dropdown-content z-40 mt-2 w-56 rounded-box bg-base-200 p-2 shadow-lg"
          onKeyDown={onMenuKeyDown}
        >
          {AI_ACTION_GROUPS.map((group) => (
            <fieldset key={group.label} aria-label={group.label} className="m-0 border-0 p-0">
              <legend className="px-2 pt-1 text-xs font-semibold opacity-60">{group.label}</legend>
              <ul role="none" className="menu w-full p-0">
                {group.items.map((item) => (
                  <li key={item.action} role="none">
                    <button
                      type="button"
                      role="menuitem"
                      tabIndex={-1}
                      onMouseDown={(event) => event.preventDefault()}
                      onClick={() => {
                        setOpen(false);
                        onChoose(item);
                      }}
                    >
                      {item.label}
                    </button>
                  </li>
                ))}
              </ul>
            </fieldset>
          ))}
        </div>
      )}
    </div>
  );
}

/** The preview of an AI action's answer (E33): Accept replaces the selection, Discard drops it. */
export function AiSuggestionDialog(props: {
  suggestion: AiSuggestion;
  onAccept(): void;
  onDiscard(): void;
}): JSX.Element {
  const { suggestion, onAccept, onDiscard } = props;
  return (
    <Dialog title="AI suggestion" onClose={onDiscard}>
      <div className="mt-3 flex flex-col gap-3">
        <p className="text-sm text-base-content/70">{suggestion.label}</p>
        {suggestion.status === 'loading' && (
          <p role="status" className="flex items-center gap-2">
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            Transforming text...
          </p>
        )}
        {suggestion.status === 'ready' && (
          <div
            data-testid="ai-suggestion-text"
            className="max-h-80 overflow-y-auto whitespace-pre-wrap rounded-box bg-base-200 p-3 [overflow-wrap:anywhere]"
          >
            {suggestion.text}
          </div>
        )}
        {suggestion.status === 'failed' && <Alert kind="error">{suggestion.message}</Alert>}
        <div className="modal-action mt-0">
          <button type="button" className="btn btn-ghost" onClick={onDiscard}>
            Discard
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={suggestion.status !== 'ready'}
            onClick={onAccept}
          >
            Accept
          </button>
        </div>
      </div>
    </Dialog>
  );
}
