import { EMAIL_VERIFICATION_TEXTS } from '@planwright/sdk';
import { type ChangeEvent, type FormEvent, useRef, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { AccountFrame } from '../../account/account-frame';
import { ACCOUNT_QUERY_KEY } from '../../account/account-queries';
import { SIGN_IN_PAGE_TEXTS as TEXTS } from '../../account/account-texts';
import { ProviderSignInButton } from '../../account/provider-sign-in-button';
import { returnPathFrom } from '../../account/return-path';
import { SecondFactorForm } from '../../account/second-factor-form';
import { performSignIn, type SignInForm, signInMachine } from '../../account/sign-in-flow';
import { useAccountServices, useSession } from '../../account/use-account';
import { useResend } from '../../account/use-resend';
import { Flow } from '../../state/flow';
import { useFlow, useLatest } from '../../state/use-flow';
import { Alert } from '../../ui/alert';
import { SubmitButton } from '../../ui/submit-button';
import { TextField } from '../../ui/text-field';
import { useFocusFirstError } from '../../ui/use-focus-first-error';

const FIELD_ORDER = ['email', 'password'] as const;

/** Sign in (spec 000 §2, §4 "Sign-in", §8): e-mail and password, Forgot password, Google, Sign up. */
export function SignInPage() {
  const services = useAccountServices();
  const session = useSession();
  const returnPath = returnPathFrom(useLocation().search);
  const latest = useLatest({ services, returnPath });
  // Someone already signed in who lands here (a Get started button, the back button) goes on at once.
  const [signedInOnArrival] = useState(session.token !== null);
  const enter = () => {
    const { services: current, returnPath: next } = latest();
    current.queryClient.removeQueries({ queryKey: ACCOUNT_QUERY_KEY });
    current.navigate(next, { replace: true });
  };
  const [state, send] = useFlow(
    () =>
      new Flow(signInMachine, {
        clock: services.ports.clock,
        perform: performSignIn(() => {
          const { services: current } = latest();
          return {
            login: (input) => current.client.auth.login(input),
            discardPendingSession: () => current.client.tokenStore.clear(),
            enter,
          };
        }),
      }),
  );
  const [resend, sendResend] = useResend();
  const [values, setValues] = useState<SignInForm>({ email: '', password: '' });
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, state.fieldErrors, FIELD_ORDER);

  if (signedInOnArrival) return <Navigate to={returnPath} replace />;
  if (state.status === 'second_factor') {
    return (
      <SecondFactorForm
        authenticate={(code) => services.client.auth.mfaAuthenticate(code)}
        onSignedIn={enter}
      />
    );
  }

  const onChange = (field: keyof SignInForm) => (event: ChangeEvent<HTMLInputElement>) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    send({ type: 'submit', form: values });
  };
  const busy = state.status !== 'editing';
  const unverified = state.unverifiedEmail;

  return (
    <AccountFrame
      title={TEXTS.title}
      intro={TEXTS.intro}
      footer={
        <>
          {TEXTS.noAccount}{' '}
          <Link to="/account/signup" className="link link-primary">
            {TEXTS.signUp}
          </Link>
        </>
      }
    >
      <form ref={formRef} noValidate onSubmit={onSubmit} className="grid gap-4">
        {state.message && (
          <Alert kind="error">
            <span>{state.message}</span>
            {unverified && (
              <div>
                <button
                  type="button"
                  className="btn btn-sm"
                  disabled={resend.status === 'sending'}
                  onClick={() => sendResend({ type: 'resend', email: unverified })}
                >
                  {resend.status === 'sending' ? TEXTS.resending : TEXTS.resend}
                </button>
              </div>
            )}
          </Alert>
        )}
        {unverified && resend.status === 'sent' && <Alert kind="success">{TEXTS.resent}</Alert>}
        {unverified && resend.status === 'failed' && (
          <Alert kind="error">{EMAIL_VERIFICATION_TEXTS.resendFailed}</Alert>
        )}
        <TextField
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={values.email}
          onChange={onChange('email')}
          error={state.fieldErrors.email}
        />
        <TextField
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={values.password}
          onChange={onChange('password')}
          error={state.fieldErrors.password}
          aside={
            <Link to="/account/password/reset" className="link link-primary text-sm">
              {TEXTS.forgotPassword}
            </Link>
          }
        />
        <SubmitButton busy={busy} busyLabel={TEXTS.submitting}>
          {TEXTS.submit}
        </SubmitButton>
      </form>
      <ProviderSignInButton returnPath={returnPath} />
    </AccountFrame>
  );
}
