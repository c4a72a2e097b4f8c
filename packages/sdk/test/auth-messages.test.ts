import {
  AUTH_VALIDATION_TEXTS,
  EMAIL_VERIFICATION_TEXTS,
  emailVerificationErrorMessage,
  type InvalidResult,
  PASSWORD_RESET_TEXTS,
  PROVIDER_SIGN_IN_TEXTS,
  passwordResetErrorMessage,
  SIGN_IN_TEXTS,
  SIGN_UP_TEXTS,
  SIGNUP_ERROR_MESSAGES,
  signInErrorMessage,
  signupErrorMessages,
  validatePasswordReset,
  validateSignup,
} from '@planwright/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

function invalid(
  fieldErrors: Record<string, Array<[code: string, message?: string]>>,
  formErrors: Array<[code: string, message?: string]> = [],
): InvalidResult {
  const issue = ([code, message]: [string, string?]) => ({ code, message: message ?? `server says ${code}` });
  return {
    kind: 'invalid',
    fieldErrors: Object.fromEntries(
      Object.entries(fieldErrors).map(([param, list]) => [param, list.map(issue)]),
    ),
    formErrors: formErrors.map(issue),
  };
}

describe('A15 sign-up messages', () => {
  it('A15: the table covers every code of spec 000 §5 plus password_too_long', () => {
    expect(Object.keys(SIGNUP_ERROR_MESSAGES).sort()).toEqual(
      [
        'password_too_common',
        'password_too_short',
        'password_too_similar',
        'password_entirely_numeric',
        'email_already_exists',
        'invalid_email',
        'required',
        'invalid_captcha',
        'captcha_timeout',
        'password_too_long',
      ].sort(),
    );
    expect(SIGNUP_ERROR_MESSAGES.password_too_short).toBe('Password must be at least 8 characters');
    for (const message of Object.values(SIGNUP_ERROR_MESSAGES)) expect(message.trim()).not.toBe('');
  });

  it('A15: files each error under its field by param, turnstile_token under captcha', () => {
    expect(
      signupErrorMessages(
        invalid({
          email: [['invalid_email']],
          password: [['password_too_common']],
          terms_agreement: [['required']],
          turnstile_token: [['captcha_timeout']],
        }),
      ),
    ).toEqual({
      fields: {
        email: 'Please enter a valid email address',
        password: 'This password is too common',
        terms_agreement: 'You must agree to the Terms and Conditions',
        captcha: 'The captcha has expired. Please complete it again',
      },
      general: null,
    });
  });

  it('A15: required is worded per field with the spec texts', () => {
    const { fields } = signupErrorMessages(
      invalid({ email: [['required']], password: [['required']], turnstile_token: [['required']] }),
    );
    expect(fields).toEqual({
      email: 'Email is required',
      password: 'Password is required',
      captcha: 'Please complete the captcha',
    });
  });

  it('A15: several errors on one field are joined as sentences, duplicates dropped', () => {
    const { fields } = signupErrorMessages(
      invalid({ password: [['password_too_short'], ['password_entirely_numeric'], ['password_too_short']] }),
    );
    expect(fields.password).toBe(
      'Password must be at least 8 characters. Password cannot be entirely numeric.',
    );
  });

  it('A15: errors of other params and without a param are joined into general', () => {
    expect(
      signupErrorMessages(
        invalid({ phone_number_x: [['invalid', 'Bad phone.']] }, [['weird', 'Something odd']]),
      ),
    ).toEqual({ fields: {}, general: 'Bad phone. Something odd.' });
  });

  it('A15: an unknown code shows the server message; an empty one falls back', () => {
    expect(
      signupErrorMessages(invalid({ email: [['email_blocked', 'This domain is blocked.']] })).fields.email,
    ).toBe('This domain is blocked.');
    expect(signupErrorMessages(invalid({}, [['mystery', '  ']]))).toEqual({
      fields: {},
      general: SIGN_UP_TEXTS.failed,
    });
  });

  it('A15: codes and params are looked up as own keys only', () => {
    const onConstructor: Array<[string, string]> = [['toString', 'Server text A']];
    const onEmail: Array<[string, string]> = [['__proto__', 'Server text B']];
    const fieldErrors = { constructor: onConstructor, email: onEmail };
    const result = signupErrorMessages(invalid(fieldErrors));
    expect(result).toEqual({ fields: { email: 'Server text B' }, general: 'Server text A' });
  });

  it("A15: the spec's fallback when nothing explains the failure", () => {
    expect(SIGN_UP_TEXTS.failed).toBe('Sign up failed. Please check your information and try again.');
    expect(signupErrorMessages(invalid({}))).toEqual({ fields: {}, general: SIGN_UP_TEXTS.failed });
    for (const kind of ['conflict', 'session_gone'] as const) {
      expect(signupErrorMessages({ kind })).toEqual({ fields: {}, general: SIGN_UP_TEXTS.failed });
    }
    expect(signupErrorMessages({ kind: 'forbidden', errors: [] }).general).toBe(SIGN_UP_TEXTS.failed);
  });

  it('A15: rate limiting has its own text, and a success has no messages', () => {
    expect(signupErrorMessages({ kind: 'rate_limited', retryAfterSeconds: 3 }).general).toBe(
      SIGN_UP_TEXTS.rateLimited,
    );
    expect(signupErrorMessages({ kind: 'pending', flow: 'verify_email' })).toEqual({
      fields: {},
      general: null,
    });
  });
});

