import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { AccountFrame } from '../../account/account-frame';
import { PASSWORD_RESET_PAGE_TEXTS as TEXTS } from '../../account/account-texts';
import {
  passwordResetRequestMachine,
  performPasswordResetRequest,
} from '../../account/password-reset-request-flow';
import { SIGN_IN_PATH } from '../../account/return-path';
import { useAccountServices } from '../../account/use-account';
import { Flow } from '../../state/flow';
import { useFlow, useLatest } from '../../state/use-flow';
import { Alert } from '../../ui/alert';
import { SubmitButton } from '../../ui/submit-button';
import { TextField } from '../../ui/text-field';

const backToSignIn = (
  <Link to={SIGN_IN_PATH} className="link link-primary">
    {TEXTS.backToSignIn}
  </Link>
);

/** `/account/password/reset` (spec 000 §2, §4 "Password reset request"): always the same result. */
export function PasswordResetRequestPage() {
  const services = useAccountServices();
  const latest = useLatest(services);
  const [state, send] = useFlow(
    () =>
      new Flow(passwordResetRequestMachine, {
        clock: services.ports.clock,
        perform: performPasswordResetRequest(() => ({
          requestPasswordReset: (email) => latest().client.auth.requestPasswordReset(email),
        })),
      }),
  );
  const [email, setEmail] = useState('');

  if (state.status === 'done') {
    return (
      <AccountFrame title={TEXTS.requestDoneTitle} footer={backToSignIn}>
        <Alert kind="success">{TEXTS.requestDone(state.email)}</Alert>
      </AccountFrame>
    );
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    send({ type: 'submit', email });
  };
  return (
    <AccountFrame title={TEXTS.requestTitle} intro={TEXTS.requestIntro} footer={backToSignIn}>
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <TextField
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={state.status === 'editing' ? state.emailError : null}
        />
        <SubmitButton busy={state.status === 'submitting'} busyLabel={TEXTS.requestSubmitting}>
          {TEXTS.requestSubmit}
        </SubmitButton>
      </form>
    </AccountFrame>
  );
}
