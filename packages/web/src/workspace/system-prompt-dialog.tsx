import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { usePlanwrightClient } from '../api/use-planwright-client';
import { Dialog } from '../ui/dialog';
import { LoadError } from '../ui/load-error';
import { LoadingStatus } from '../ui/loading-status';
import { SYSTEM_PROMPT_TEXTS as TEXTS } from './workspace-texts';

/** The global system prompt's query key: one prompt for everyone, read again after a minute. */
export const SYSTEM_PROMPT_KEY = ['system-prompt'] as const;

/**
 * The global system prompt in force, read-only (read when this first shows; any signed-in user may read it),
 * with its loading and failure states. `label` names the text area.
 */
export function GlobalSystemPrompt({
  label,
  className,
}: {
  label: { name: string } | { by: string };
  className: string;
}) {
  const client = usePlanwrightClient();
  const prompt = useQuery({
    queryKey: SYSTEM_PROMPT_KEY,
    queryFn: ({ signal }) => client.systemPrompt.get({ signal }),
    staleTime: 60_000,
  });
  if (prompt.data !== undefined) {
    return (
      <textarea
        readOnly
        {...('name' in label ? { 'aria-label': label.name } : { 'aria-labelledby': label.by })}
        dir="auto"
        className={`textarea w-full font-mono text-sm ${className}`}
        value={prompt.data}
      />
    );
  }
  if (prompt.isError) return <LoadError title={TEXTS.loadFailed} onRetry={() => void prompt.refetch()} />;
  return <LoadingStatus>{TEXTS.loading}</LoadingStatus>;
}

/**
 * W10: File › System Prompt shows the global system prompt (`GET apps/global-system-prompt/`), read-only:
 * administrators manage it (spec 001 §2, §6). Read when the dialog opens, never before.
 */
export function SystemPromptDialog({ onClose }: { onClose: () => void }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog title={TEXTS.heading} onClose={onClose} initialFocus={closeRef}>
      <div className="mt-3 flex flex-col gap-4">
        <p className="text-sm opacity-80">{TEXTS.intro}</p>
        <GlobalSystemPrompt label={{ name: TEXTS.heading }} className="h-72" />
        <div className="modal-action mt-0">
          <button ref={closeRef} type="button" className="btn" onClick={onClose}>
            {TEXTS.close}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
