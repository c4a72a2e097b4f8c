import type { MfaResult } from '@planwright/sdk';
import { type FormEvent, useState } from 'react';
import { Alert } from '../ui/alert';
import { SubmitButton } from '../ui/submit-button';
import { TextField } from '../ui/text-field';
import { AccountFrame } from './account-frame';

/** The words of the sign-in's second step (docs/auth.md "Two-factor authentication"). */
export const SECOND_FACTOR_TEXTS = {
  title: 'Two-factor authentication',
  intro: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  code: 'Code',
  submit: 'Verify',
  submitting: 'Verifying…',
  incorrect: 'Incorrect code. Check the code in your app and try again.',
  tooMany: 'Too many wrong codes. Wait a few minutes and try again.',
  expired: 'This sign-in has expired. Sign in again.',
  failed: 'That did not work. Please try again.',
} as const;

/** What an answer to a code says to the person, or null when it signed them in. */
function messageOf(result: MfaResult): string | null {
  switch (result.kind) {
    case 'authenticated':
      return null;
    case 'invalid':
      return SECOND_FACTOR_TEXTS.incorrect;
    case 'rate_limited':
      return SECOND_FACTOR_TEXTS.tooMany;
    case 'unauthenticated':
    case 'session_gone':
      return SECOND_FACTOR_TEXTS.expired;
    default:
      return SECOND_FACTOR_TEXTS.failed;
  }
}

/**
 * The second step of a sign-in whose password (or Google) was right: a TOTP code or a recovery code. `authenticate`
 * is the client's `mfaAuthenticate` (the app client after a password, the browser client after Google).
 */
export function SecondFactorForm({
  authenticate,
  onSignedIn,
}: {
  authenticate: (code: string) => Promise<MfaResult>;
  onSignedIn: () => void;
}) {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') return;
    setBusy(true);
    setMessage(null);
    try {
      const result = await authenticate(code.trim());
      const refusal = messageOf(result);
      if (refusal === null) onSignedIn();
      else setMessage(refusal);
    } catch {
      setMessage(SECOND_FACTOR_TEXTS.failed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <AccountFrame title={SECOND_FACTOR_TEXTS.title} intro={SECOND_FACTOR_TEXTS.intro}>
      <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4">
        {message && <Alert kind="error">{message}</Alert>}
        <TextField
          name="code"
          label={SECOND_FACTOR_TEXTS.code}
          autoComplete="one-time-code"
          required
          maxLength={64}
          // The code is what the person came here to type.
          autoFocus
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
        <SubmitButton busy={busy} busyLabel={SECOND_FACTOR_TEXTS.submitting}>
          {SECOND_FACTOR_TEXTS.submit}
        </SubmitButton>
      </form>
    </AccountFrame>
  );
}