describe('A16 page messages', () => {
  it('A16: the spec 000 §8 texts, exactly', () => {
    expect(SIGN_IN_TEXTS).toMatchObject({
      failed: 'Login failed. Please check your credentials.',
      verifyEmail: 'Please verify your email address before signing in.',
      unexpected: 'An unexpected error occurred. Please try again.',
      initFailed: 'Unable to initialize sign-in. Please try again.',
    });
    expect(EMAIL_VERIFICATION_TEXTS).toEqual({
      invalidLink: 'Invalid verification link',
      alreadyVerified: 'This email has already been verified. You can sign in now.',
      invalidOrExpired: 'This verification link is invalid or has expired.',
      resendFailed: 'Failed to resend verification email. Please try again.',
    });
    expect(PASSWORD_RESET_TEXTS).toEqual({
      invalidLink: 'Invalid reset link',
      expired: 'This reset link has expired or is invalid.',
      failed: 'Password reset failed. Please try again.',
    });
    expect(PROVIDER_SIGN_IN_TEXTS).toEqual({
      failed: 'OAuth sign-in failed. Please try again.',
      callbackError: 'Unexpected error during OAuth callback. Please try again.',
    });
  });

  it('A16: sign-in messages', () => {
    expect(signInErrorMessage({ kind: 'pending', flow: 'verify_email' })).toBe(SIGN_IN_TEXTS.verifyEmail);
    expect(
      signInErrorMessage(
        invalid({ password: [['email_password_mismatch', 'The e-mail or password is wrong.']] }),
      ),
    ).toBe('The e-mail or password is wrong.');
    expect(signInErrorMessage(invalid({ password: [['email_password_mismatch', ' ']] }))).toBe(
      SIGN_IN_TEXTS.failed,
    );
    expect(signInErrorMessage({ kind: 'forbidden', errors: [] })).toBe(SIGN_IN_TEXTS.initFailed);
    expect(signInErrorMessage({ kind: 'rate_limited' })).toBe(SIGN_IN_TEXTS.rateLimited);
    expect(signInErrorMessage({ kind: 'conflict' })).toBe(SIGN_IN_TEXTS.alreadySignedIn);
    expect(signInErrorMessage({ kind: 'session_gone' })).toBe(SIGN_IN_TEXTS.unexpected);
    expect(signInErrorMessage({ kind: 'authenticated', user: {} as never, methods: [] })).toBeNull();
  });

  it('A16: verification messages', () => {
    expect(emailVerificationErrorMessage(invalid({ key: [['already_verified']] }))).toBe(
      EMAIL_VERIFICATION_TEXTS.alreadyVerified,
    );
    expect(emailVerificationErrorMessage(invalid({ key: [['invalid']] }))).toBe(
      EMAIL_VERIFICATION_TEXTS.invalidOrExpired,
    );
    expect(emailVerificationErrorMessage({ kind: 'unauthenticated', flows: [] })).toBeNull();
    expect(emailVerificationErrorMessage({ kind: 'rate_limited' })).toBe(SIGN_IN_TEXTS.unexpected);
  });

  it('A16: reset messages', () => {
    expect(passwordResetErrorMessage(invalid({ key: [['token_invalid']] }))).toBe(
      PASSWORD_RESET_TEXTS.expired,
    );
    expect(passwordResetErrorMessage(invalid({}, [['token_invalid']]))).toBe(PASSWORD_RESET_TEXTS.expired);
    expect(
      passwordResetErrorMessage(invalid({ password: [['password_too_similar'], ['password_too_common']] })),
    ).toBe('Password is too similar to your email address. This password is too common.');
    expect(passwordResetErrorMessage(invalid({ password: [['required']] }))).toBe('Password is required');
    expect(passwordResetErrorMessage(invalid({}, [['other']]))).toBe(PASSWORD_RESET_TEXTS.failed);
    expect(passwordResetErrorMessage({ kind: 'forbidden', errors: [] })).toBe(PASSWORD_RESET_TEXTS.failed);
    expect(passwordResetErrorMessage({ kind: 'unauthenticated', flows: [] })).toBeNull();
  });
});

