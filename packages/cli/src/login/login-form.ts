import { AUTH_VALIDATION_TEXTS } from '@planwright/sdk';
import { isEmailAddress } from './email-address.js';

/**
 * The interactive login prompt's behaviour, as a pure state machine: `transition(state, event)`. The
 * Ink component only renders a state and turns key presses into events ({@link keyToEvent}), so
 * everything here is tested without a terminal. The messages are spec 000 §5's, from the SDK, so the
 * terminal and the web app say the same words.
 */

export type LoginFormField = 'email' | 'password';

export interface LoginFormState {
  /** The field being typed into. */
  readonly field: LoginFormField;
  readonly email: string;
  readonly password: string;
  /** The e-mail came from `--email`: shown, not editable. */
  readonly emailFixed: boolean;
  /** Why the last Enter did not move on, or `null`. */
  readonly error: string | null;
  /** `submitted` and `cancelled` are final: the prompt closes. */
  readonly status: 'editing' | 'submitted' | 'cancelled';
}

export type LoginFormEvent =
  /** Typed or pasted text. Fast typing and pastes arrive as one string, Enter and Backspace included. */
  | { type: 'text'; text: string }
  | { type: 'backspace' }
  /** Ctrl+U: empty the field. */
  | { type: 'clear' }
  /** Enter. */
  | { type: 'submit' }
  /** Tab or the down arrow. */
  | { type: 'next' }
  /** Shift+Tab or the up arrow. */
  | { type: 'previous' }
  /** Ctrl+C or Esc. */
  | { type: 'cancel' };

export function initialLoginForm(email?: string): LoginFormState {
  const fixed = email !== undefined;
  return {
    field: fixed ? 'password' : 'email',
    email: email ?? '',
    password: '',
    emailFixed: fixed,
    error: null,
    status: 'editing',
  };
}

/** The next state after `event`. Final states ignore every event. */
export function transition(state: LoginFormState, event: LoginFormEvent): LoginFormState {
  if (state.status !== 'editing') return state;
  switch (event.type) {
    case 'text':
      return typeText(state, event.text);
    case 'backspace':
      return edit(state, (value) => [...value].slice(0, -1).join(''));
    case 'clear':
      return edit(state, () => '');
    case 'submit':
      return submit(state);
    case 'next':
      return state.field === 'email' ? moveTo(state, 'password') : state;
    case 'previous':
      return state.field === 'password' && !state.emailFixed ? moveTo(state, 'email') : state;
    case 'cancel':
      return { ...state, status: 'cancelled', error: null };
  }
}

function moveTo(state: LoginFormState, field: LoginFormField): LoginFormState {
  return { ...state, field, error: null };
}

function edit(state: LoginFormState, change: (value: string) => string): LoginFormState {
  return state.field === 'email'
    ? { ...state, email: change(state.email), error: null }
    : { ...state, password: change(state.password), error: null };
}

/**
 * Enter on the e-mail checks it and moves to the password; Enter on the password checks both and
 * submits. The e-mail is checked trimmed (and sent trimmed); the password never is.
 */
function submit(state: LoginFormState): LoginFormState {
  const email = state.email.trim();
  const emailError =
    email === ''
      ? AUTH_VALIDATION_TEXTS.emailRequired
      : isEmailAddress(email)
        ? null
        : AUTH_VALIDATION_TEXTS.emailInvalid;
  if (emailError !== null) return { ...state, field: 'email', error: emailError };
  if (state.field === 'email') return { ...state, field: 'password', error: null };
  if (state.password === '') return { ...state, error: AUTH_VALIDATION_TEXTS.passwordRequired };
  return { ...state, email, status: 'submitted', error: null };
}

/**
 * Applies text one character at a time: a paste of "ada@example.com\rsecret\r" fills both fields and
 * submits. Backspace and DEL delete, Ctrl+C cancels; other control characters are dropped.
 */
function typeText(initial: LoginFormState, text: string): LoginFormState {
  let state = initial;
  for (const character of text) {
    if (state.status !== 'editing') break;
    if (character === '\r' || character === '\n') state = submit(state);
    else if (character === '\u007f' || character === '\b') state = transition(state, { type: 'backspace' });
    else if (character === '\u0003') state = transition(state, { type: 'cancel' });
    else if (character === '\t') state = transition(state, { type: 'next' });
    else if (isPrintable(character)) state = edit(state, (value) => value + character);
  }
  return state;
}

function isPrintable(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  return code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code < 0xa0);
}

/** The parts of Ink's `Key` that the prompt reads (a structural copy, so this module needs no Ink). */
export interface KeyPress {
  readonly return: boolean;
  readonly escape: boolean;
  readonly ctrl: boolean;
  readonly shift: boolean;
  readonly tab: boolean;
  readonly backspace: boolean;
  readonly delete: boolean;
  readonly upArrow: boolean;
  readonly downArrow: boolean;
}

/**
 * What a key press means to the form, from Ink's `useInput(input, key)`; `null` for keys it ignores
 * (arrows left and right, function keys, other Ctrl combinations).
 */
export function keyToEvent(input: string, key: KeyPress): LoginFormEvent | null {
  if (key.ctrl && input === 'c') return { type: 'cancel' };
  if (key.ctrl && input === 'u') return { type: 'clear' };
  if (key.escape) return { type: 'cancel' };
  if (key.return) return { type: 'submit' };
  // Most terminals send DEL (0x7f) for Backspace, which Ink reports as `delete`: both erase backwards.
  if (key.backspace || key.delete) return { type: 'backspace' };
  if (key.tab) return key.shift ? { type: 'previous' } : { type: 'next' };
  if (key.upArrow) return { type: 'previous' };
  if (key.downArrow) return { type: 'next' };
  if (key.ctrl || input === '') return null;
  return { type: 'text', text: input };
}
