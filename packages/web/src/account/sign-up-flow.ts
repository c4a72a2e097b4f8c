import {
  SIGN_UP_TEXTS,
  type SignupForm,
  type SignupInput,
  type SignupResult,
  signupErrorMessages,
  validateSignup,
} from '@planwright/sdk';
import type { FlowMachine } from '../state/flow';
import { sendOutcome } from '../state/flow';

/** The fields a sign-up message can stand next to: the form's, and the captcha's. */
export type SignUpField = keyof SignupForm | 'captcha';

/** Sign-up (spec 000 §4 "Sign-up", §5, §8). Rules U1–U5 in SPEC.md. */
export interface SignUpState {
  status: 'editing' | 'submitting' | 'check_email' | 'signed_in';
  fieldErrors: Partial<Record<SignUpField, string>>;
  /** Errors that belong to no field, joined (spec 000 §5). */
  general: string | null;
  /** The address the account was made for (shown on the Check your email screen). */
  email: string | null;
}

export type SignUpEvent =
  | { type: 'submit'; form: SignupForm }
  | { type: 'answered'; result: SignupResult }
  | { type: 'crashed'; error: unknown };

export type SignUpEffect =
  | { type: 'sign_up'; input: SignupInput }
  | { type: 'discard_pending_session' }
  | { type: 'enter' };

const EDITING: SignUpState = { status: 'editing', fieldErrors: {}, general: null, email: null };

export const signUpMachine: FlowMachine<SignUpState, SignUpEvent, SignUpEffect> = {
  initial: { state: EDITING },
  transition(state, event) {
    switch (event.type) {
      case 'submit': {
        if (state.status !== 'editing') return { state }; // U2
        const checked = validateSignup(event.form); // U1
        if (!checked.ok) return { state: { ...EDITING, fieldErrors: checked.errors } };
        const email = event.form.email.trim();
        return {
          state: { ...EDITING, status: 'submitting', email },
          effects: [
            { type: 'sign_up', input: { email, password: event.form.password, terms_agreement: true } },
          ],
        };
      }
      case 'answered': {
        if (state.status !== 'submitting') return { state };
        const { result } = event;
        // U3: a pending verification is the normal success.
        if (result.kind === 'pending') {
          return {
            state: { ...EDITING, status: 'check_email', email: state.email },
            effects: [{ type: 'discard_pending_session' }],
          };
        }
        if (result.kind === 'authenticated') {
          return {
            state: { ...EDITING, status: 'signed_in', email: state.email },
            effects: [{ type: 'enter' }],
          };
        }
        // U4: the server's refusals, worded and placed by the SDK.
        const { fields, general } = signupErrorMessages(result);
        return { state: { ...EDITING, email: state.email, fieldErrors: fields, general } };
      }
      case 'crashed':
        if (state.status !== 'submitting') return { state };
        return { state: { ...EDITING, email: state.email, general: SIGN_UP_TEXTS.failed } }; // U5
    }
  },
};

/** What the sign-up flow calls. */
export interface SignUpPorts {
  signUp(input: SignupInput): Promise<SignupResult>;
  discardPendingSession(): void;
  enter(): void;
}

export function performSignUp(ports: () => SignUpPorts) {
  return (effect: SignUpEffect, send: (event: SignUpEvent) => void): void => {
    switch (effect.type) {
      case 'sign_up':
        sendOutcome(ports().signUp(effect.input), send);
        return;
      case 'discard_pending_session':
        ports().discardPendingSession();
        return;
      case 'enter':
        ports().enter();
        return;
    }
  };
}
