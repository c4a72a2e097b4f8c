import type { AuthClient, PersonalToken, TokenCreatedResult } from '@planwright/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { CopyableSecret } from '../../ui/copyable-secret';
import { LoadError } from '../../ui/load-error';
import { LoadingStatus } from '../../ui/loading-status';
import { TextField } from '../../ui/text-field';
import { TimeLabel } from '../../ui/time-label';
import {
  ConfirmPassword,
  firstIssue,
  isoOf,
  type Outcome,
  OutcomeLine,
  refusal,
  Subsection,
  securityKeys,
  useAllauthQuery,
} from './security-parts';
import { SECURITY_TEXTS as TEXTS, TOKEN_LIFETIME_CHOICES } from './security-texts';

/** Profile › Security › Personal access tokens: make one (shown once), see when each was last used, revoke. */
export function PersonalTokens({ auth, hasPassword }: { auth: AuthClient; hasPassword: boolean }) {
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
