import { EMAIL_VERIFICATION_TEXTS } from '@planwright/sdk';
import { type FormEvent, useState } from 'react';
import { Alert } from '../ui/alert';
import { TextField } from '../ui/text-field';
import { EMAIL_VERIFICATION_PAGE_TEXTS as TEXTS } from './account-texts';
import { emailError } from './password-reset-request-flow';
import { useResend } from './use-resend';

/** The verification page's resend form: an address, a button, and what came of it. */
export function ResendVerificationForm() {
  const [state, send] = useResend();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = emailError(email);
    setError(problem);
    if (problem === null) send({ type: 'resend', email });
  };
  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="grid gap-4 border-t border-base-300 pt-5"
      aria-labelledby="resend-title"
    >
      <div className="grid gap-1">
        <h2 id="resend-title" className="font-semibold">
          {TEXTS.resendTitle}
        </h2>
        <p className="text-sm opacity-80">{TEXTS.resendIntro}</p>
      </div>
      <TextField
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={error}
      />
      {state.status === 'sent' && <Alert kind="success">{TEXTS.resent}</Alert>}
      {state.status === 'failed' && <Alert kind="error">{EMAIL_VERIFICATION_TEXTS.resendFailed}</Alert>}
      <button type="submit" className="btn btn-outline w-full" disabled={state.status === 'sending'}>
        {state.status === 'sending' && (
          <span className="loading loading-spinner loading-sm" aria-hidden="true" />
        )}
        {state.status === 'sending' ? TEXTS.resending : TEXTS.resend}
      </button>
    </form>
  );
}
