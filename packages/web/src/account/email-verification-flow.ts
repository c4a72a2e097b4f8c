import {
  EMAIL_VERIFICATION_TEXTS,
  emailVerificationErrorMessage,
  SIGN_IN_TEXTS,
  type VerifyEmailResult,
} from '@planwright/sdk';
import type { FlowMachine } from '../state/flow';
import { sendOutcome } from '../state/flow';
import { REDIRECT_DELAY_MS } from './account-timing';
import { DEFAULT_RETURN_PATH, SIGN_IN_PATH } from './return-path';

/**
 * The e-mail verification page (spec 000 §4 "Email verification", §8 "Verification"): verifying, then
 * success (on to sign-in after 3 seconds) or an error; "already verified" also moves on and hides the
 * resend form. Rules V1–V5 in SPEC.md.
 */
export type EmailVerificationState =
  | { status: 'verifying' }
  | { status: 'verified'; next: string }
  | { status: 'failed'; message: string; alreadyVerified: boolean; next: string | null };

export type EmailVerificationEvent =
  | { type: 'answered'; result: VerifyEmailResult }
  | { type: 'crashed'; error: unknown }
  | { type: 'redirect_due' };

export type EmailVerificationEffect = { type: 'verify'; key: string } | { type: 'go'; to: string };

const redirectLater = {
  type: 'after',
  timer: 'redirect',
  delayMs: REDIRECT_DELAY_MS,
  event: { type: 'redirect_due' },
} as const;

export function emailVerificationMachine(
  key: string,
): FlowMachine<EmailVerificationState, EmailVerificationEvent, EmailVerificationEffect> {
  const trimmed = key.trim();
  return {
    // V1: a link without a key is refused without asking the server.
    initial:
      trimmed === ''
        ? {
            state: {
              status: 'failed',
              message: EMAIL_VERIFICATION_TEXTS.invalidLink,
              alreadyVerified: false,
              next: null,
            },
          }
        : { state: { status: 'verifying' }, effects: [{ type: 'verify', key: trimmed }] },
    transition(state, event) {
      switch (event.type) {
        case 'answered': {
          if (state.status !== 'verifying') return { state };
          const { result } = event;
          // V2: verified; a session that was waiting for this link is signed in and goes to the dashboard.
          if (result.kind === 'authenticated' || result.kind === 'unauthenticated') {
            const next = result.kind === 'authenticated' ? DEFAULT_RETURN_PATH : SIGN_IN_PATH;
            return { state: { status: 'verified', next }, effects: [redirectLater] };
          }
          const message = emailVerificationErrorMessage(result) ?? SIGN_IN_TEXTS.unexpected;
          // V3: already verified moves on to sign-in too, and needs no resend form.
          if (message === EMAIL_VERIFICATION_TEXTS.alreadyVerified) {
            return {
              state: { status: 'failed', message, alreadyVerified: true, next: SIGN_IN_PATH },
              effects: [redirectLater],
            };
          }
          return { state: { status: 'failed', message, alreadyVerified: false, next: null } }; // V4
        }
        case 'crashed':
          if (state.status !== 'verifying') return { state };
          return {
            state: {
              status: 'failed',
              message: SIGN_IN_TEXTS.unexpected,
              alreadyVerified: false,
              next: null,
            },
          };
        case 'redirect_due': {
          const next = state.status === 'verifying' ? null : state.next;
          return next === null ? { state } : { state, effects: [{ type: 'go', to: next }] }; // V5
        }
      }
    },
  };
}

/** What the verification flow calls. */
export interface EmailVerificationPorts {
  /** The browser client's `POST auth/email/verify` (after `GET apps/csrf/` has set the CSRF cookie). */
  verifyEmail(key: string): Promise<VerifyEmailResult>;
  go(to: string): void;
}

export function performEmailVerification(ports: () => EmailVerificationPorts) {
  return (effect: EmailVerificationEffect, send: (event: EmailVerificationEvent) => void): void => {
    switch (effect.type) {
      case 'verify':
        sendOutcome(ports().verifyEmail(effect.key), send);
        return;
      case 'go':
        ports().go(effect.to);
        return;
    }
  };
}
