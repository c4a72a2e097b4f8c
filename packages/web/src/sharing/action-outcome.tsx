import { useCallback, useState } from 'react';
import { Alert } from '../ui/alert';
import { sharingFailure } from './sharing-queries';

/** What the last action said: a confirmation (announced politely) or a refusal (as an alert). */
export type Outcome = { kind: 'success' | 'error'; text: string } | null;

/** Runs `call`; answers whether it worked. `success` is what to confirm (`null`: nothing to say). */
export type RunAction = (call: () => Promise<unknown>, success: string | null) => Promise<boolean>;

/**
 * The actions of a sharing screen (Share, the team page, version history): each says what it did, or shows the
 * server's own sentence for why it was refused (`failed` when the server gave none).
 */
export function useActionOutcome(failed: string): { outcome: Outcome; run: RunAction } {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const run = useCallback<RunAction>(
    async (call, success) => {
      setOutcome(null);
      try {
        await call();
        if (success) setOutcome({ kind: 'success', text: success });
        return true;
      } catch (error) {
        setOutcome({ kind: 'error', text: sharingFailure(error, failed) });
        return false;
      }
    },
    [failed],
  );
  return { outcome, run };
}

/** The last action's confirmation, for screen readers and the eye, or its refusal as an alert. */
export function OutcomeMessage({ outcome }: { outcome: Outcome }) {
  return (
    <>
      <output aria-live="polite" className={outcome?.kind === 'success' ? 'block text-sm' : 'sr-only'}>
        {outcome?.kind === 'success' ? outcome.text : ''}
      </output>
      {outcome?.kind === 'error' && <Alert kind="error">{outcome.text}</Alert>}
    </>
  );
}
