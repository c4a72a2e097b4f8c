import { AbortedError, ApiError, AuthRequiredError, NetworkError, PlanwrightError } from '@planwright/sdk';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../src/cli-io.js';
import { CliErrorCode, LoginError, ServerUnreachableError, UsageError } from '../src/errors/cli-error.js';
import { reportError } from '../src/errors/report-error.js';
import { ExitCode } from '../src/exit-codes.js';

async function report(error: unknown, options: { json?: boolean; env?: Record<string, string> } = {}) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: options.env ?? {},
  };
  const exitCode = await reportError(error, io, { json: options.json ?? false });
  return { exitCode, stdout, stderr };
}

describe('the top-level error handler', () => {
  it('prints a CLI error as one line plus its suggestion, with its exit code', async () => {
    expect(await report(new UsageError('--server: bad', { suggestion: 'Try again.' }))).toEqual({
      exitCode: ExitCode.usage,
      stdout: '',
      stderr: 'planwright: --server: bad\nTry again.\n',
    });
    expect((await report(new ServerUnreachableError('http://x.example', 'ENOTFOUND'))).exitCode).toBe(
      ExitCode.serverUnreachable,
    );
  });

  it.each([
    ['an AuthRequiredError', new AuthRequiredError({ status: 401 }), ExitCode.notSignedIn, 'auth_required'],
    [
      'a NetworkError',
      new NetworkError({ cause: new TypeError('fetch failed') }),
      ExitCode.serverUnreachable,
      'network_error',
    ],
    [
      'a timed-out request',
      new AbortedError({ reason: new DOMException('late', 'TimeoutError') }),
      ExitCode.serverUnreachable,
      'aborted',
    ],
    [
      'an ApiError',
      new ApiError({ status: 404, data: { detail: 'Not found.' }, text: '{"detail":"Not found."}' }),
      ExitCode.failure,
      'api_error',
    ],
    [
      'any other PlanwrightError',
      new PlanwrightError({ code: 'invalid_input', message: 'title: too long' }),
      ExitCode.failure,
      'invalid_input',
    ],
  ])('maps %s from the SDK to its exit code, as a user error', async (_name, error, exitCode, code) => {
    const result = await report(error, { json: true });
    expect(result.exitCode).toBe(exitCode);
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code, exitCode } });
    expect(result.stderr).not.toContain('bug');
  });

  it("shows an ApiError's detail instead of the raw body", async () => {
    const error = new ApiError({
      status: 404,
      statusText: 'Not Found',
      data: { detail: 'No such plan.' },
      text: '{"detail":"No such plan."}',
    });
    expect((await report(error)).stderr).toBe(
      'planwright: the server answered 404 Not Found: No such plan.\n',
    );
  });

  it("prints a role refusal (404 not_permitted) as the server's reason alone: the plan is not gone", async () => {
    const detail = 'Only the owner can invite people to this document.';
    const error = new ApiError({
      status: 404,
      statusText: 'Not Found',
      data: { detail, code: 'not_permitted' },
      text: JSON.stringify({ detail, code: 'not_permitted' }),
    });
    expect(await report(error)).toEqual({
      exitCode: ExitCode.failure,
      stdout: '',
      stderr: `planwright: ${detail}\n`,
    });
    expect(JSON.parse((await report(error, { json: true })).stderr)).toEqual({
      error: { code: 'api_error', message: detail, exitCode: ExitCode.failure },
    });
  });

  it('prints a 428 reauthentication_required with how to sign in again from the terminal', async () => {
    const detail = 'Deleting a plan shared with others needs your password again: confirm it, then delete.';
    const error = new ApiError({
      status: 428,
      statusText: 'Precondition Required',
      data: { detail, code: 'reauthentication_required' },
      text: JSON.stringify({ detail, code: 'reauthentication_required' }),
    });
    expect((await report(error)).stderr).toBe(
      `planwright: ${detail} Run \`planwright logout\` and \`planwright login\`, then try again within 5 minutes.\n`,
    );
  });

  describe('text from the server', () => {
    // Clears the screen, sets the window title, overwrites the line, turns the rest around, and colours.
    const hostile = 'Not \u001b[2Jfound\u001b]0;pwned\u0007.\r\nrm -rf ~ \u202eevil\u009b31m';
    const safe = 'Not found.  rm -rf ~ evil';
    /** What a terminal would act on: C0/C1 controls (but the line feeds between lines) and bidi controls. */
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
    const actsOn = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

    it("makes an ApiError's detail and status text safe to print", async () => {
      const error = new ApiError({
        status: 404,
        statusText: 'Not\u001b[5m Found',
        data: { detail: hostile },
        text: JSON.stringify({ detail: hostile }),
      });
      expect((await report(error)).stderr).toBe(`planwright: the server answered 404 Not Found: ${safe}\n`);
    });

    it('makes the message and suggestion of any other error safe, in JSON too', async () => {
      const sdkError = new PlanwrightError({
        code: 'invalid_response',
        message: hostile,
        suggestion: hostile,
      });
      expect((await report(sdkError)).stderr).toBe(`planwright: ${safe}\n${safe}\n`);
      // A login refusal carries the server's own sentence.
      const refused = new LoginError(CliErrorCode.loginFailed, hostile);
      const json = await report(refused, { json: true });
      expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'login_failed', message: safe } });
      expect(json.stderr).not.toMatch(actsOn);
      expect(json.stderr).not.toContain('\\u001b');
    });

    it('keeps ordinary text of any script as it is', async () => {
      const detail = 'Le document « 計画 » 👩‍👩‍👧 est introuvable. مرحبا';
      const error = new ApiError({ status: 404, data: { detail }, text: JSON.stringify({ detail }) });
      expect((await report(error)).stderr).toBe(`planwright: the server answered 404: ${detail}\n`);
    });

    it('makes the debug stack trace safe too, line by line', async () => {
      const error = new ApiError({ status: 500, data: { detail: hostile }, text: hostile });
      const result = await report(error, { env: { PLANWRIGHT_DEBUG: '1' } });
      expect(result.stderr).toMatch(/\n\s+at /);
      expect(result.stderr).not.toMatch(actsOn);
    });
  });

  it('prints the SDK suggestion under the message', async () => {
    const result = await report(new AuthRequiredError({ status: 401 }));
    expect(result.stderr).toBe('planwright: Auth required (401)\nSign in again to continue.\n');
  });

  it('treats anything else as a bug: exit 70, the message and how to report it, no stack trace', async () => {
    const result = await report(new TypeError("Cannot read properties of undefined (reading 'x')"));
    expect(result.exitCode).toBe(ExitCode.internal);
    const [message, hint, ...rest] = result.stderr.trimEnd().split('\n');
    expect(message).toBe("planwright: unexpected error: Cannot read properties of undefined (reading 'x')");
    expect(hint).toMatch(/^This is a bug in planwright\. Please report it with .*PLANWRIGHT_DEBUG=1/);
    expect(rest).toEqual([]);
  });

  it('handles thrown non-errors as bugs too', async () => {
    expect(await report('just a string')).toMatchObject({
      exitCode: ExitCode.internal,
      stderr: expect.stringMatching(/^planwright: unexpected error: just a string\n/),
    });
  });

  it('prints the stack trace and the causes with PLANWRIGHT_DEBUG set', async () => {
    const error = new Error('outer', { cause: new Error('inner') });
    const result = await report(error, { env: { PLANWRIGHT_DEBUG: '1' } });
    expect(result.stderr).toMatch(/Error: outer\n\s+at /);
    expect(result.stderr).toMatch(/Caused by:\nError: inner\n\s+at /);
  });

  it('stays silent for --help and --version (exit 0) and for help shown instead of a command (exit 2)', async () => {
    expect(await report(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
    expect(await report(new CommanderError(1, 'commander.help', '(outputHelp)'))).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: '',
    });
  });

  it('writes the bug report as JSON too with --json', async () => {
    const result = await report(new RangeError('boom'), { json: true });
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        code: 'internal',
        message: 'unexpected error: boom',
        suggestion: expect.stringContaining('This is a bug in planwright.'),
        exitCode: 70,
      },
    });
  });
});
