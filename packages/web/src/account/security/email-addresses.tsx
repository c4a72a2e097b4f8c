import { type AuthClient, type EmailAddress, InvalidInputError, type InvalidResult } from '@planwright/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { LoadError } from '../../ui/load-error';
import { LoadingStatus } from '../../ui/loading-status';
import { TextField } from '../../ui/text-field';
import { CURRENT_USER_QUERY_KEY } from '../account-queries';
import {
  ConfirmPassword,
  firstIssue,
  type Outcome,
  OutcomeLine,
  type Reauthentication,
  refusal,
  Subsection,
  securityKeys,
  sensitive,
  useAllauthQuery,
} from './security-parts';
import { SECURITY_TEXTS as TEXTS } from './security-texts';

/**
 * The account's e-mail addresses (docs/auth.md "E-mail addresses"): the primary one it signs in with, and others
 * to confirm by their link, make primary, or remove. Adding one and making one primary are sensitive.
 */
export function EmailAddresses({ auth, hasPassword }: { auth: AuthClient; hasPassword: boolean }) {
  const queryClient = useQueryClient();
  const addresses = useAllauthQuery(
    securityKeys.emails,
    () => auth.emailAddresses(),
    'email_addresses',
    (result) => result.addresses,
  );
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const [adding, setAdding] = useState(false);
  const [confirming, setConfirming] = useState<null | (() => Promise<void>)>(null);
  const [newEmail, setNewEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);

  /** Runs an action with the buttons held, and says so when it fails on the way. */
  const guarded = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch {
      setOutcome({ kind: 'error', text: TEXTS.failed });
    } finally {
      setBusy(false);
    }
  };

  const reauthentication: Reauthentication = {
    hasPassword,
    confirm: (retry) => setConfirming(() => () => guarded(retry)),
    signInAgain: () => setOutcome({ kind: 'error', text: TEXTS.signInAgainToChange }),
    failed: () => setOutcome({ kind: 'error', text: TEXTS.failed }),
  };

  /** A refused answer in words: the server's message about the address, or the general ones. */
  const refused = (result: { kind: string }) => {
    const text = result.kind === 'invalid' ? firstIssue(result as InvalidResult, 'email') : null;
    setOutcome({ kind: 'error', text: text ?? refusal(result) });
  };

  const listed = (list: EmailAddress[], text: string) => {
    queryClient.setQueryData(securityKeys.emails, list);
    setOutcome({ kind: 'success', text });
  };

  const start = (action: () => Promise<void>) => {
    setOutcome(null);
    setFieldError(null);
    setConfirming(null);
    void guarded(action);
  };

  const makePrimary = (email: string) =>
    start(() =>
      sensitive(
        reauthentication,
        () => auth.makePrimaryEmail(email),
        (result) => {
          setConfirming(null);
          if (result.kind !== 'email_addresses') return refused(result);
          listed(result.addresses, TEXTS.madePrimary(email));
          // The sign-in address changed: the profile's e-mail and the session's user follow.
          void queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY });
          void queryClient.invalidateQueries({ queryKey: securityKeys.session });
        },
      ),
    );

  const resend = (email: string) =>
    start(async () => {
      const result = await auth.resendEmailVerification(email);
      if (result.kind === 'ok') setOutcome({ kind: 'success', text: TEXTS.linkResent(email) });
      else refused(result);
    });

  const remove = (email: string) =>
    start(async () => {
      const result = await auth.removeEmail(email);
      if (result.kind !== 'email_addresses') return refused(result);
      listed(result.addresses, TEXTS.emailRemoved(email));
      // Its buttons are gone: the list keeps the keyboard's place.
      listRef.current?.focus();
    });

  const add = (event: FormEvent) => {
    event.preventDefault();
    const email = newEmail.trim();
    start(async () => {
      setAdding(true);
      try {
        await sensitive(
          reauthentication,
          () => auth.addEmail(email),
          (result) => {
            setConfirming(null);
            if (result.kind === 'email_addresses') {
              setNewEmail('');
              listed(result.addresses, TEXTS.emailAdded(email));
            } else if (result.kind === 'invalid') {
              setFieldError(firstIssue(result, 'email') ?? TEXTS.failed);
            } else refused(result);
          },
        );
      } catch (caught) {
        if (!InvalidInputError.isInstance(caught)) throw caught;
        setFieldError(caught.issues[0]?.message ?? TEXTS.failed);
      } finally {
        setAdding(false);
      }
    });
  };

  let list: ReactNode;
  if (addresses.data) {
    list = (
      <ul
        ref={listRef}
        tabIndex={-1}
        aria-label={TEXTS.emailsHeading}
        className="flex flex-col divide-y divide-base-300 outline-none"
      >
        {addresses.data.map((address) => (
          <li key={address.email} className="flex flex-wrap items-center gap-2 py-2">
            <div className="flex min-w-0 flex-1 flex-wrap items-center gap-2">
              <span className="min-w-0 font-medium break-all">{address.email}</span>
              {address.primary && <span className="badge badge-primary badge-sm">{TEXTS.primary}</span>}
              {address.verified ? (
                <span className="badge badge-success badge-sm">{TEXTS.verified}</span>
              ) : (
                <span className="badge badge-warning badge-sm">{TEXTS.unverified}</span>
              )}
            </div>
            {!address.primary && (
              <div className="flex flex-wrap gap-1">
                {address.verified ? (
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    aria-label={TEXTS.makePrimaryLabel(address.email)}
                    disabled={busy}
                    onClick={() => makePrimary(address.email)}
                  >
                    {TEXTS.makePrimary}
                  </button>
                ) : (
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    aria-label={TEXTS.resendLinkLabel(address.email)}
                    disabled={busy}
                    onClick={() => resend(address.email)}
                  >
                    {TEXTS.resendLink}
                  </button>
                )}
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={TEXTS.removeEmailLabel(address.email)}
                  disabled={busy}
                  onClick={() => remove(address.email)}
                >
                  {TEXTS.removeEmail}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
    );
  } else if (addresses.isError) {
    list = <LoadError title={TEXTS.emailsFailed} onRetry={() => void addresses.refetch()} />;
  } else {
    list = <LoadingStatus>{TEXTS.emailsLoading}</LoadingStatus>;
  }

  return (
    <Subsection title={TEXTS.emailsHeading}>
      <p className="text-sm opacity-80">{TEXTS.emailsIntro}</p>
      <OutcomeLine outcome={outcome} />
      {list}
      <form className="flex max-w-md flex-col gap-3" onSubmit={add}>
        <TextField
          name="new_email"
          label={TEXTS.addEmail}
          type="email"
          autoComplete="email"
          maxLength={254}
          required
          value={newEmail}
          error={fieldError}
          onChange={(event) => setNewEmail(event.target.value)}
        />
        <div>
          <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
            {adding ? TEXTS.adding : TEXTS.add}
          </button>
        </div>
      </form>
      {confirming && (
        <ConfirmPassword
          auth={auth}
          onConfirmed={() => void confirming()}
          onCancel={() => setConfirming(null)}
        />
      )}
    </Subsection>
  );
}
