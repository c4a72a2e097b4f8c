import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { Dialog } from '../ui/dialog';
import { LoadError } from '../ui/load-error';
import { LoadingStatus } from '../ui/loading-status';
import { SYSTEM_PROMPT_TEXTS as TEXTS } from './workspace-texts';

/** The global system prompt's query key: one prompt for everyone, read again after a minute. */
export const SYSTEM_PROMPT_KEY = ['system-prompt'] as const;

/** The global system prompt in force, read when first asked for (any signed-in user may read it). */
export function useGlobalSystemPrompt() {
  const client = usePlanwrightClient();
  return useQuery({
    queryKey: SYSTEM_PROMPT_KEY,
    queryFn: ({ signal }) => client.systemPrompt.get({ signal }),
    staleTime: 60_000,
  });
}

/**
 * W10: File › System Prompt shows the global system prompt (`GET apps/global-system-prompt/`), read-only:
 * administrators manage it (spec 001 §2, §6). Read when the dialog opens, never before.
 */
export function SystemPromptDialog({ onClose }: { onClose: () => void }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const prompt = useGlobalSystemPrompt();
  return (
    <Dialog title={TEXTS.heading} onClose={onClose} initialFocus={closeRef}>
      <div className="mt-3 flex flex-col gap-4">
        <p className="text-sm opacity-80">{TEXTS.intro}</p>
        {prompt.data !== undefined ? (
          <textarea
            readOnly
            aria-label={TEXTS.heading}
            dir="auto"
            className="textarea h-72 w-full font-mono text-sm"
            value={prompt.data}
          />
        ) : prompt.isError ? (
          <LoadError title={TEXTS.loadFailed} onRetry={() => void prompt.refetch()} />
        ) : (
          <LoadingStatus>{TEXTS.loading}</LoadingStatus>
        )}
        <div className="modal-action mt-0">
          <button ref={closeRef} type="button" className="btn" onClick={onClose}>
            {TEXTS.close}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
