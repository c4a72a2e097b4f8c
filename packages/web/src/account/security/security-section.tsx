import {
  type AuthClient,
  type AuthIssue,
  type EmailAddress,
  InvalidInputError,
  type InvalidResult,
  type PersonalToken,
  type TokenCreatedResult,
} from '@planwright/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { Alert } from '../../ui/alert';
import { CopyableSecret } from '../../ui/copyable-secret';
import { LoadError } from '../../ui/load-error';
import { LoadingStatus } from '../../ui/loading-status';
import { TextField } from '../../ui/text-field';
import { TimeLabel } from '../../ui/time-label';
import { CURRENT_USER_QUERY_KEY, EMAIL_ADDRESSES_QUERY_KEY, SECURITY_QUERY_KEY } from '../account-queries';
import { useAccountServices } from '../use-account';
import { deviceLabel } from './device-label';
import { SECURITY_TEXTS as TEXTS, TOKEN_LIFETIME_CHOICES } from './security-texts';

/** Query keys of Profile › Security: under the account's, so a sign-in or sign-out drops them. */
const securityKeys = {
  all: SECURITY_QUERY_KEY,
  session: [...SECURITY_QUERY_KEY, 'session'] as const,
  emails: EMAIL_ADDRESSES_QUERY_KEY,
  sessions: [...SECURITY_QUERY_KEY, 'sessions'] as const,
  tokens: [...SECURITY_QUERY_KEY, 'tokens'] as const,
  totp: [...SECURITY_QUERY_KEY, 'totp'] as const,
};

