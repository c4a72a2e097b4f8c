import type { Suggestion, SuggestionQueue } from '@planwright/sdk/proposals';
import { type JSX, useId, useState, useSyncExternalStore } from 'react';
import type { AiActionRuns, AiActionRunsSnapshot } from '../editor';
import { SUGGESTION_TEXTS, suggestionKind, suggestionPlace } from './suggestion-texts';

/**
 * Moves the keyboard focus to the bar's Accept (or, when the current suggestion cannot be accepted, its first
 * enabled button): a chat card's "show in text" takes a keyboard user where the decision is (W51).
 */
export function focusSuggestionBar(root: ParentNode = document): boolean {
  const bar = root.querySelector<HTMLElement>('[data-testid="suggestion-bar"]');
  const target =
    bar?.querySelector<HTMLButtonElement>('button[data-action="accept"]:not(:disabled)') ??
    bar?.querySelector<HTMLButtonElement>('button:not(:disabled)');
  target?.focus();
  return target !== null && target !== undefined;
}

/** What the bar's buttons do; the pane binds them to the queue, the editor and the AI actions (W51). */
export interface SuggestionBarActions {
  accept(id: string): void;
  reject(id: string): void;
  acceptAll(): void;
  rejectAll(): void;
  /** Every pending suggestion of one subsection (S4). */
  acceptSubsection(subsectionUuid: string): void;
  rejectSubsection(subsectionUuid: string): void;
  step(direction: 1 | -1): void;
  show(id: string): void;
  retry(turnId: string): void;
  /** Asks the chat for a change that no longer applies again (W52). */
  askAgain(turnId: string): void;
}

/**
 * The floating bar over the canvas while AI suggestions are pending (W51): which one is current and where,
 * who wrote it, previous and next, Accept and Reject (also the turn's Try again for an AI action), Accept all
 * and Reject all, and the review queue listing every pending suggestion of the plan. While an AI action is
 * being answered it says so (with Cancel); a failure is shown here too.
 */
