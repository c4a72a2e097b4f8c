import type { AuthClient } from '@planwright/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Alert } from '../../ui/alert';
import { CopyableSecret } from '../../ui/copyable-secret';
import { LoadError } from '../../ui/load-error';
import { LoadingStatus } from '../../ui/loading-status';
import { TextField } from '../../ui/text-field';
import {
  ConfirmPassword,
  type Outcome,
  OutcomeLine,
  type Reauthentication,
  refusal,
  Subsection,
  securityKeys,
  sensitive,
} from './security-parts';
import { SECURITY_TEXTS as TEXTS } from './security-texts';

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

/** Profile › Security › Two-factor authentication: set TOTP up from a QR code, new recovery codes, turn it off. */
export function TwoFactor({ auth, hasPassword }: { auth: AuthClient; hasPassword: boolean }) {
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
