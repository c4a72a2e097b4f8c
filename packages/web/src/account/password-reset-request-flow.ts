import { emailAddressError, type PasswordResetRequestResult } from '@planwright/sdk';
import type { FlowMachine } from '../state/flow';

/**
 * The password-reset request page (spec 000 §4 "Password reset request"): whatever the server answers
 * (a known address, an unknown one, a refusal, no answer), the page shows the same result, so it tells
 * nobody whether an address has an account. Rules P1–P3 in SPEC.md.
 */
export type PasswordResetRequestState =
  | { status: 'editing'; emailError: string | null }
  | { status: 'submitting'; email: string }
  | { status: 'done'; email: string };

export type PasswordResetRequestEvent = { type: 'submit'; email: string } | { type: 'settled' };

export type PasswordResetRequestEffect = { type: 'request'; email: string };

/** The SDK's address rule (spec 000 §5) with its texts. */
export function emailError(email: string): string | null {
  return emailAddressError(email) ?? null;
}

export const passwordResetRequestMachine: FlowMachine<
  PasswordResetRequestState,
  PasswordResetRequestEvent,
  PasswordResetRequestEffect
> = {
  initial: { state: { status: 'editing', emailError: null } },
  transition(state, event) {
    switch (event.type) {
      case 'submit': {
        if (state.status !== 'editing') return { state };
        const error = emailError(event.email); // P1
        if (error !== null) return { state: { status: 'editing', emailError: error } };
        const email = event.email.trim();
        return { state: { status: 'submitting', email }, effects: [{ type: 'request', email }] };
      }
      case 'settled':
        // P2: every outcome is the same result.
        return state.status === 'submitting' ? { state: { status: 'done', email: state.email } } : { state };
    }
  },
};

/** What the request flow calls. */
export interface PasswordResetRequestPorts {
  requestPasswordReset(email: string): Promise<PasswordResetRequestResult>;
}

export function performPasswordResetRequest(ports: () => PasswordResetRequestPorts) {
  return (effect: PasswordResetRequestEffect, send: (event: PasswordResetRequestEvent) => void): void => {
    const settle = () => send({ type: 'settled' });
    ports().requestPasswordReset(effect.email).then(settle, settle);
  };
}
