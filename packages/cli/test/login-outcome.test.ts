import { type LoginResult, SIGN_IN_TEXTS } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { LoginError } from '../src/errors/cli-error.js';
import { describeUser, formatWait, loginOutcome } from '../src/login/login-outcome.js';

const context = { serverUrl: 'http://127.0.0.1:8787', email: 'ada@example.com', storedEmail: null };

describe('login outcomes', () => {
  it.each([
    [1, '1 second'],
    [42, '42 seconds'],
    [60, '1 minute'],
    [61, '1 minute 1 second'],
    [300, '5 minutes'],
  ])('says a wait of %i s as %j', (seconds, text) => {
    expect(formatWait(seconds)).toBe(text);
  });

  it.each([
    [{ email: 'ada@example.com', name: 'Ada Lovelace' }, 'Ada Lovelace <ada@example.com>'],
    [{ email: 'ada@example.com', name: 'ada@example.com' }, 'ada@example.com'],
    [{ email: 'ada@example.com', name: '  ' }, 'ada@example.com'],
    [{ email: 'ada@example.com', name: null }, 'ada@example.com'],
  ])('names %j as %j', (user, text) => {
    expect(describeUser(user)).toBe(text);
  });

  it.each<[LoginResult, string]>([
    [{ kind: 'forbidden', errors: [] }, SIGN_IN_TEXTS.initFailed],
    [{ kind: 'session_gone' }, SIGN_IN_TEXTS.unexpected],
    [{ kind: 'invalid', fieldErrors: {}, formErrors: [] }, SIGN_IN_TEXTS.failed],
  ])('refuses a %j answer with the words of spec 000 §8', (result, message) => {
    const outcome = loginOutcome(result, context);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error).toBeInstanceOf(LoginError);
      expect(outcome.error).toMatchObject({ code: 'login_failed', exitCode: 1, message });
    }
  });

  it('names the stored account when the server says this session is already signed in', () => {
    const outcome = loginOutcome({ kind: 'conflict' }, { ...context, storedEmail: 'bob@example.com' });
    expect(outcome.ok ? '' : outcome.error.message).toBe(
      'already signed in to http://127.0.0.1:8787 as bob@example.com',
    );
  });
});
