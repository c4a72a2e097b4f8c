import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { confirm } from '../src/prompts/confirm.js';

function ask(answer: string | string[]) {
  let written = '';
  const output = { write: (text: string) => (written += text) };
  const chunks = (Array.isArray(answer) ? answer : [answer]).map((chunk) => Buffer.from(chunk));
  return confirm('Delete it?', Readable.from(chunks), output).then((yes) => ({ yes, written }));
}

describe('confirm', () => {
  it('asks on the output with the safe default shown', async () => {
    expect((await ask('y\n')).written).toBe('Delete it? [y/N] ');
  });

  it.each(['y\n', 'Y\n', 'yes\n', ' YES \n', 'y\r\n', 'y'])('takes %j as yes', async (answer) => {
    expect((await ask(answer)).yes).toBe(true);
  });

  it.each(['\n', 'n\n', 'no\n', 'yess\n', 'ye s\n', '', 'sure\n', 'y'.repeat(5000)])(
    'takes %j as no',
    async (answer) => {
      expect((await ask(answer)).yes).toBe(false);
    },
  );

  it('reads only the first line, across chunks and split UTF-8', async () => {
    expect((await ask(['y', 'e', 's\nno\n'])).yes).toBe(true);
    expect((await ask(['n\n', 'y\n'])).yes).toBe(false);
    const euro = Buffer.from('€\n');
    const result = await confirm('?', Readable.from([euro.subarray(0, 1), euro.subarray(1)]), {
      write: () => {},
    });
    expect(result).toBe(false);
  });
});
