import type { FlowMachine } from '../state/flow';
import { RESEND_NOTICE_MS } from './account-timing';

/**
 * Sending the verification e-mail again (spec 000 §4 "Verification banner", "Sign-in"): `sending`, then
 * `sent` for 5 seconds, then back to `idle`; a failure is `failed` (the banner only logs it). Rules R1–R4
 * in SPEC.md.
 */
export type ResendState =
  | { status: 'idle' }
  | { status: 'sending' }
  | { status: 'sent' }
  | { status: 'failed' };

export type ResendEvent =
  | { type: 'resend'; email: string }
  | { type: 'succeeded' }
  | { type: 'failed'; error: unknown }
  | { type: 'notice_expired' };

export type ResendEffect = { type: 'send_email'; email: string } | { type: 'report_failure'; error: unknown };

const IDLE: ResendState = { status: 'idle' };

export const resendMachine: FlowMachine<ResendState, ResendEvent, ResendEffect> = {
  initial: { state: IDLE },
  transition(state, event) {
    switch (event.type) {
      case 'resend':
        // R1: one request at a time; R2: an empty address sends nothing.
        if (state.status === 'sending' || event.email.trim() === '') return { state };
        return {
          state: { status: 'sending' },
          effects: [
            { type: 'cancel', timer: 'notice' },
            { type: 'send_email', email: event.email.trim() },
          ],
        };
      case 'succeeded':
        if (state.status !== 'sending') return { state };
        // R3: the notice stays for RESEND_NOTICE_MS.
        return {
          state: { status: 'sent' },
          effects: [
            { type: 'after', timer: 'notice', delayMs: RESEND_NOTICE_MS, event: { type: 'notice_expired' } },
          ],
        };
      case 'failed':
        // R4: a failure is state (and reported), never thrown.
        if (state.status !== 'sending') return { state };
        return { state: { status: 'failed' }, effects: [{ type: 'report_failure', error: event.error }] };
      case 'notice_expired':
        return state.status === 'sent' ? { state: IDLE } : { state };
    }
  },
};

/** What the resend flow calls. */
export interface ResendPorts {
  resendVerification(email: string): Promise<void>;
  logError(message: string, error: unknown): void;
}

/** Logged when a resend fails (spec 000 §4: the banner only logs it). */
export const RESEND_FAILURE_LOG = 'Failed to resend verification email';

export function performResend(ports: () => ResendPorts) {
  return (effect: ResendEffect, send: (event: ResendEvent) => void): void => {
    switch (effect.type) {
      case 'send_email':
        ports()
          .resendVerification(effect.email)
          .then(
            () => send({ type: 'succeeded' }),
            (error: unknown) => send({ type: 'failed', error }),
          );
        return;
      case 'report_failure':
        ports().logError(RESEND_FAILURE_LOG, effect.error);
        return;
    }
  };
}
