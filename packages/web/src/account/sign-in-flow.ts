import {
  AUTH_VALIDATION_TEXTS,
  type LoginInput,
  type LoginResult,
  SIGN_IN_TEXTS,
  signInErrorMessage,
} from '@planwright/sdk';
import type { FlowMachine } from '../state/flow';
import { sendOutcome } from '../state/flow';

/** The sign-in form as typed. */
export interface SignInForm {
  email: string;
  password: string;
}

export type SignInField = keyof SignInForm;

/** Sign-in (spec 000 §4 "Sign-in", §8). Rules S1–S6 in SPEC.md. */
export interface SignInState {
  /** `second_factor`: the password was right; the two-factor code is asked next. */
  status: 'editing' | 'submitting' | 'second_factor' | 'signed_in';
  fieldErrors: Partial<Record<SignInField, string>>;
  /** The form-level message (spec 000 §8 "Sign-in"), or `null`. */
  message: string | null;
  /** Set when the server said the address is unverified: the resend option is offered for it. */
  unverifiedEmail: string | null;
  /** The address of the submission in flight. */
  submittedEmail: string | null;
}

export type SignInEvent =
  | { type: 'submit'; form: SignInForm }
  | { type: 'answered'; result: LoginResult }
  | { type: 'crashed'; error: unknown };

export type SignInEffect =
  | { type: 'login'; input: LoginInput }
  | { type: 'discard_pending_session' }
  | { type: 'enter' };

const EDITING: SignInState = {
  status: 'editing',
  fieldErrors: {},
  message: null,
  unverifiedEmail: null,
  submittedEmail: null,
};

function missingFields(form: SignInForm): Partial<Record<SignInField, string>> {
  const errors: Partial<Record<SignInField, string>> = {};
  if (form.email.trim() === '') errors.email = AUTH_VALIDATION_TEXTS.emailRequired;
  if (form.password === '') errors.password = AUTH_VALIDATION_TEXTS.passwordRequired;
  return errors;
}

export const signInMachine: FlowMachine<SignInState, SignInEvent, SignInEffect> = {
  initial: { state: EDITING },
  transition(state, event) {
    switch (event.type) {
      case 'submit': {
        if (state.status !== 'editing') return { state }; // S2
        const fieldErrors = missingFields(event.form); // S1
        if (Object.keys(fieldErrors).length > 0) return { state: { ...EDITING, fieldErrors } };
        const email = event.form.email.trim();
        return {
          state: { ...EDITING, status: 'submitting', submittedEmail: email },
          effects: [{ type: 'login', input: { email, password: event.form.password } }],
        };
      }
      case 'answered': {
        if (state.status !== 'submitting') return { state };
        const { result } = event;
        if (result.kind === 'authenticated') {
          return { state: { ...EDITING, status: 'signed_in' }, effects: [{ type: 'enter' }] }; // S3
        }
        // The password was right and the account has a second factor: its code is asked next, with the pending
        // session the SDK keeps.
        if (result.kind === 'pending' && result.flow === 'mfa_authenticate') {
          return { state: { ...EDITING, status: 'second_factor' } };
        }
        const message = signInErrorMessage(result) ?? SIGN_IN_TEXTS.unexpected;
        if (result.kind === 'pending') {
          // S4: offer the resend; the pending session is of no use to this app (see SPEC.md).
          return {
            state: { ...EDITING, message, unverifiedEmail: state.submittedEmail },
            effects: [{ type: 'discard_pending_session' }],
          };
        }
        return { state: { ...EDITING, message } }; // S5
      }
      case 'crashed':
        if (state.status !== 'submitting') return { state };
        return { state: { ...EDITING, message: SIGN_IN_TEXTS.unexpected } }; // S6
    }
  },
};

/** What the sign-in flow calls. */
export interface SignInPorts {
  login(input: LoginInput): Promise<LoginResult>;
  /** Forgets the pending session a login with an unverified address stored. */
  discardPendingSession(): void;
  /** Goes where the user was heading (the remembered location, else the dashboard). */
  enter(): void;
}

export function performSignIn(ports: () => SignInPorts) {
  return (effect: SignInEffect, send: (event: SignInEvent) => void): void => {
    switch (effect.type) {
      case 'login':
        sendOutcome(ports().login(effect.input), send);
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
