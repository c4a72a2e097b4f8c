import { Box, render, Text, useApp, useInput } from 'ink';
import { useEffect, useReducer } from 'react';
import { CancelledError } from '../errors/cli-error.js';
import { initialLoginForm, keyToEvent, type LoginFormState, transition } from './login-form.js';

/** What the prompt asked for. */
export interface Credentials {
  email: string;
  password: string;
}

export interface LoginPromptProps {
  /** The server being signed in to, shown in the title. */
  server: string;
  /** The title's words before the server: `Sign in to` unless told (`Confirm your password to make a token on`). */
  action?: string | undefined;
  /** From `--email`: shown, and only the password is asked for. */
  email?: string;
  /** Called once, with the final state (`submitted` or `cancelled`), before the prompt closes. */
  onDone: (state: LoginFormState) => void;
}

/**
 * The e-mail and password prompt. The password is never rendered, not even as one `*` per
 * character: its length is nobody's business either. Behaviour lives in `login-form.ts`.
 */
export function LoginPrompt({ server, action = 'Sign in to', email, onDone }: LoginPromptProps) {
  const [state, dispatch] = useReducer(transition, email, initialLoginForm);
  const { exit } = useApp();

  useInput(
    (input, key) => {
      const event = keyToEvent(input, key);
      if (event) dispatch(event);
    },
    { isActive: state.status === 'editing' },
  );

  useEffect(() => {
    if (state.status === 'editing') return;
    onDone(state);
    exit();
  }, [state, onDone, exit]);

  const editing = state.status === 'editing';
  const cursor = (field: LoginFormState['field']) => (editing && state.field === field ? '█' : '');
  return (
    <Box flexDirection="column">
      <Text>
        {action} <Text bold>{server}</Text>
      </Text>
      <Text>
        <Text dimColor={state.field !== 'email'}>E-mail: </Text>
        {state.email}
        {cursor('email')}
      </Text>
      {state.field === 'password' || state.status === 'submitted' ? (
        <Text>
          Password: <Text dimColor>{state.password === '' ? '' : '(hidden)'}</Text>
          {cursor('password')}
        </Text>
      ) : null}
      {state.error ? <Text color="red">{state.error}</Text> : null}
      {editing ? <Text dimColor>Enter to continue, Esc to cancel</Text> : null}
    </Box>
  );
}

/**
 * Asks for the e-mail (unless given) and the password on a terminal, on `output` (stderr, so that
 * stdout only carries the command's result).
 *
 * @throws CancelledError when the person presses Ctrl+C or Esc.
 */
export async function promptForCredentials(options: {
  server: string;
  /** The title's words before the server (`Sign in to`). */
  action?: string;
  email?: string;
  stdin: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
}): Promise<Credentials> {
  let final: LoginFormState | undefined;
  const instance = render(
    <LoginPrompt
      server={options.server}
      action={options.action}
      email={options.email}
      onDone={(state) => {
        final = state;
      }}
    />,
    {
      stdin: options.stdin,
      stdout: options.output,
      stderr: options.output,
      // Raw mode swallows Ctrl+C; the form turns it into `cancelled` and this function into an error.
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  await instance.waitUntilExit();
  if (final?.status !== 'submitted') throw new CancelledError('login cancelled');
  return { email: final.email, password: final.password };
}