/** A query of an allauth call whose answer is one result kind (a list): anything else is the query's error. */
function useAllauthQuery<R extends { kind: string }, K extends R['kind'], T>(
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
type Outcome = { kind: 'success' | 'error'; text: string } | null;

/** Unix seconds (allauth's timestamps) as the ISO text `TimeLabel` reads. */
const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The first message of a refused input, for the field or the form. */
function firstIssue(result: InvalidResult, field?: string): string | null {
  const issues: AuthIssue[] = (field ? result.fieldErrors[field] : undefined) ?? result.formErrors;
  return issues[0]?.message ?? Object.values(result.fieldErrors)[0]?.[0]?.message ?? null;
}

/** A result that is not the one hoped for, in words; `null` when the caller handles it. */
function refusal(result: { kind: string }): string {
  if (result.kind === 'rate_limited') return TEXTS.tooMany;
  return TEXTS.failed;
}

/**
 * Profile › Security (docs/auth.md "Sessions, password and tokens"): change (or, for an account made with
 * Google, set) the password; see every device signed in and sign out any of them, or all others; make, list and
 * revoke personal access tokens for scripts. Sensitive steps ask for the password again when the last sign-in is
 * over 5 minutes old.
 */
export function SecuritySection() {
  // The web app's session is the app client's token it keeps (docs/auth.md), so these calls go as the app client.
  const auth = useAccountServices().client.auth;
  const session = useQuery({ queryKey: securityKeys.session, queryFn: () => auth.session() });
  const headingId = useId();
  const user = session.data?.kind === 'authenticated' ? session.data.user : null;
  return (
    <section id="security" aria-labelledby={headingId} className="mt-12 flex flex-col gap-8">
      <header>
        <h2 id={headingId} className="text-2xl font-bold">
          {TEXTS.heading}
        </h2>
        <p className="mt-1 opacity-80">{TEXTS.intro}</p>
      </header>
      {user && <PasswordForm auth={auth} hasPassword={user.has_usable_password} />}
      <EmailAddresses auth={auth} hasPassword={user?.has_usable_password ?? true} />
      <TwoFactor auth={auth} hasPassword={user?.has_usable_password ?? true} />
      <SessionsList auth={auth} />
      <PersonalTokens auth={auth} hasPassword={user?.has_usable_password ?? true} />
    </section>
  );
}

/** How a sensitive step gets allauth's reauthentication when the last sign-in is over 5 minutes old. */
interface Reauthentication {
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
async function sensitive<R extends { kind: string }>(
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

function Subsection({ title, children }: { title: string; children: ReactNode }) {
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

function OutcomeLine({ outcome }: { outcome: Outcome }) {
  return (
    <>
      <output aria-live="polite" className={outcome?.kind === 'success' ? 'block text-sm' : 'sr-only'}>
        {outcome?.kind === 'success' ? outcome.text : ''}
      </output>
      {outcome?.kind === 'error' && <Alert kind="error">{outcome.text}</Alert>}
    </>
  );
}

function PasswordForm({ auth, hasPassword }: { auth: AuthClient; hasPassword: boolean }) {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ current: string | null; next: string | null }>({
    current: null,
    next: null,
  });
  const [outcome, setOutcome] = useState<Outcome>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    setErrors({ current: null, next: null });
    try {
      const result = await auth.changePassword({
        ...(hasPassword ? { currentPassword: current } : {}),
        newPassword: next,
      });
      if (result.kind === 'authenticated') {
        setCurrent('');
        setNext('');
        setOutcome({ kind: 'success', text: hasPassword ? TEXTS.passwordChanged : TEXTS.passwordSet });
        void queryClient.invalidateQueries({ queryKey: securityKeys.all });
      } else if (result.kind === 'invalid') {
        setErrors({
          current: result.fieldErrors.current_password?.[0]?.message ?? null,
          next: result.fieldErrors.new_password?.[0]?.message ?? null,
        });
      } else if (result.kind === 'reauthentication_required') {
        setOutcome({ kind: 'error', text: TEXTS.signInAgainToSet });
      } else {
        setOutcome({ kind: 'error', text: refusal(result) });
      }
    } catch {
      setOutcome({ kind: 'error', text: TEXTS.failed });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Subsection title={hasPassword ? TEXTS.passwordHeading : TEXTS.setPasswordHeading}>
      {!hasPassword && <p className="text-sm opacity-80">{TEXTS.setPasswordIntro}</p>}
      <OutcomeLine outcome={outcome} />
      <form className="flex max-w-md flex-col gap-3" onSubmit={(event) => void submit(event)}>
        {hasPassword && (
          <TextField
            name="current_password"
            label={TEXTS.currentPassword}
            type="password"
            autoComplete="current-password"
            required
            value={current}
            error={errors.current}
            onChange={(event) => setCurrent(event.target.value)}
          />
        )}
        <TextField
          name="new_password"
          label={TEXTS.newPassword}
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          value={next}
          error={errors.next}
          onChange={(event) => setNext(event.target.value)}
        />
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? TEXTS.saving : hasPassword ? TEXTS.changePassword : TEXTS.setPassword}
          </button>
        </div>
      </form>
    </Subsection>
  );
}

/**
 * The account's e-mail addresses (docs/auth.md "E-mail addresses"): the primary one it signs in with, and others
 * to confirm by their link, make primary, or remove. Adding one and making one primary are sensitive.
 */
function EmailAddresses({ auth, hasPassword }: { auth: AuthClient; hasPassword: boolean }) {
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

function SessionsList({ auth }: { auth: AuthClient }) {
  const queryClient = useQueryClient();
  const sessions = useAllauthQuery(
    securityKeys.sessions,
    () => auth.sessions(),
    'sessions',
    (result) => result.sessions,
  );
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);

  const end = async (ids: number[], success: string) => {
    setBusy(true);
    setOutcome(null);
    try {
      const result = await auth.endSessions(ids);
      if (result.kind === 'sessions') {
        queryClient.setQueryData(securityKeys.sessions, result.sessions);
        setOutcome({ kind: 'success', text: success });
      } else if (result.kind !== 'unauthenticated') {
        setOutcome({ kind: 'error', text: refusal(result) });
      }
    } catch {
      setOutcome({ kind: 'error', text: TEXTS.failed });
    } finally {
      setBusy(false);
    }
  };

  let body: ReactNode;
  if (sessions.data) {
    const others = sessions.data.filter((session) => !session.is_current);
    body = (
      <>
        <ul className="flex flex-col divide-y divide-base-300">
          {sessions.data.map((session) => {
            const device = deviceLabel(session.user_agent);
            return (
              <li key={session.id} className="flex flex-wrap items-center gap-2 py-2">
                <div className="min-w-0 flex-1">
                  <p className="font-medium break-words">
                    {device}{' '}
                    {session.is_current && (
                      <span className="badge badge-success badge-sm">{TEXTS.thisDevice}</span>
                    )}
                  </p>
                  <p className="text-sm opacity-80">
                    {session.ip} · {TEXTS.signedIn} <TimeLabel value={isoOf(session.created_at)} />
                    {session.last_seen_at !== undefined && (
                      <>
                        {` · ${TEXTS.lastSeen} `}
                        <TimeLabel value={isoOf(session.last_seen_at)} />
                      </>
                    )}
                  </p>
                </div>
                {!session.is_current && (
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    aria-label={TEXTS.endSessionLabel(device)}
                    disabled={busy}
                    onClick={() => void end([session.id], TEXTS.ended(device))}
                  >
                    {TEXTS.endSession}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
        {others.length > 0 ? (
          <div>
            <button
              type="button"
              className="btn btn-outline btn-sm"
              disabled={busy}
              onClick={() =>
                void end(
                  others.map((session) => session.id),
                  TEXTS.endedOthers,
                )
              }
            >
              {TEXTS.endOthers}
            </button>
          </div>
        ) : (
          <p className="text-sm opacity-80">{TEXTS.onlyThisOne}</p>
        )}
      </>
    );
  } else if (sessions.isError) {
    body = <LoadError title={TEXTS.sessionsFailed} onRetry={() => void sessions.refetch()} />;
  } else {
    body = <LoadingStatus>{TEXTS.sessionsLoading}</LoadingStatus>;
  }
  return (
    <Subsection title={TEXTS.sessionsHeading}>
      <OutcomeLine outcome={outcome} />
      {body}
    </Subsection>
  );
}

function PersonalTokens({ auth, hasPassword }: { auth: AuthClient; hasPassword: boolean }) {
  const queryClient = useQueryClient();
  const tokens = useAllauthQuery(
    securityKeys.tokens,
    () => auth.tokens(),
    'tokens',
    (result) => result.tokens,
  );
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [created, setCreated] = useState<TokenCreatedResult | null>(null);

  const revoke = async (token: PersonalToken) => {
    setOutcome(null);
    try {
      const result = await auth.revokeToken(token.id);
      if (result.kind === 'ok') setOutcome({ kind: 'success', text: TEXTS.revoked(token.name) });
      else setOutcome({ kind: 'error', text: refusal(result) });
    } catch {
      setOutcome({ kind: 'error', text: TEXTS.failed });
    }
    void queryClient.invalidateQueries({ queryKey: securityKeys.tokens });
  };

  let list: ReactNode;
  if (tokens.data) {
    list =
      tokens.data.length === 0 ? (
        <p className="text-sm opacity-80">{TEXTS.noTokens}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-base-300">
          {tokens.data.map((token) => (
            <li key={token.id} className="flex flex-wrap items-center gap-2 py-2">
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words" dir="auto">
                  {token.name} <span className="font-mono text-sm opacity-80">{token.token_hint}…</span>
                </p>
                <p className="text-sm opacity-80">
                  {token.scope === 'read' ? TEXTS.readOnly : TEXTS.readWrite}
                  {token.expires_at !== null && (
                    <>
                      {` · ${TEXTS.expires} `}
                      <TimeLabel value={isoOf(token.expires_at)} />
                    </>
                  )}
                  {' · '}
                  {token.last_used_at === null ? (
                    TEXTS.neverUsed
                  ) : (
                    <>
                      {`${TEXTS.lastUsed} `}
                      <TimeLabel value={isoOf(token.last_used_at)} />
                    </>
                  )}
                </p>
              </div>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                aria-label={TEXTS.revokeLabel(token.name)}
                onClick={() => void revoke(token)}
              >
                {TEXTS.revoke}
              </button>
            </li>
          ))}
        </ul>
      );
  } else if (tokens.isError) {
    list = <LoadError title={TEXTS.tokensFailed} onRetry={() => void tokens.refetch()} />;
  } else {
    list = <LoadingStatus>{TEXTS.tokensLoading}</LoadingStatus>;
  }

  return (
    <Subsection title={TEXTS.tokensHeading}>
      <p className="text-sm opacity-80">{TEXTS.tokensIntro}</p>
      <OutcomeLine outcome={outcome} />
      <NewTokenForm
        auth={auth}
        hasPassword={hasPassword}
        onCreated={(result) => {
          setCreated(result);
          void queryClient.invalidateQueries({ queryKey: securityKeys.tokens });
        }}
      />
      {created && (
        <CopyableSecret label={TEXTS.newToken} value={created.token}>
          <p>{TEXTS.newTokenNote}</p>
        </CopyableSecret>
      )}
      {list}
    </Subsection>
  );
}

function NewTokenForm({
  auth,
  hasPassword,
  onCreated,
}: {
  auth: AuthClient;
  hasPassword: boolean;
  onCreated: (result: TokenCreatedResult) => void;
}) {
  const [name, setName] = useState('');
  const [days, setDays] = useState<number>(90);
  const [readOnly, setReadOnly] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const daysId = useId();

  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await auth.createToken({
        name,
        expiresInDays: days,
        scope: readOnly ? 'read' : 'write',
      });
      if (result.kind === 'token_created') {
        setName('');
        setConfirming(false);
        onCreated(result);
      } else if (result.kind === 'reauthentication_required') {
        if (hasPassword) setConfirming(true);
        else setError(TEXTS.signInAgainToSet);
      } else if (result.kind === 'invalid') {
        setError(firstIssue(result, 'name') ?? TEXTS.failed);
      } else {
        setError(refusal(result));
      }
    } catch (caught) {
      setError(
        caught instanceof Error && caught.name === 'InvalidInputError' ? caught.message : TEXTS.failed,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <form
        className="flex flex-col gap-3 rounded-box border border-base-300 p-3"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            name="token_name"
            label={TEXTS.tokenName}
            placeholder={TEXTS.tokenNamePlaceholder}
            maxLength={100}
            required
            value={name}
            error={error}
            onChange={(event) => setName(event.target.value)}
          />
          <div className="flex flex-col gap-1">
            <label htmlFor={daysId} className="text-sm font-medium">
              {TEXTS.tokenExpires}
            </label>
            <select
              id={daysId}
              className="select w-full"
              value={days}
              onChange={(event) => setDays(Number(event.target.value))}
            >
              {TOKEN_LIFETIME_CHOICES.map((choice) => (
                <option key={choice} value={choice}>
                  {TEXTS.tokenDays(choice)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="checkbox checkbox-sm"
            checked={readOnly}
            onChange={(event) => setReadOnly(event.target.checked)}
          />
          {TEXTS.tokenReadOnly}
        </label>
        <div>
          <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
            {busy ? TEXTS.creating : TEXTS.createToken}
          </button>
        </div>
      </form>
      {confirming && (
        <ConfirmPassword
          auth={auth}
          onConfirmed={() => void create()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </>
  );
}

/** The QR code of an `otpauth://` URL, drawn as SVG by a kept library (uqr); loaded only when setting up. */
function TotpQrCode({ url }: { url: string }) {
  const qr = useQuery({
    queryKey: ['security', 'qr', url],
    // The wrapper is the image people hear about; the SVG inside is drawing only.
    queryFn: async () =>
      (await import('uqr'))
        .renderSVG(url, { border: 2 })
        .replace('<svg ', '<svg aria-hidden="true" focusable="false" '),
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (!qr.data) return <LoadingStatus>{TEXTS.qrLoading}</LoadingStatus>;
  return (
    <div
      role="img"
      aria-label={TEXTS.qrLabel}
      className="w-48 rounded-box bg-white p-2"
      // uqr writes only rects and paths from the URL's bits: no text of ours or the server's reaches the markup.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: an SVG drawn from bits, with nothing to escape.
      dangerouslySetInnerHTML={{ __html: qr.data }}
    />
  );
}

function TwoFactor({ auth, hasPassword }: { auth: AuthClient; hasPassword: boolean }) {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: securityKeys.totp,
    queryFn: async () => {
      const result = await auth.totp();
      if (result.kind !== 'totp_active' && result.kind !== 'totp_offered') throw new Error(result.kind);
      return result;
    },
  });
  const [setting, setSetting] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirming, setConfirming] = useState<null | (() => Promise<void>)>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const reauthentication: Reauthentication = {
    hasPassword,
    confirm: (retry) => setConfirming(() => retry),
    signInAgain: () => setError(TEXTS.signInAgainToChange),
    failed: () => setOutcome({ kind: 'error', text: TEXTS.failed }),
  };

  const newCodes = () =>
    sensitive(
      reauthentication,
      () => auth.regenerateRecoveryCodes(),
      (result) => {
        setConfirming(null);
        if (result.kind === 'recovery_codes') setCodes(result.unusedCodes);
        else setOutcome({ kind: 'error', text: refusal(result) });
      },
    );

  const activate = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    void sensitive(
      reauthentication,
      () => auth.activateTotp(code.trim()),
      (result) => {
        setConfirming(null);
        if (result.kind === 'totp_active') {
          setSetting(false);
          setCode('');
          setOutcome({ kind: 'success', text: TEXTS.twoFactorOn });
          void queryClient.invalidateQueries({ queryKey: securityKeys.totp });
          void newCodes();
        } else if (result.kind === 'invalid') setError(TEXTS.incorrectCode);
        else setError(refusal(result));
      },
    );
  };

  const turnOff = () =>
    void sensitive(
      reauthentication,
      () => auth.deactivateTotp(),
      (result) => {
        setConfirming(null);
        setCodes(null);
        if (result.kind === 'ok') {
          setOutcome({ kind: 'success', text: TEXTS.twoFactorOff });
          void queryClient.invalidateQueries({ queryKey: securityKeys.totp });
        } else setOutcome({ kind: 'error', text: refusal(result) });
      },
    );

  let body: ReactNode;
  if (status.data?.kind === 'totp_active') {
    body = (
      <>
        <p className="text-sm">{TEXTS.twoFactorIsOn}</p>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn btn-sm" onClick={() => void newCodes()}>
            {TEXTS.newRecoveryCodes}
          </button>
          <button type="button" className="btn btn-sm btn-outline btn-error" onClick={turnOff}>
            {TEXTS.turnOff}
          </button>
        </div>
      </>
    );
  } else if (status.data?.kind === 'totp_offered') {
    const offer = status.data;
    body = setting ? (
      <form className="flex flex-col gap-3" onSubmit={activate}>
        <ol className="list-decimal ps-5 text-sm">
          <li>{TEXTS.scan}</li>
          <li>{TEXTS.enterCode}</li>
        </ol>
        <TotpQrCode url={offer.totpUrl} />
        <p className="text-sm">
          {TEXTS.orKey} <code className="break-all font-mono">{offer.secret}</code>
        </p>
        <div className="max-w-xs">
          <TextField
            name="totp_code"
            label={TEXTS.code}
            autoComplete="one-time-code"
            inputMode="numeric"
            required
            value={code}
            error={error}
            onChange={(event) => setCode(event.target.value)}
          />
        </div>
        <div className="flex gap-2">
          <button type="submit" className="btn btn-primary btn-sm">
            {TEXTS.turnOn}
          </button>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setSetting(false)}>
            {TEXTS.cancel}
          </button>
        </div>
      </form>
    ) : (
      <>
        <p className="text-sm">{TEXTS.twoFactorIntro}</p>
        <div>
          <button type="button" className="btn btn-sm" onClick={() => setSetting(true)}>
            {TEXTS.setUp}
          </button>
        </div>
      </>
    );
  } else if (status.isError) {
    body = <LoadError title={TEXTS.twoFactorFailed} onRetry={() => void status.refetch()} />;
  } else {
    body = <LoadingStatus>{TEXTS.twoFactorLoading}</LoadingStatus>;
  }
  return (
    <Subsection title={TEXTS.twoFactorHeading}>
      <OutcomeLine outcome={outcome} />
      {body}
      {!setting && error && <Alert kind="error">{error}</Alert>}
      {confirming && (
        <ConfirmPassword
          auth={auth}
          onConfirmed={() => void confirming()}
          onCancel={() => setConfirming(null)}
        />
      )}
      {codes && (
        <div className="flex flex-col gap-2 rounded-box bg-base-200 p-3 text-sm">
          <p className="font-medium">{TEXTS.recoveryCodesHeading}</p>
          <p>{TEXTS.recoveryCodesNote}</p>
          <ul className="grid grid-cols-2 gap-1 font-mono" aria-label={TEXTS.recoveryCodesHeading}>
            {codes.map((entry) => (
              <li key={entry}>{entry}</li>
            ))}
          </ul>
          <CopyableSecret label={TEXTS.copyAllCodes} value={codes.join(' ')} />
        </div>
      )}
    </Subsection>
  );
}

/** allauth's reauthentication, inline: the password again, then what was asked goes on. */
function ConfirmPassword({
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