describe('A17 client validation', () => {
  const good = {
    email: 'ada@example.com',
    password: 'correct horse',
    confirm_password: 'correct horse',
    terms_agreement: true,
  };

  it('A17: a good form passes', () => {
    expect(validateSignup(good)).toEqual({ ok: true, errors: {} });
  });

  it('A17: the spec texts, one per field', () => {
    expect(
      validateSignup({ email: '  ', password: '', confirm_password: 'x', terms_agreement: false }),
    ).toEqual({
      ok: false,
      errors: {
        email: 'Email is required',
        password: 'Password is required',
        confirm_password: 'Passwords do not match',
        terms_agreement: 'You must agree to the Terms and Conditions',
      },
    });
    expect(
      validateSignup({ ...good, email: 'ada@example', password: 'short', confirm_password: 'short' }).errors,
    ).toEqual({
      email: 'Please enter a valid email address',
      password: 'Password must be at least 8 characters',
    });
    expect(AUTH_VALIDATION_TEXTS.passwordTooShort).toBe('Password must be at least 8 characters');
  });

  it.each(['ada', 'ada@', '@example.com', 'a da@example.com', 'ada@exa mple.com', 'a@b@c.com'])(
    'A17: %j is not an address',
    (email) => {
      expect(validateSignup({ ...good, email }).errors.email).toBe('Please enter a valid email address');
    },
  );

  it('A17: the e-mail is trimmed, the passwords are not', () => {
    expect(validateSignup({ ...good, email: '  ada@example.com\n' }).ok).toBe(true);
    expect(validateSignup({ ...good, confirm_password: `${good.password} ` }).errors).toEqual({
      confirm_password: 'Passwords do not match',
    });
  });

  it('A17: the length counts code points: 7 emoji are too short, 8 are enough', () => {
    const seven = '🔑'.repeat(7);
    expect(validateSignup({ ...good, password: seven, confirm_password: seven }).errors.password).toBe(
      'Password must be at least 8 characters',
    );
    const eight = '🔑'.repeat(8);
    expect(validateSignup({ ...good, password: eight, confirm_password: eight }).ok).toBe(true);
  });

  it('A17: any password of at least 8 code points that is confirmed passes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 8 }), (password) => {
        expect(validateSignup({ ...good, password, confirm_password: password }).ok).toBe(true);
      }),
    );
  });

  it('A17: a mismatched confirmation always fails on confirm_password', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (password, confirm) => {
        fc.pre(password !== confirm);
        expect(validatePasswordReset({ password, confirm_password: confirm }).errors.confirm_password).toBe(
          'Passwords do not match',
        );
      }),
    );
  });

  it('A17: the new-password form', () => {
    expect(validatePasswordReset({ password: 'long enough', confirm_password: 'long enough' })).toEqual({
      ok: true,
      errors: {},
    });
    expect(validatePasswordReset({ password: '1234567', confirm_password: '1234567' }).errors).toEqual({
      password: 'Password must be at least 8 characters',
    });
    expect(validatePasswordReset({ password: '', confirm_password: '' }).errors).toEqual({
      password: 'Password is required',
    });
  });
});

describe('emailAddressError', () => {
  it('says required, then invalid, with the spec texts, and accepts a trimmed address', async () => {
    const { emailAddressError } = await import('../src/auth/auth-form-validation.js');
    expect(emailAddressError('   ')).toBe('Email is required');
    expect(emailAddressError('founder@')).toBe('Please enter a valid email address');
    expect(emailAddressError(' founder@example.com ')).toBeUndefined();
  });
});
