import { AUTH_VALIDATION_TEXTS } from '@planwright/sdk';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LoginFormState } from '../src/login/login-form.js';
import { LoginPrompt } from '../src/login/login-prompt.js';

const SERVER = 'http://127.0.0.1:8787';
/** Ink handles input on the next turns of the event loop; wait until `check` passes. */
const settle = (check: () => void) => vi.waitFor(check, { timeout: 2000, interval: 5 });

function renderPrompt(email?: string) {
  const onDone = vi.fn<(state: LoginFormState) => void>();
  const screen = render(<LoginPrompt server={SERVER} email={email} onDone={onDone} />);
  return { ...screen, onDone, frame: () => screen.lastFrame() ?? '' };
}

afterEach(() => {
  cleanup();
});

describe('the login prompt (Ink)', () => {
  it('asks for the e-mail, then the password, which it never shows', async () => {
    const prompt = renderPrompt();
    expect(prompt.frame()).toContain(`Sign in to ${SERVER}`);
    expect(prompt.frame()).toContain('E-mail: █');
    expect(prompt.frame()).not.toContain('Password');

    prompt.stdin.write('ada@example.com');
    await settle(() => expect(prompt.frame()).toContain('E-mail: ada@example.com█'));
    prompt.stdin.write('\r');
    await settle(() => expect(prompt.frame()).toContain('Password: █'));

    prompt.stdin.write('correct horse battery staple');
    await settle(() => expect(prompt.frame()).toContain('Password: (hidden)█'));
    prompt.stdin.write('\r');
    await settle(() => expect(prompt.onDone).toHaveBeenCalledTimes(1));
    expect(prompt.onDone.mock.calls[0]?.[0]).toMatchObject({
      status: 'submitted',
      email: 'ada@example.com',
      password: 'correct horse battery staple',
    });
    for (const frame of prompt.frames) expect(frame).not.toContain('horse');
    expect(prompt.frame()).not.toContain('Enter to continue');
  });

  it('shows the e-mail from --email and asks only for the password', async () => {
    const prompt = renderPrompt('ada@example.com');
    expect(prompt.frame()).toContain('E-mail: ada@example.com\n');
    expect(prompt.frame()).toContain('Password: █');
    prompt.stdin.write('secret\r');
    await settle(() =>
      expect(prompt.onDone).toHaveBeenCalledWith(expect.objectContaining({ status: 'submitted' })),
    );
  });

  it('shows why an e-mail is refused, in the words of spec 000 §5', async () => {
    const prompt = renderPrompt();
    prompt.stdin.write('ada');
    await settle(() => expect(prompt.frame()).toContain('E-mail: ada█'));
    prompt.stdin.write('\r');
    await settle(() => expect(prompt.frame()).toContain(AUTH_VALIDATION_TEXTS.emailInvalid));
    expect(prompt.onDone).not.toHaveBeenCalled();
  });

  it('erases with Backspace (DEL)', async () => {
    const prompt = renderPrompt();
    prompt.stdin.write('adx');
    await settle(() => expect(prompt.frame()).toContain('E-mail: adx█'));
    prompt.stdin.write('\u007f');
    await settle(() => expect(prompt.frame()).toContain('E-mail: ad█'));
  });

  it.each([
    ['Ctrl+C', '\u0003'],
    ['Esc', '\u001b'],
  ])('cancels on %s', async (_name, key) => {
    const prompt = renderPrompt('ada@example.com');
    prompt.stdin.write('sec');
    await settle(() => expect(prompt.frame()).toContain('(hidden)'));
    prompt.stdin.write(key);
    await settle(() =>
      expect(prompt.onDone).toHaveBeenCalledWith(expect.objectContaining({ status: 'cancelled' })),
    );
  });
});