export function SuggestionBar(props: {
  queue: SuggestionQueue;
  runs: AiActionRuns | null;
  failure: string | null;
  onDismissFailure(): void;
  actions: SuggestionBarActions;
}): JSX.Element | null {
  const { queue, runs, failure, onDismissFailure, actions } = props;
  const { suggestions, currentId } = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  const run = useSyncExternalStore(runs?.subscribe ?? noSubscribe, runs?.getSnapshot ?? idleRuns);
  const [queueOpen, setQueueOpen] = useState(false);
  const listId = useId();
  const problem = failure ?? run.failure;
  if (suggestions.length === 0 && run.running === null && problem === null) return null;
  const index = suggestions.findIndex((suggestion) => suggestion.id === currentId);
  const current = suggestions[index] ?? null;

  return (
    <div className="pointer-events-none sticky bottom-3 z-30 flex justify-center px-2">
      <div
        role="toolbar"
        aria-label={SUGGESTION_TEXTS.bar}
        data-testid="suggestion-bar"
        className="pointer-events-auto flex max-w-full flex-col gap-2 rounded-box border border-base-300 bg-base-100 p-2 shadow-lg"
      >
        {run.running !== null && (
          <p role="status" className="flex items-center gap-2 text-sm">
            <span className="loading loading-spinner loading-xs" aria-hidden="true" />
            <span className="min-w-0 truncate">
              {run.running.label} — {SUGGESTION_TEXTS.writing}
            </span>
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => runs?.cancel()}>
              {SUGGESTION_TEXTS.cancel}
            </button>
          </p>
        )}
        {problem !== null && (
          <div role="alert" className="flex items-center gap-2 text-sm text-error">
            <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{problem}</span>
            <button
              type="button"
              className="btn btn-ghost btn-xs"
              onClick={() => {
                onDismissFailure();
                runs?.cancel();
              }}
            >
              {SUGGESTION_TEXTS.dismiss}
            </button>
          </div>
        )}
        {current !== null && (
          <>
            <div className="flex min-w-0 flex-wrap items-center gap-x-2 text-sm">
              <strong data-testid="suggestion-position">
                {SUGGESTION_TEXTS.position(index + 1, suggestions.length)}
              </strong>
              <span className="min-w-0 truncate" title={suggestionPlace(current) ?? undefined}>
                {suggestionKind(current)}
                {suggestionPlace(current) !== null && ` · ${suggestionPlace(current)}`}
              </span>
              {current.streaming && (
                <span className="flex items-center gap-1 text-xs" data-testid="suggestion-streaming">
                  <span className="loading loading-dots loading-xs" aria-hidden="true" />
                  {SUGGESTION_TEXTS.writing}
                </span>
              )}
              {current.provider !== null && (
                <span className="badge badge-ghost badge-sm" data-testid="suggestion-provider">
                  {current.provider}
                </span>
              )}
            </div>
            {current.item.problem !== null && (
              <p className="text-sm text-warning-content" data-testid="suggestion-problem">
                {SUGGESTION_TEXTS.noLongerApplies}: {current.item.problem.message}
              </p>
            )}
            <div className="flex flex-wrap items-center gap-1">
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                aria-label={SUGGESTION_TEXTS.previous}
                title={`${SUGGESTION_TEXTS.previous} (Alt+[)`}
                onClick={() => actions.step(-1)}
              >
                ‹
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                aria-label={SUGGESTION_TEXTS.next}
                title={`${SUGGESTION_TEXTS.next} (Alt+])`}
                onClick={() => actions.step(1)}
              >
                ›
              </button>
              <button
                type="button"
                className="btn btn-primary btn-sm"
                data-action="accept"
                disabled={current.item.problem !== null || current.streaming}
                title={`${SUGGESTION_TEXTS.accept} (${SUGGESTION_TEXTS.acceptKeys})`}
                onClick={() => actions.accept(current.id)}
              >
                {SUGGESTION_TEXTS.accept}
              </button>
              <button
                type="button"
                className="btn btn-sm"
                disabled={current.streaming}
                title={`${SUGGESTION_TEXTS.reject} (${SUGGESTION_TEXTS.rejectKeys})`}
                onClick={() => actions.reject(current.id)}
              >
                {SUGGESTION_TEXTS.reject}
              </button>
              {current.origin === 'chat' && current.item.problem !== null && (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => actions.askAgain(current.turnId)}
                >
                  {SUGGESTION_TEXTS.askAgain}
                </button>
              )}
              {current.origin === 'action' && runs?.canRetry(current.turnId) && (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => actions.retry(current.turnId)}
                >
                  {SUGGESTION_TEXTS.tryAgain}
                </button>
              )}
              {current.item.subsectionUuid !== null &&
                inSubsection(suggestions, current.item.subsectionUuid) > 1 &&
                inSubsection(suggestions, current.item.subsectionUuid) < suggestions.length && (
                  <>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      onClick={() => actions.acceptSubsection(current.item.subsectionUuid as string)}
                    >
                      {SUGGESTION_TEXTS.acceptSubsection}
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      onClick={() => actions.rejectSubsection(current.item.subsectionUuid as string)}
                    >
                      {SUGGESTION_TEXTS.rejectSubsection}
                    </button>
                  </>
                )}
              {suggestions.length > 1 && (
                <>
                  <button type="button" className="btn btn-ghost btn-sm" onClick={actions.acceptAll}>
                    {SUGGESTION_TEXTS.acceptAll}
                  </button>
                  <button type="button" className="btn btn-ghost btn-sm" onClick={actions.rejectAll}>
                    {SUGGESTION_TEXTS.rejectAll}
                  </button>
                </>
              )}
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                aria-expanded={queueOpen}
                aria-controls={queueOpen ? listId : undefined}
                onClick={() => setQueueOpen((open) => !open)}
              >
                {SUGGESTION_TEXTS.queue(suggestions.length)}
              </button>
            </div>
            {queueOpen && (
              <ol
                id={listId}
                aria-label={SUGGESTION_TEXTS.queueLabel}
                className="max-h-60 overflow-y-auto p-0"
              >
                {suggestions.map((suggestion, position) => (
                  <QueueEntry
                    key={suggestion.id}
                    suggestion={suggestion}
                    position={position}
                    current={suggestion.id === currentId}
                    onShow={() => actions.show(suggestion.id)}
                  />
                ))}
              </ol>
            )}
          </>
        )}
      </div>
    </div>
  );
}

function QueueEntry(props: {
  suggestion: Suggestion;
  position: number;
  current: boolean;
  onShow(): void;
}): JSX.Element {
  const { suggestion, position, current, onShow } = props;
  const place = suggestionPlace(suggestion);
  return (
    <li className="list-none">
      <button
        type="button"
        className={`btn btn-ghost btn-sm h-auto w-full justify-start py-1 text-left font-normal ${current ? 'btn-active' : ''}`}
        aria-current={current ? 'true' : undefined}
        onClick={onShow}
      >
        <span className="min-w-0 [overflow-wrap:anywhere]">
          {position + 1}. {suggestionKind(suggestion)}
          {place !== null && ` · ${place}`}
          {suggestion.item.problem !== null && ` (${SUGGESTION_TEXTS.noLongerApplies.toLowerCase()})`}
        </span>
      </button>
    </li>
  );
}

function inSubsection(suggestions: readonly Suggestion[], subsectionUuid: string): number {
  return suggestions.filter((suggestion) => suggestion.item.subsectionUuid === subsectionUuid).length;
}

const IDLE: AiActionRunsSnapshot = { running: null, failure: null };

function idleRuns(): AiActionRunsSnapshot {
  return IDLE;
}

function noSubscribe(): () => void {
  return () => {};
}
