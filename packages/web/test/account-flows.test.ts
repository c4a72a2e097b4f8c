import type { LoginResult } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { emailVerificationMachine } from '../src/account/email-verification-flow';
import { passwordResetRequestMachine } from '../src/account/password-reset-request-flow';
import { providerCallbackMachine } from '../src/account/provider-callback-flow';
import { type ResendState, resendMachine } from '../src/account/resend-flow';
import { signInMachine } from '../src/account/sign-in-flow';
import { signOutMachine } from '../src/account/sign-out-flow';
import { signUpMachine } from '../src/account/sign-up-flow';

const pending: LoginResult = { kind: 'pending', flow: 'verify_email', sessionToken: 't' };

describe('resend flow (SPEC.md R1–R4)', () => {
  const { transition } = resendMachine;
  const idle: ResendState = { status: 'idle' };

  it('R1: one resend at a time; R2: an empty address sends nothing', () => {
    const sending = transition(idle, { type: 'resend', email: ' ada@example.com ' });
    expect(sending.state).toEqual({ status: 'sending' });
    expect(sending.effects).toContainEqual({ type: 'send_email', email: 'ada@example.com' });
    expect(transition(sending.state, { type: 'resend', email: 'ada@example.com' }).effects).toBeUndefined();
    expect(transition(idle, { type: 'resend', email: '  ' })).toEqual({ state: idle });
  });

  it('R3: success shows the notice for 5 seconds, and a new resend restarts the count', () => {
    const sent = transition({ status: 'sending' }, { type: 'succeeded' });
    expect(sent).toEqual({
      state: { status: 'sent' },
      effects: [{ type: 'after', timer: 'notice', delayMs: 5_000, event: { type: 'notice_expired' } }],
    });
    expect(transition(sent.state, { type: 'notice_expired' }).state).toEqual(idle);
    expect(transition(sent.state, { type: 'resend', email: 'a@b.co' }).effects?.[0]).toEqual({
      type: 'cancel',
      timer: 'notice',
    });
  });

  it('R4: a failure is state and is reported; late answers change nothing', () => {
    const error = new Error('nope');
    expect(transition({ status: 'sending' }, { type: 'failed', error })).toEqual({
      state: { status: 'failed' },
      effects: [{ type: 'report_failure', error }],
    });
    expect(transition(idle, { type: 'succeeded' }).state).toBe(idle);
  });
});

describe('sign-in, sign-up and sign-out flows (SPEC.md S2, S4, U2, O1)', () => {
  it('S2: a second submission while one is out is ignored', () => {
    const submitting = signInMachine.transition(signInMachine.initial.state, {
      type: 'submit',
      form: { email: ' ada@example.com ', password: 'x' },
    });
    expect(submitting.effects).toEqual([
      { type: 'login', input: { email: 'ada@example.com', password: 'x' } },
    ]);
    expect(
      signInMachine.transition(submitting.state, {
        type: 'submit',
        form: { email: 'b@c.de', password: 'y' },
      }),
    ).toEqual({ state: submitting.state });
  });

  it('S4: a pending answer offers the resend for the address sent and drops the pending session', () => {
    const submitting = signInMachine.transition(signInMachine.initial.state, {
      type: 'submit',
      form: { email: 'ada@example.com', password: 'x' },
    }).state;
    const step = signInMachine.transition(submitting, { type: 'answered', result: pending });
    expect(step.state).toMatchObject({
      status: 'editing',
      message: 'Please verify your email address before signing in.',
      unverifiedEmail: 'ada@example.com',
    });
    expect(step.effects).toEqual([{ type: 'discard_pending_session' }]);
  });

  it('U2: one sign-up at a time', () => {
    const form = {
      email: 'ada@example.com',
      password: 'violet-harbour',
      confirm_password: 'violet-harbour',
      terms_agreement: true,
    };
    const submitting = signUpMachine.transition(signUpMachine.initial.state, { type: 'submit', form });
    expect(submitting.state.status).toBe('submitting');
    expect(signUpMachine.transition(submitting.state, { type: 'submit', form }).effects).toBeUndefined();
  });

  it('O1: signs out on start, then goes home once', () => {
    expect(signOutMachine.initial.effects).toEqual([{ type: 'sign_out' }]);
    const done = signOutMachine.transition(signOutMachine.initial.state, { type: 'done' });
    expect(done.effects).toEqual([{ type: 'go_home' }]);
    expect(signOutMachine.transition(done.state, { type: 'done' }).effects).toBeUndefined();
  });
});

describe('verification, reset request and callback flows (SPEC.md V5, P2, G2)', () => {
  it('V5: the redirect is asked for once', () => {
    const machine = emailVerificationMachine('abc');
    const verified = machine.transition(machine.initial.state, {
      type: 'answered',
      result: { kind: 'unauthenticated', flows: [] },
    }).state;
    expect(machine.transition(verified, { type: 'redirect_due' }).effects).toEqual([
      { type: 'go', to: '/account/signin' },
    ]);
    expect(machine.transition(machine.initial.state, { type: 'redirect_due' }).effects).toBeUndefined();
  });

  it('P2: every outcome settles into the same result', () => {
    const submitting = passwordResetRequestMachine.transition(passwordResetRequestMachine.initial.state, {
      type: 'submit',
      email: 'ada@example.com',
    }).state;
    expect(passwordResetRequestMachine.transition(submitting, { type: 'settled' }).state).toEqual({
      status: 'done',
      email: 'ada@example.com',
    });
  });

  it('G2: answers after the first are ignored', () => {
    const machine = providerCallbackMachine(null);
    const failed = machine.transition(machine.initial.state, {
      type: 'crashed',
      error: new Error('x'),
    }).state;
    expect(
      machine.transition(failed, {
        type: 'answered',
        result: { kind: 'authenticated', user: {} as never, methods: [] },
      }),
    ).toEqual({ state: failed });
  });
});
