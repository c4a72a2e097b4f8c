import type { AuthClient, AuthIssue, InvalidResult } from '@planwright/sdk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Alert } from '../../ui/alert';
import { TextField } from '../../ui/text-field';
import { EMAIL_ADDRESSES_QUERY_KEY, SECURITY_QUERY_KEY } from '../account-queries';
import { SECURITY_TEXTS as TEXTS } from './security-texts';

/** Query keys of Profile › Security: under the account's, so a sign-in or sign-out drops them. */
export const securityKeys = {
  all: SECURITY_QUERY_KEY,
  session: [...SECURITY_QUERY_KEY, 'session'] as const,
  emails: EMAIL_ADDRESSES_QUERY_KEY,
  sessions: [...SECURITY_QUERY_KEY, 'sessions'] as const,
  tokens: [...SECURITY_QUERY_KEY, 'tokens'] as const,
  totp: [...SECURITY_QUERY_KEY, 'totp'] as const,
};

/** A query of an allauth call whose answer is one result kind (a list): anything else is the query's error. */
export function useAllauthQuery<R extends { kind: string }, K extends R['kind'], T>(
  queryKey: readonly string[],
  call: () => Promise<R>,
  kind: K,
  pick: (result: Extract<R, { kind: K }>) => T,
) {
  return useQuery({
    queryKey,
    queryFn: async (): Promise<T> => {
      const result = await call();
      if (result.kind !== kind) throw new Error(result.kind);
      return pick(result as Extract<R, { kind: K }>);
    },
  });
}

/** What the last action said. */
export type Outcome = { kind: 'success' | 'error'; text: string } | null;

/** Unix seconds (allauth's timestamps) as the ISO text `TimeLabel` reads. */
export const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The first message of a refused input, for the field or the form. */
export function firstIssue(result: InvalidResult, field?: string): string | null {
  const issues: AuthIssue[] = (field ? result.fieldErrors[field] : undefined) ?? result.formErrors;
  return issues[0]?.message ?? Object.values(result.fieldErrors)[0]?.[0]?.message ?? null;
}

/** A result that is not the one hoped for, in words; `null` when the caller handles it. */
export function refusal(result: { kind: string }): string {
  if (result.kind === 'rate_limited') return TEXTS.tooMany;
  return TEXTS.failed;
}

/** How a sensitive step gets allauth's reauthentication when the last sign-in is over 5 minutes old. */
export interface Reauthentication {
  /** Whether the account has a password to confirm; without one (made with Google) the way back is to sign in. */
  hasPassword: boolean;
  /** Shows {@link ConfirmPassword}; `retry` runs the step again once the password is right. */
  confirm: (retry: () => Promise<void>) => void;
  /** Says to sign in again (an account without a password). */
  signInAgain: () => void;
  /** Says the step did not work (the network, the server). */
  failed: () => void;
}

/** Runs a sensitive step; asks for the password first when the sign-in is too old, then runs it again. */
export async function sensitive<R extends { kind: string }>(
  reauthentication: Reauthentication,
  step: () => Promise<R>,
  done: (result: R) => void,
): Promise<void> {
  const attempt = async () => {
    try {
      return await step();
    } catch {
      reauthentication.failed();
      return undefined;
    }
  };
  const result = await attempt();
  if (!result) return;
  if (result.kind === 'reauthentication_required') {
    if (reauthentication.hasPassword)
      reauthentication.confirm(async () => {
        const retried = await attempt();
        if (retried) done(retried);
      });
    else reauthentication.signInAgain();
    return;
  }
  done(result);
}

/** One part of the Security section, with its heading. */
export function Subsection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h3 id={id} className="text-lg font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** The last action's confirmation (announced politely) or its refusal (an alert). */
export function OutcomeLine({ outcome }: { outcome: Outcome }) {
  return (
    <>
      <output aria-live="polite" className={outcome?.kind === 'success' ? 'block text-sm' : 'sr-only'}>
        {outcome?.kind === 'success' ? outcome.text : ''}
      </output>
      {outcome?.kind === 'error' && <Alert kind="error">{outcome.text}</Alert>}
    </>
  );
}

/** allauth's reauthentication, inline: the password again, then what was asked goes on. */
export function ConfirmPassword({
  auth,
  onConfirmed,
  onCancel,
}: {
  auth: AuthClient;
  onConfirmed: () => void;
  onCancel: () => void;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await auth.reauthenticate(password);
      if (result.kind === 'authenticated') onConfirmed();
      else if (result.kind === 'invalid') setError(firstIssue(result, 'password') ?? TEXTS.failed);
      else setError(refusal(result));
    } catch {
      setError(TEXTS.failed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      aria-labelledby={headingId}
      className="flex max-w-md flex-col gap-3 rounded-box bg-base-200 p-3"
      onSubmit={(event) => void submit(event)}
    >
      <h4 id={headingId} className="font-semibold">
        {TEXTS.confirmHeading}
      </h4>
      <p className="text-sm">{TEXTS.confirmIntro}</p>
      <TextField
        name="password"
        label={TEXTS.password}
        type="password"
        autoComplete="current-password"
        required
        // The form appears because the person asked for it; the field is what they type next.
        autoFocus
        value={password}
        error={error}
        onChange={(event) => setPassword(event.target.value)}
      />
      <div className="flex gap-2">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          {TEXTS.confirm}
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
          {TEXTS.cancel}
        </button>
      </div>
    </form>
  );
}
