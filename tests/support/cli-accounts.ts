import { join } from 'node:path';
import { expect } from 'vitest';
import { runCliBinary } from './cli-binary.js';
import { type SdkAccount, signUpWithSdk, TEST_PASSWORD } from './sdk-accounts.js';
import type { TestServer } from './test-server.js';

/** An account with its own CLI config directory, signed in there with `planwright login`. */
export interface CliAccount extends SdkAccount {
  /** Its own config directory, where `planwright login` keeps its session. */
  configDir: string;
  /** Its address before the `@`: how comments mention it and versions name who kept them. */
  username: string;
}

/** How a run of the built bin ended, standard output as text. */
export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The built bin as a script runs it, against one real server: `planwright(account, args)` runs it as that
 * account, `createAccount(name)` signs `name@{domain}` up through the SDK and the CLI in with `planwright login`.
 * `where` is read at each call, as the server and the scratch folder are made in `beforeAll`.
 */
export function cliAccounts(where: () => { server: TestServer; scratch: string }, domain: string) {
  async function planwright(account: CliAccount, args: string[], input = ''): Promise<CliOutcome> {
    const { server, scratch } = where();
    const exit = await runCliBinary(
      { cwd: scratch, configDir: account.configDir, serverUrl: server.url },
      args,
      input,
    );
    return { code: exit.code, stdout: exit.stdout.toString('utf8'), stderr: exit.stderr };
  }

  async function createAccount(name: string): Promise<CliAccount> {
    const { server, scratch } = where();
    const account = {
      ...(await signUpWithSdk(server, `${name}@${domain}`)),
      configDir: join(scratch, name),
      username: name,
    };
    const login = await planwright(
      account,
      ['login', '--email', account.email, '--password-stdin'],
      TEST_PASSWORD,
    );
    expect(login).toMatchObject({ code: 0, stderr: '' });
    return account;
  }

  return { planwright, createAccount };
}
