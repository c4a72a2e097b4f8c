import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors/cli-error.js';
import { MAX_PASSWORD_INPUT_BYTES, readPasswordFromStdin } from '../src/login/read-password.js';

const from = (...chunks: Array<string | Uint8Array>) => Readable.from(chunks);

describe('reading the password from standard input', () => {
  it.each([
    ['a trailing newline', 'secret\n', 'secret'],
    ['a trailing CRLF', 'secret\r\n', 'secret'],
    ['no newline', 'secret', 'secret'],
    ['only the last of two newlines', 'secret\n\n', 'secret\n'],
    ['spaces, kept', '  pass word  \n', '  pass word  '],
    ['a byte-order mark, dropped', '\uFEFFsecret', 'secret'],
  ])('strips %s', async (_name, input, password) => {
    await expect(readPasswordFromStdin(from(Buffer.from(input)))).resolves.toBe(password);
  });

  it('joins chunks, also when one splits a multi-byte character', async () => {
    const bytes = Buffer.from('pässwörd🔑\n');
    await expect(
      readPasswordFromStdin(from(bytes.subarray(0, 2), bytes.subarray(2, 13), bytes.subarray(13))),
    ).resolves.toBe('pässwörd🔑');
    await expect(readPasswordFromStdin(from('str', 'ing\n'))).resolves.toBe('string');
  });

  it.each([
    ['empty input', from(), '--password-stdin: standard input was empty; expected the password'],
    ['only a newline', from('\n'), '--password-stdin: standard input was empty; expected the password'],
    [
      'bytes that are not UTF-8',
      from(Buffer.from([0x70, 0xff, 0x0a])),
      '--password-stdin: standard input is not UTF-8 text',
    ],
    [
      'more than 64 KiB',
      from(Buffer.alloc(MAX_PASSWORD_INPUT_BYTES, 0x61), Buffer.from('a')),
      '--password-stdin: more than 64 KiB on standard input; expected one password',
    ],
    ['no standard input at all', undefined, '--password-stdin: there is no standard input to read'],
  ])('refuses %s with a usage error that never quotes the input', async (_name, stdin, message) => {
    const reading = readPasswordFromStdin(stdin);
    await expect(reading).rejects.toBeInstanceOf(UsageError);
    await expect(reading).rejects.toThrow(message);
  });

  it('stops reading at the limit instead of draining an endless stream', async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled++;
        this.push(Buffer.alloc(16 * 1024, 0x61));
      },
    });
    await expect(readPasswordFromStdin(endless)).rejects.toThrow('more than 64 KiB');
    expect(pulled).toBeLessThan(10);
  });
});
