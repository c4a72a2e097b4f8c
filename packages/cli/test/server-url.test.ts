import { describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../src/cli-io.js';
import { checkServerUrl, DEFAULT_SERVER_URL, resolveServerUrl } from '../src/config/server-url.js';
import { UsageError } from '../src/errors/cli-error.js';

const ioWith = (env: Record<string, string>): CliIo => ({
  stdout: { write: () => {} },
  stderr: { write: () => {} },
  env,
});

describe('checkServerUrl', () => {
  it.each([
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['http://127.0.0.1:8787/', 'http://127.0.0.1:8787'],
    ['  https://Plans.Example.com  ', 'https://plans.example.com'],
    ['https://example.com/planwright//', 'https://example.com/planwright'],
    ['http://[::1]:8787', 'http://[::1]:8787'],
    ['https://example.com:443/', 'https://example.com'],
  ])('accepts %j as %j', (raw, url) => {
    expect(checkServerUrl(raw)).toEqual({ ok: true, url });
  });

  it.each([
    ['', 'is not a URL'],
    ['127.0.0.1:8787', 'needs http:// or https:// in front (did you mean http://127.0.0.1:8787?)'],
    ['localhost:8787', 'needs http:// or https:// in front (did you mean http://localhost:8787?)'],
    ['localhost', 'is not a URL; expected something like http://127.0.0.1:8787'],
    ['http://', 'is not a URL'],
    ['file:///etc/passwd', 'must start with http:// or https://'],
    ['https://a@example.com', 'must not contain a user name or password'],
    ['https://example.com/#top', 'must not have a query'],
  ])('rejects %j', (raw, reason) => {
    const checked = checkServerUrl(raw);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.reason).toContain(reason);
  });
});

describe('resolveServerUrl precedence: flag > PLANWRIGHT_SERVER > config file > default', () => {
  const env = { PLANWRIGHT_SERVER: 'http://env.example:1/' };
  const fromConfig = async () => 'http://config.example:2';

  it('uses the flag over everything, without reading the config file', async () => {
    const readConfiguredServer = vi.fn(fromConfig);
    await expect(
      resolveServerUrl({ flag: 'http://flag.example:3', io: ioWith(env), readConfiguredServer }),
    ).resolves.toEqual({ url: 'http://flag.example:3', source: 'flag' });
    expect(readConfiguredServer).not.toHaveBeenCalled();
  });

  it('uses PLANWRIGHT_SERVER (normalised) over the config file, without reading it', async () => {
    const readConfiguredServer = vi.fn(fromConfig);
    await expect(
      resolveServerUrl({ flag: undefined, io: ioWith(env), readConfiguredServer }),
    ).resolves.toEqual({
      url: 'http://env.example:1',
      source: 'env',
    });
    expect(readConfiguredServer).not.toHaveBeenCalled();
  });

  it('uses the config file when neither flag nor environment say anything; an empty variable is unset', async () => {
    await expect(
      resolveServerUrl({
        flag: undefined,
        io: ioWith({ PLANWRIGHT_SERVER: ' ' }),
        readConfiguredServer: fromConfig,
      }),
    ).resolves.toEqual({ url: 'http://config.example:2', source: 'config' });
  });

  it('falls back to the default', async () => {
    await expect(
      resolveServerUrl({ flag: undefined, io: ioWith({}), readConfiguredServer: async () => undefined }),
    ).resolves.toEqual({ url: DEFAULT_SERVER_URL, source: 'default' });
  });

  it('rejects a bad PLANWRIGHT_SERVER with a usage error that names the variable', async () => {
    const resolving = resolveServerUrl({
      flag: undefined,
      io: ioWith({ PLANWRIGHT_SERVER: 'localhost:8787' }),
      readConfiguredServer: fromConfig,
    });
    await expect(resolving).rejects.toBeInstanceOf(UsageError);
    await expect(resolving).rejects.toThrow(
      'PLANWRIGHT_SERVER: "localhost:8787" needs http:// or https:// in front (did you mean http://localhost:8787?)',
    );
  });
});
