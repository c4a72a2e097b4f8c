import { AUTH_VALIDATION_TEXTS } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import {
  initialLoginForm,
  type KeyPress,
  keyToEvent,
  type LoginFormEvent,
  type LoginFormState,
  transition,
} from '../src/login/login-form.js';

const run = (state: LoginFormState, ...events: LoginFormEvent[]) => events.reduce(transition, state);
const text = (value: string): LoginFormEvent => ({ type: 'text', text: value });
const submit: LoginFormEvent = { type: 'submit' };

describe('the login form', () => {
  it('asks for the e-mail first, then the password, and submits the trimmed e-mail and the exact password', () => {
    const state = run(initialLoginForm(), text(' ada@example.com '), submit, text(' pass word '), submit);
    expect(state).toMatchObject({ status: 'submitted', email: 'ada@example.com', password: ' pass word ' });
  });

  it('starts at the password, with the e-mail fixed, when --email gave it', () => {
    const state = initialLoginForm('ada@example.com');
    expect(state).toMatchObject({ field: 'password', email: 'ada@example.com', emailFixed: true });
    expect(run(state, { type: 'previous' }).field).toBe('password');
    expect(run(state, text('secret'), submit)).toMatchObject({ status: 'submitted', password: 'secret' });
  });

  it.each([
    ['', AUTH_VALIDATION_TEXTS.emailRequired],
    ['   ', AUTH_VALIDATION_TEXTS.emailRequired],
    ['ada', AUTH_VALIDATION_TEXTS.emailInvalid],
    ['ada@example', AUTH_VALIDATION_TEXTS.emailInvalid],
  ])('keeps the e-mail %j with the message of spec 000 §5', (email, message) => {
    const state = run(initialLoginForm(), text(email), submit);
    expect(state).toMatchObject({ field: 'email', status: 'editing', error: message });
  });

  it('needs a password, and forgets the message once typing resumes', () => {
    const state = run(initialLoginForm('ada@example.com'), submit);
    expect(state.error).toBe(AUTH_VALIDATION_TEXTS.passwordRequired);
    expect(run(state, text('x')).error).toBeNull();
  });

  it('goes back to an invalid e-mail when the password is submitted', () => {
    const state = run(
      initialLoginForm(),
      text('ada@example.com'),
      submit,
      { type: 'previous' },
      { type: 'clear' },
    );
    expect(run(state, text('nope'), { type: 'next' }, text('pw'), submit)).toMatchObject({
      field: 'email',
      error: AUTH_VALIDATION_TEXTS.emailInvalid,
      status: 'editing',
    });
  });

  it('erases whole characters, emoji included', () => {
    const state = run(initialLoginForm('ada@example.com'), text('pw🔑'), { type: 'backspace' });
    expect(state.password).toBe('pw');
  });

  it('handles a paste or fast typing that holds Enter, Backspace and Tab', () => {
    expect(run(initialLoginForm(), text('ada@example.com\rsecrex\u007ft\r'))).toMatchObject({
      status: 'submitted',
      email: 'ada@example.com',
      password: 'secret',
    });
    expect(run(initialLoginForm(), text('ada@example.com\tpw\n'))).toMatchObject({ status: 'submitted' });
  });

  it('drops control characters and stops reading at the end of the form', () => {
    const state = run(initialLoginForm('ada@example.com'), text('a\u0000b\u001bc\u0085d\rignored'));
    expect(state).toMatchObject({ status: 'submitted', password: 'abcd' });
  });

  it('cancels on Ctrl+C (also inside pasted text), and then ignores everything', () => {
    const cancelled = run(initialLoginForm(), text('ada\u0003more'));
    expect(cancelled).toMatchObject({ status: 'cancelled', email: 'ada' });
    expect(run(cancelled, text('x'), submit)).toBe(cancelled);
  });
});

describe('keys to events', () => {
  const none: KeyPress = {
    return: false,
    escape: false,
    ctrl: false,
    shift: false,
    tab: false,
    backspace: false,
    delete: false,
    upArrow: false,
    downArrow: false,
  };

  it.each<[string, string, Partial<KeyPress>, LoginFormEvent | null]>([
    ['Ctrl+C', 'c', { ctrl: true }, { type: 'cancel' }],
    ['Esc', '', { escape: true }, { type: 'cancel' }],
    ['Ctrl+U', 'u', { ctrl: true }, { type: 'clear' }],
    ['Enter', '\r', { return: true }, { type: 'submit' }],
    ['Backspace (DEL, reported as delete)', '', { delete: true }, { type: 'backspace' }],
    ['Ctrl+H', '', { backspace: true }, { type: 'backspace' }],
    ['Tab', '', { tab: true }, { type: 'next' }],
    ['Shift+Tab', '', { tab: true, shift: true }, { type: 'previous' }],
    ['up', '', { upArrow: true }, { type: 'previous' }],
    ['down', '', { downArrow: true }, { type: 'next' }],
    ['another Ctrl key', 'a', { ctrl: true }, null],
    ['a key without text (left arrow)', '', {}, null],
    ['a letter', 'A', { shift: true }, { type: 'text', text: 'A' }],
    ['a paste', 'pass word', {}, { type: 'text', text: 'pass word' }],
  ])('%s', (_name, input, key, event) => {
    expect(keyToEvent(input, { ...none, ...key })).toEqual(event);
  });
});
