import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runWithStreams } from './support/byte-io.js';
import { corpusPath } from './support/corpus.js';
import { closedPortUrl } from './support/http-server.js';
import { runCli, useTempDir } from './support/run-cli.js';

const MARKDOWN = [
  '# Market',
  '',
  'We sell **plans** to [founders](https://example.com/founders).',
  '',
  '## Size',
  '',
  '- one',
  '- two',
  '  1. nested',
  '',
  '## Trends',
  '',
  '> Growth is up.',
  '',
  '# Team',
  '',
  '## Founders',
  '',
  '```ts',
  'const ada = true;',
  '```',
  '',
].join('\n');

const INPUTS = ['md', 'docx', 'html', 'json'] as const;
const OUTPUTS = ['md', 'docx', 'pdf', 'html', 'json'] as const;

/** What a file of each output format starts with (read as Latin-1). */
const SIGNATURES: Record<(typeof OUTPUTS)[number], (start: string) => boolean> = {
  // From .docx the title page comes back as a first section of its own.
  md: (start) => start.startsWith('# '),
  // A zip archive's local file header: "PK", 3, 4.
  docx: (start) => start.startsWith('PK\u0003\u0004'),
  pdf: (start) => start.startsWith('%PDF-'),
  html: (start) => start.toLowerCase().startsWith('<!doctype html>'),
  json: (start) => /^\{\s*"type": "doc"/.test(start),
};

describe('planwright convert', () => {
  const dir = useTempDir();
  // No config, no session, and a server that is not there: convert must not care.
  let env: Record<string, string>;
  beforeEach(async () => {
    env = { PLANWRIGHT_CONFIG_DIR: join(dir.path, 'config'), PLANWRIGHT_SERVER: await closedPortUrl() };
    await writeFile(join(dir.path, 'plan.md'), MARKDOWN);
  });
  const cli = (...args: string[]) => runCli(args, env);
  const path = (name: string) => join(dir.path, name);

  it('converts between every input and output format, offline', async () => {
    for (const input of INPUTS.filter((format) => format !== 'md')) {
      const made = await cli('convert', path('plan.md'), '-o', path(`plan.${input}`));
      expect(made, input).toMatchObject({ exitCode: 0, stderr: '' });
    }
    for (const input of INPUTS) {
      for (const output of OUTPUTS) {
        const target = path(`from-${input}.${output}`);
        const result = await cli('convert', path(`plan.${input}`), '-o', target, '--title', 'Acme plan');
        expect(result, `${input} → ${output}`).toMatchObject({ exitCode: 0, stderr: '' });
        expect(result.stdout).toMatch(
          new RegExp(
            `^Converted .*plan\\.${input} \\(${input}\\) to .*from-${input}\\.${output} \\(${output}, `,
          ),
        );
        const bytes = await readFile(target);
        expect(SIGNATURES[output](bytes.toString('latin1')), `${input} → ${output}`).toBe(true);
      }
    }
    // The outline survives every input format.
    for (const input of INPUTS) {
      const markdown = await readFile(path(`from-${input}.md`), 'utf8');
      expect(markdown, input).toMatch(
        /# Market[\s\S]*## Size[\s\S]*## Trends[\s\S]*# Team[\s\S]*## Founders/,
      );
      expect(markdown, input).toContain('[founders](https://example.com/founders)');
    }
    expect((await readdir(dir.path)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  }, 180_000);

  it('reads a real .docx into Markdown', async () => {
    const result = await cli('convert', corpusPath('docx/pandoc-headers.docx'), '-o', path('headers.md'));
    expect(result.exitCode).toBe(0);
    expect(await readFile(path('headers.md'), 'utf8')).toMatch(/^# /m);
  });

  it('prints the import report on standard error', async () => {
    const result = await cli(
      'convert',
      corpusPath('docx/python-docx-having-images.docx'),
      '-o',
      path('i.md'),
    );
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/^note: .*\[image_dropped ×\d+\]$/m);
  });

  it('puts the report in the JSON with --json, and nothing on standard error', async () => {
    const result = await cli(
      'convert',
      corpusPath('docx/python-docx-having-images.docx'),
      '-o',
      path('i.json'),
      '--json',
    );
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toMatchObject({
      from: 'docx',
      to: 'json',
      output: path('i.json'),
      report: {
        format: 'docx',
        notes: expect.arrayContaining([expect.objectContaining({ code: 'image_dropped' })]),
      },
    });
  });

  it('writes text to standard output with -o - and --format', async () => {
    const result = await cli('convert', path('plan.md'), '-o', '-', '--format', 'html');
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toMatch(/^<!doctype html>/i);
    expect(result.stdout).toContain('<title>plan</title>');
  });

  it('writes a PDF into a pipe, and refuses to write it to a terminal', async () => {
    const piped = await runWithStreams(['convert', path('plan.md'), '-o', '-', '--format', 'pdf'], env);
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout.bytes().subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const terminal = await runWithStreams(['convert', path('plan.md'), '-o', '-', '--format', 'pdf'], env, {
      stdout: true,
    });
    expect(terminal.exitCode).toBe(2);
    expect(terminal.stderr.text()).toMatch(/^planwright: refusing to write binary \.pdf to a terminal\n/);
    expect(terminal.stdout.bytes().length).toBe(0);
  });

  it('keeps an existing output file unless --force', async () => {
    await writeFile(path('out.md'), 'mine');
    const refused = await cli('convert', path('plan.md'), '-o', path('out.md'));
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('already exists');
    expect(await readFile(path('out.md'), 'utf8')).toBe('mine');
    expect((await cli('convert', path('plan.md'), '-o', path('out.md'), '--force')).exitCode).toBe(0);
    expect(await readFile(path('out.md'), 'utf8')).toMatch(/^# Market/);
  });

  it.each([
    [
      ['plan.doc', '-o', 'x.md'],
      /^planwright: <input>: Unsupported file type: only \.md, \.docx, \.html, \.json files/,
    ],
    [
      ['plan.md', '-o', 'x.odt'],
      /^planwright: -o: "x\.odt" has an unknown extension \.odt; use \.md \(or \.markdown\), \.docx, \.pdf, \.html or \.json\n/,
    ],
    [
      ['plan.md', '-o', 'x.pdf', '--format', 'docx'],
      /^planwright: --format docx disagrees with -o "x\.pdf" \(a \.pdf file\): drop --format, or name the file \.docx\n$/,
    ],
    [
      ['plan.md', '-o', 'x.xyz', '--format', 'md'],
      /^planwright: -o: "x\.xyz" has an unknown extension \.xyz; use /,
    ],
    [['plan.md', '-o', 'x'], /^planwright: -o: cannot tell the format of "x"/],
    [['plan.md', '-o', '-'], /^planwright: -o - needs --format/],
    [['plan.md', '-o', 'x.md', '--format', 'rtf'], /^planwright: --format: "rtf" is not a format/],
    [['plan.md'], /^planwright: required option '-o, --output <file>' not specified\n/],
  ])('refuses %j with exit 2 and the accepted formats', async (args, message) => {
    const [input = '', ...rest] = args;
    const result = await cli('convert', path(input), ...rest);
    expect(result).toMatchObject({ exitCode: 2, stdout: '' });
    expect(result.stderr).toMatch(message);
  });

  it.each([
    ['docx-malformed/poi-truncated62886.docx'],
    ['docx-malformed/poi-bug53475-password-is-pass.docx'],
    ['docx-malformed/poi-ExternalEntityInText.docx'],
  ])('refuses the hostile %s with its one-line message, exit 1, writing nothing', async (file) => {
    const result = await cli('convert', corpusPath(file), '-o', path('out.md'));
    expect(result).toMatchObject({ exitCode: 1, stdout: '' });
    expect(result.stderr).toMatch(/^planwright: [^\n]+\n$/);
    expect(result.stderr).not.toContain('unexpected error');
    expect((await readdir(dir.path)).sort()).toEqual(['plan.md']);
  });

  it('refuses JSON that is not a document', async () => {
    await writeFile(path('bad.json'), '{"type": "paragraph"');
    const result = await cli('convert', path('bad.json'), '-o', path('out.md'), '--json');
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'format_error' } });
  });

  it('stops a conversion over its time limit and says how to raise it (exit 1)', async () => {
    // A 1 ms limit on the 180-page .docx: the import cannot finish in time, whatever the machine.
    const result = await cli(
      'convert',
      corpusPath('docx/poi-bug65649-very-large.docx'),
      '-o',
      path('large.md'),
      '--time-limit',
      '0.001',
    );
    expect(result).toMatchObject({ exitCode: 1, stdout: '' });
    expect(result.stderr).toContain(
      'The import took longer than 0 s (the limit --time-limit set) and was stopped; --time-limit <seconds> raises it.',
    );
    expect(await readdir(dir.path)).toEqual(['plan.md']);
  });

  it('takes --time-limit none, and refuses a limit that is not a number of seconds (exit 2)', async () => {
    const ok = await cli('convert', path('plan.md'), '-o', path('plan.pdf'), '--time-limit', 'none');
    expect(ok.exitCode, ok.stderr).toBe(0);
    for (const bad of ['0', '-5', 'soon', '']) {
      const result = await cli('convert', path('plan.md'), '-o', path('x.md'), '--time-limit', bad);
      expect(result.exitCode, bad).toBe(2);
      expect(result.stderr).toContain('--time-limit');
    }
  });

  it('stops a conversion over --memory-limit with a clear refusal (exit 1), writing nothing', async () => {
    const result = await cli(
      'convert',
      corpusPath('docx/poi-bug65649-very-large.docx'),
      '-o',
      path('large.md'),
      '--memory-limit',
      '96',
    );
    expect(result).toMatchObject({ exitCode: 1, stdout: '' });
    expect(result.stderr).toContain(
      'The conversion needed more than 96 MB of memory (the limit --memory-limit set) and was stopped; --memory-limit <MB> raises it.',
    );
    expect(await readdir(dir.path)).toEqual(['plan.md']);
  });

  it('takes --memory-limit none, and refuses a limit that is not a whole number of MB from 32 (exit 2)', async () => {
    const ok = await cli('convert', path('plan.md'), '-o', path('plan.docx'), '--memory-limit', 'none');
    expect(ok.exitCode, ok.stderr).toBe(0);
    for (const bad of ['0', '16', '1.5', 'lots', '']) {
      const result = await cli('convert', path('plan.md'), '-o', path('x.md'), '--memory-limit', bad);
      expect(result.exitCode, bad).toBe(2);
      expect(result.stderr).toContain('--memory-limit');
    }
  });

  it('says when the input cannot be read', async () => {
    const result = await cli('convert', path('missing.md'), '-o', path('out.md'));
    expect(result).toMatchObject({ exitCode: 1, stdout: '' });
    expect(result.stderr).toBe(`planwright: cannot read ${path('missing.md')}: no such file (ENOENT)\n`);
  });
});
