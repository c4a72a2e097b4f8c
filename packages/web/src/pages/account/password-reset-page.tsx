import type { PasswordResetForm } from '@planwright/sdk';
import { type FormEvent, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { AccountFrame, Working } from '../../account/account-frame';
import { PASSWORD_RESET_PAGE_TEXTS as TEXTS } from '../../account/account-texts';
import { passwordResetMachine, performPasswordReset } from '../../account/password-reset-flow';
import { DEFAULT_RETURN_PATH, SIGN_IN_PATH } from '../../account/return-path';
import { useAccountServices } from '../../account/use-account';
import { Flow } from '../../state/flow';
import { useFlow, useLatest } from '../../state/use-flow';
import { Alert } from '../../ui/alert';
import { SubmitButton } from '../../ui/submit-button';
import { TextField } from '../../ui/text-field';
import { useFocusFirstError } from '../../ui/use-focus-first-error';

const FIELD_ORDER = ['password', 'confirm_password'] as const;
const NO_ERRORS = {};

/** `/account/password/reset/key/{key}` (spec 000 §2, §4 "Password reset with key", §8 "Reset"). */
export function PasswordResetPage() {
  const { key = '' } = useParams();
  return <PasswordReset key={key} resetKey={key} />;
}

function PasswordReset({ resetKey }: { resetKey: string }) {
  const services = useAccountServices();
  const latest = useLatest(services);
  const [state, send] = useFlow(
    () =>
      new Flow(passwordResetMachine(resetKey), {
        clock: services.ports.clock,
        perform: performPasswordReset(() => {
          const { client, navigate } = latest();
          return {
            getPasswordReset: (key) => client.auth.getPasswordReset(key),
            resetPassword: (input) => client.auth.resetPassword(input),
            go: (to) => navigate(to, { replace: true }),
          };
        }),
      }),
  );
  const [values, setValues] = useState<PasswordResetForm>({ password: '', confirm_password: '' });
  const formRef = useRef<HTMLFormElement>(null);
  const fieldErrors =
    state.status === 'editing' || state.status === 'submitting' ? state.fieldErrors : NO_ERRORS;
  useFocusFirstError(formRef, fieldErrors, FIELD_ORDER);

  switch (state.status) {
    case 'checking':
      return (
        <AccountFrame title={TEXTS.title}>
          <Working>{TEXTS.checking}</Working>
        </AccountFrame>
      );
    case 'done': {
      const signedIn = state.next === DEFAULT_RETURN_PATH;
      return (
        <AccountFrame title={TEXTS.doneTitle}>
          <Alert kind="success">{signedIn ? TEXTS.doneSignedIn : TEXTS.doneToSignIn}</Alert>
          <Link to={state.next} replace className="btn btn-primary w-full">
            {signedIn ? TEXTS.goToDashboard : TEXTS.goToSignIn}
          </Link>
        </AccountFrame>
      );
    }
    case 'expired':
      return (
        <AccountFrame
          title={TEXTS.expiredTitle}
          footer={
            <Link to={SIGN_IN_PATH} className="link link-primary">
              {TEXTS.backToSignIn}
            </Link>
          }
        >
          <Alert kind="error">{state.message}</Alert>
          <Link to="/account/password/reset" className="btn btn-primary w-full">
            {TEXTS.requestNew}
          </Link>
        </AccountFrame>
      );
    default: {
      const onSubmit = (event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        send({ type: 'submit', form: values });
      };
      return (
        <AccountFrame title={TEXTS.title} intro={TEXTS.intro}>
          <form ref={formRef} noValidate onSubmit={onSubmit} className="grid gap-4">
            {state.message && <Alert kind="error">{state.message}</Alert>}
            <TextField
              name="password"
              label={TEXTS.newPassword}
              type="password"
              autoComplete="new-password"
              required
              value={values.password}
              onChange={(event) => setValues((current) => ({ ...current, password: event.target.value }))}
              error={state.fieldErrors.password}
            />
            <TextField
              name="confirm_password"
              label={TEXTS.confirmPassword}
              type="password"
              autoComplete="new-password"
              required
              value={values.confirm_password}
              onChange={(event) =>
                setValues((current) => ({ ...current, confirm_password: event.target.value }))
              }
              error={state.fieldErrors.confirm_password}
            />
            <SubmitButton busy={state.status === 'submitting'} busyLabel={TEXTS.submitting}>
              {TEXTS.submit}
            </SubmitButton>
          </form>
        </AccountFrame>
      );
    }
  }
}
