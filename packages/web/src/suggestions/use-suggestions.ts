import type { AiProviderInfo, PlanwrightClient } from '@planwright/sdk';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Editor } from '@tiptap/core';
import { useEffect, useMemo, useState } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import {
  type AiActionRefusal,
  AiActionRuns,
  revealSuggestion,
  type SuggestionLayerActions,
  setSuggestionLayer,
} from '../editor';
import type { PlanWorkspace } from '../workspace/plan-workspace';
import type { SuggestionBarActions } from './suggestion-bar';

/** `GET apps/ai/provider/`: who answers and what it can do; rarely changes. */
export function aiProviderQuery(client: PlanwrightClient) {
  return queryOptions({
    queryKey: ['ai-provider'] as const,
    queryFn: ({ signal }) => client.ai.provider({ signal }),
    staleTime: 5 * 60_000,
  });
}

/** The words of an action that needs a model the server has not got (E45). */
export const MODEL_NEEDED_TEXT = 'Needs an AI model: ask your administrator to connect one.';

/**
 * Which AI actions the provider can honestly do (E45): those the server lists as available (a model: all eight;
 * offline: the ones done on this machine), and the free prompt only with a model.
 */
export function aiActionAvailability(info: AiProviderInfo | undefined): AiActionRefusal {
  return (action) => {
    if (info === undefined) return null;
    if (action === 'custom') return info.offline ? MODEL_NEEDED_TEXT : null;
    const listed = info.actions.find((candidate) => candidate.action === action);
    return listed === undefined || listed.available ? null : MODEL_NEEDED_TEXT;
  };
}

/**
 * The plan's suggestions in one editor (W50–W53): the queue drawn in the text and kept there, the decisions
 * of the canvas, the bar and the keyboard, and the AI actions that add to it.
 */
export function useSuggestions(
  workspace: Pick<PlanWorkspace, 'suggestions' | 'kind' | 'uuid'> & Partial<Pick<PlanWorkspace, 'askAgain'>>,
  editor: Editor | null,
) {
  const client = usePlanwrightClient();
  const queue = workspace.suggestions;
  const [failure, setFailure] = useState<string | null>(null);
  const provider = useQuery(aiProviderQuery(client));
  const runs = useMemo(
    () =>
      editor === null
        ? null
        : // A blueprint's text has AI actions too; only a document's calls count for a document.
          new AiActionRuns(editor, client, queue, workspace.kind === 'document' ? workspace.uuid : null),
    [editor, client, queue, workspace],
  );
  useEffect(() => () => runs?.dispose(), [runs]);

  const actions = useMemo<SuggestionLayerActions & SuggestionBarActions>(() => {
    const outcome = (result: { ok: true } | { ok: false; message: string }) => {
      setFailure(result.ok ? null : result.message);
      // The bar leaves with the last suggestion: the focus goes back to the text rather than to the page.
      if (
        result.ok &&
        queue.getSnapshot().suggestions.length === 0 &&
        editor !== null &&
        !editor.isDestroyed
      ) {
        editor.commands.focus();
      }
    };
    const show = (id: string | null) => {
      if (id !== null && editor !== null) revealSuggestion(editor, id);
    };
    return {
      accept: (id) => outcome(queue.accept(id)),
      reject: (id) => outcome(queue.reject(id)),
      acceptAll: () => outcome(queue.acceptAll()),
      rejectAll: () => outcome(queue.rejectAll()),
      acceptSubsection: (subsectionUuid) => outcome(queue.acceptAll({ subsectionUuid })),
      rejectSubsection: (subsectionUuid) => outcome(queue.rejectAll({ subsectionUuid })),
      select: (id) => queue.select(id),
      step: (direction) => show(queue.step(direction)),
      show: (id) => {
        queue.select(id);
        show(id);
      },
      retry: (turnId) => {
        runs?.retry(turnId);
      },
      askAgain: (turnId) => workspace.askAgain?.(turnId),
    };
  }, [queue, editor, runs, workspace]);

  useEffect(() => {
    if (editor === null) return;
    const draw = () => setSuggestionLayer(editor, queue.getSnapshot(), actions);
    draw();
    return queue.subscribe(draw);
  }, [editor, queue, actions]);

  const ai = useMemo(
    () =>
      runs === null
        ? null
        : {
            runs,
            availability: aiActionAvailability(provider.data),
            offline: provider.data?.offline ?? false,
          },
    [runs, provider.data],
  );
  return { queue, runs, ai, actions, failure, dismissFailure: () => setFailure(null) };
}
