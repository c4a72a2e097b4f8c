import type { SignupForm } from '@planwright/sdk';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { AccountFrame } from '../../account/account-frame';
import { ACCOUNT_QUERY_KEY } from '../../account/account-queries';
import { SIGN_UP_PAGE_TEXTS as TEXTS } from '../../account/account-texts';
import { ProviderSignInButton } from '../../account/provider-sign-in-button';
import { DEFAULT_RETURN_PATH, SIGN_IN_PATH } from '../../account/return-path';
import { performSignUp, signUpMachine } from '../../account/sign-up-flow';
import { useAccountServices } from '../../account/use-account';
import { termsHref, useSiteConfig } from '../../site/site-config';
import { Flow } from '../../state/flow';
import { useFlow, useLatest } from '../../state/use-flow';
import { Alert } from '../../ui/alert';
import { SubmitButton } from '../../ui/submit-button';
import { TextField } from '../../ui/text-field';
import { useFocusFirstError } from '../../ui/use-focus-first-error';

const FIELD_ORDER = ['email', 'password', 'confirm_password', 'terms_agreement'] as const;

const EMPTY: SignupForm = { email: '', password: '', confirm_password: '', terms_agreement: false };

/**
 * Sign up (spec 000 §2, §4 "Sign-up", §5, §8): e-mail, password, confirmation, the terms, Google; the
 * Check your email screen replaces the form on success.
 */
export function SignUpPage() {
  const services = useAccountServices();
  const latest = useLatest(services);
  const [state, send] = useFlow(
    () =>
      new Flow(signUpMachine, {
        clock: services.ports.clock,
        perform: performSignUp(() => {
          const current = latest();
          return {
            signUp: (input) => current.client.auth.signup(input),
            discardPendingSession: () => current.client.tokenStore.clear(),
            enter: () => {
              current.queryClient.removeQueries({ queryKey: ACCOUNT_QUERY_KEY });
              current.navigate(DEFAULT_RETURN_PATH, { replace: true });
            },
          };
        }),
      }),
  );
  const [values, setValues] = useState<SignupForm>(EMPTY);
  const formRef = useRef<HTMLFormElement>(null);
  const termsId = useId();
  useFocusFirstError(formRef, state.fieldErrors, FIELD_ORDER);
  // The built-in terms page until the server says they live elsewhere (TERMS_URL).
  const siteConfig = useSiteConfig();

  if (state.status === 'check_email') {
    return (
      <AccountFrame title={TEXTS.checkEmailTitle}>
        <Alert kind="success">{TEXTS.checkEmail(state.email ?? values.email.trim())}</Alert>
        <Link to={SIGN_IN_PATH} className="btn btn-primary w-full">
          {TEXTS.signIn}
        </Link>
      </AccountFrame>
    );
  }

  const set = <K extends keyof SignupForm>(field: K, value: SignupForm[K]) =>
    setValues((current) => ({ ...current, [field]: value }));
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    send({ type: 'submit', form: values });
  };
  const { fieldErrors } = state;
  const termsError = fieldErrors.terms_agreement;

  return (
    <AccountFrame
      title={TEXTS.title}
      intro={TEXTS.intro}
      footer={
        <>
          {TEXTS.haveAccount}{' '}
          <Link to={SIGN_IN_PATH} className="link link-primary">
            {TEXTS.signIn}
          </Link>
        </>
      }
    >
      <form ref={formRef} noValidate onSubmit={onSubmit} className="grid gap-4">
        {state.general && <Alert kind="error">{state.general}</Alert>}
        <TextField
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={values.email}
          onChange={(event) => set('email', event.target.value)}
          error={fieldErrors.email}
        />
        <TextField
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          value={values.password}
          onChange={(event) => set('password', event.target.value)}
          error={fieldErrors.password}
        />
        <TextField
          name="confirm_password"
          label={TEXTS.confirmPassword}
          type="password"
          autoComplete="new-password"
          required
          value={values.confirm_password}
          onChange={(event) => set('confirm_password', event.target.value)}
          error={fieldErrors.confirm_password}
        />
        <div className="flex flex-col gap-1">
          <div className="flex items-start gap-3">
            <input
              id={termsId}
              name="terms_agreement"
              type="checkbox"
              className={`checkbox checkbox-primary mt-0.5 ${termsError ? 'checkbox-error' : ''}`}
              checked={values.terms_agreement}
              onChange={(event) => set('terms_agreement', event.target.checked)}
              aria-invalid={termsError ? true : undefined}
              aria-describedby={termsError ? `${termsId}-error` : undefined}
            />
            <label htmlFor={termsId} className="text-sm">
              {TEXTS.termsBefore}
              <a
                href={termsHref(siteConfig.data)}
                target="_blank"
                rel="noopener"
                className="link link-primary"
              >
                {TEXTS.termsLink}
              </a>
            </label>
          </div>
          {termsError && (
            <p id={`${termsId}-error`} className="text-sm text-error">
              {termsError}
            </p>
          )}
        </div>
        {fieldErrors.captcha && <Alert kind="error">{fieldErrors.captcha}</Alert>}
        <SubmitButton busy={state.status !== 'editing'} busyLabel={TEXTS.submitting}>
          {TEXTS.submit}
        </SubmitButton>
      </form>
      <ProviderSignInButton returnPath={DEFAULT_RETURN_PATH} />
    </AccountFrame>
  );
}
