import {
  PASSWORD_RESET_TEXTS,
  type PasswordResetForm,
  type PasswordResetInfoCheck,
  passwordResetErrorMessage,
  type ResetPasswordInput,
  type ResetPasswordResult,
  validatePasswordReset,
} from '@planwright/sdk';
import type { FlowMachine } from '../state/flow';
import { sendOutcome } from '../state/flow';
import { REDIRECT_DELAY_MS } from './account-timing';
import { DEFAULT_RETURN_PATH, SIGN_IN_PATH } from './return-path';

export type PasswordResetField = keyof PasswordResetForm;

/**
 * The new-password page (spec 000 §4 "Password reset with key", §8 "Reset"): the key is checked on
 * arrival, then the form, then success (on to sign-in after 3 seconds) or expired. Rules K1–K6 in SPEC.md.
 */
export type PasswordResetState =
  | { status: 'checking' }
  | {
      status: 'editing' | 'submitting';
      fieldErrors: Partial<Record<PasswordResetField, string>>;
      message: string | null;
    }
  | { status: 'done'; next: string }
  | { status: 'expired'; message: string };

export type PasswordResetEvent =
  | { type: 'checked'; result: PasswordResetInfoCheck }
  | { type: 'check_crashed'; error: unknown }
  | { type: 'submit'; form: PasswordResetForm }
  | { type: 'answered'; result: ResetPasswordResult }
  | { type: 'crashed'; error: unknown }
  | { type: 'redirect_due' };

export type PasswordResetEffect =
  | { type: 'check'; key: string }
  | { type: 'reset'; input: ResetPasswordInput }
  | { type: 'go'; to: string };

type FormState = Extract<PasswordResetState, { fieldErrors: unknown }>;

const EDITING: FormState = { status: 'editing', fieldErrors: {}, message: null };
const EXPIRED: PasswordResetState = { status: 'expired', message: PASSWORD_RESET_TEXTS.expired };

export function passwordResetMachine(
  key: string,
): FlowMachine<PasswordResetState, PasswordResetEvent, PasswordResetEffect> {
  const trimmed = key.trim();
  return {
    // K1: a link without a key is refused without asking the server.
    initial:
      trimmed === ''
        ? { state: { status: 'expired', message: PASSWORD_RESET_TEXTS.invalidLink } }
        : { state: { status: 'checking' }, effects: [{ type: 'check', key: trimmed }] },
    transition(state, event) {
      switch (event.type) {
        case 'checked':
          if (state.status !== 'checking') return { state };
          // K2: a refused key is expired at once; anything else lets the form decide.
          return { state: event.result.kind === 'invalid' ? EXPIRED : EDITING };
        case 'check_crashed':
          return state.status === 'checking' ? { state: EDITING } : { state };
        case 'submit': {
          if (state.status !== 'editing') return { state };
          const checked = validatePasswordReset(event.form); // K3
          if (!checked.ok) return { state: { ...EDITING, fieldErrors: checked.errors } };
          return {
            state: { ...EDITING, status: 'submitting' },
            effects: [{ type: 'reset', input: { key: trimmed, password: event.form.password } }],
          };
        }
        case 'answered': {
          if (state.status !== 'submitting') return { state };
          const { result } = event;
          if (result.kind === 'unauthenticated' || result.kind === 'authenticated') {
            // K4: done; on to sign-in (or, should the server have signed the user in, the dashboard).
            const next = result.kind === 'authenticated' ? DEFAULT_RETURN_PATH : SIGN_IN_PATH;
            return {
              state: { status: 'done', next },
              effects: [
                {
                  type: 'after',
                  timer: 'redirect',
                  delayMs: REDIRECT_DELAY_MS,
                  event: { type: 'redirect_due' },
                },
              ],
            };
          }
          const message = passwordResetErrorMessage(result) ?? PASSWORD_RESET_TEXTS.failed;
          if (message === PASSWORD_RESET_TEXTS.expired) return { state: EXPIRED }; // K5
          // K6: the password's own problems stand next to it; anything else above the form.
          return message === PASSWORD_RESET_TEXTS.failed
            ? { state: { ...EDITING, message } }
            : { state: { ...EDITING, fieldErrors: { password: message } } };
        }
        case 'crashed':
          if (state.status !== 'submitting') return { state };
          return { state: { ...EDITING, message: PASSWORD_RESET_TEXTS.failed } };
        case 'redirect_due':
          return state.status === 'done' ? { state, effects: [{ type: 'go', to: state.next }] } : { state };
      }
    },
  };
}

/** What the new-password flow calls. */
export interface PasswordResetPorts {
  getPasswordReset(key: string): Promise<PasswordResetInfoCheck>;
  resetPassword(input: ResetPasswordInput): Promise<ResetPasswordResult>;
  go(to: string): void;
}

export function performPasswordReset(ports: () => PasswordResetPorts) {
  return (effect: PasswordResetEffect, send: (event: PasswordResetEvent) => void): void => {
    switch (effect.type) {
      case 'check':
        ports()
          .getPasswordReset(effect.key)
          .then(
            (result) => send({ type: 'checked', result }),
            (error: unknown) => send({ type: 'check_crashed', error }),
          );
        return;
      case 'reset':
        sendOutcome(ports().resetPassword(effect.input), send);
        return;
      case 'go':
        ports().go(effect.to);
        return;
    }
  };
}
