import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

/*
 * The SDK as npm would publish it (examples/SPEC.md, rules INT-P1–P4): packed with `npm pack`, then
 * checked by publint, are-the-types-wrong and API Extractor. It reads the built `dist/` (`npm test`
 * builds first); PLANWRIGHT_SDK_DIR packs another folder holding a built copy instead.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const sdkDir = join(root, 'packages/sdk');
const packDir = process.env.PLANWRIGHT_SDK_DIR ? resolve(process.env.PLANWRIGHT_SDK_DIR) : sdkDir;
/** One API report per public entry point of the package's `exports`. */
const API_REPORT_CONFIGS = ['', '.model', '.formats', '.formats-node', '.proposals', '.testing'].map((name) =>
  join(sdkDir, `api-extractor${name}.json`),
);
const UPDATE_API = 'npm run api:sdk';
const UPDATE_DOCS = 'npm run docs:sdk';
/** Terminal colour codes, which TypeDoc writes around its levels. */
const ANSI_COLOURS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

let work: string;
let tarball: string;
/** The unpacked tarball: exactly the files a consumer installs. */
let unpacked: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'planwright-sdk-package-'));
  const { stdout } = await run('npm', ['pack', packDir, '--pack-destination', work, '--json'], { cwd: root });
  const [packed] = z.array(z.object({ filename: z.string() })).parse(JSON.parse(stdout));
  if (!packed) throw new Error('npm pack wrote no tarball');
  tarball = join(work, packed.filename);
  await run('tar', ['-xzf', tarball, '-C', work]);
  unpacked = join(work, 'package');
  // The package's dependencies (zod, Tiptap…) resolve from the workspace, as from a consumer's node_modules.
  symlinkSync(join(root, 'node_modules'), join(unpacked, 'node_modules'), 'dir');
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed @planwright/sdk', () => {
  it('INT-P1: publint (strict) finds nothing in the tarball', async () => {
    const bytes = readFileSync(tarball);
    const { messages, pkg } = await publint({
      pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
      strict: true,
    });
    expect(messages.map((message) => formatMessage(message, pkg, { color: false }) ?? message.code)).toEqual(
      [],
    );
  });

  it('INT-P2: are-the-types-wrong finds no problem for ESM consumers (node16 from ESM, bundler)', async () => {
    const attw = join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js');
    // esm-only: the package is ESM only by design, so `require` from CommonJS and node10 are out of scope.
    const result = await run(
      process.execPath,
      [attw, tarball, '--profile', 'esm-only', '--format', 'json', '--no-color'],
      { cwd: work, maxBuffer: 64 * 1024 * 1024 },
    ).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => error,
    );
    // Problems are grouped by kind; the exit code says whether any counts for this profile.
    const answer = z
      .object({ analysis: z.object({ entrypoints: z.record(z.string(), z.unknown()) }) })
      .parse(JSON.parse(result.stdout));
    const exportsField = z
      .record(z.string(), z.unknown())
      .parse(JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')).exports);
    // Every subpath of `exports` was analysed, and none has a problem that counts for ESM.
    expect(Object.keys(answer.analysis.entrypoints).sort()).toEqual(Object.keys(exportsField).sort());
    expect(result.code, result.stdout.slice(0, 2000)).toBe(0);
  });

  it(`INT-P3: the API reports in packages/sdk/api match every entry point (update: ${UPDATE_API})`, () => {
    const reportTemp = join(work, 'api-report');
    const configs = API_REPORT_CONFIGS.map((path) => {
      const configObject = ExtractorConfig.loadFile(path);
      // Analyse the unpacked tarball's declarations; compare with the committed reports.
      configObject.projectFolder = unpacked;
      configObject.mainEntryPointFilePath = configObject.mainEntryPointFilePath?.replace(
        '<projectFolder>',
        unpacked,
      );
      if (configObject.apiReport) {
        configObject.apiReport.reportFolder = join(sdkDir, 'api');
        configObject.apiReport.reportTempFolder = reportTemp;
      }
      return ExtractorConfig.prepare({
        configObject,
        configObjectFullPath: path,
        packageJsonFullPath: join(unpacked, 'package.json'),
      });
    });
    const [first] = configs;
    if (!first) throw new Error('no API Extractor configuration');
    // One TypeScript program for all six entry points: the analysis is the slow part.
    const compilerState = CompilerState.create(first, {
      additionalEntryPoints: configs.map((config) => config.mainEntryPointFilePath),
    });
    const changed: string[] = [];
    const problems: string[] = [];
    for (const config of configs) {
      const result = Extractor.invoke(config, {
        localBuild: false,
        compilerState,
        messageCallback: (message) => {
          if (message.logLevel === 'error' || message.logLevel === 'warning')
            problems.push(`${config.reportFilePath}: ${message.text}`);
          // The report comparison is asserted below with its own words; nothing to print.
          message.handled = true;
        },
      });
      if (result.apiReportChanged) changed.push(config.reportFilePath.slice(root.length));
    }
    expect(
      changed,
      `The SDK's public surface changed: review the differences, then run \`${UPDATE_API}\` and commit packages/sdk/api/`,
    ).toEqual([]);
    expect(problems.filter((text) => !text.includes('API report'))).toEqual([]);
  });

  it('INT-P4: TypeDoc documents every entry point with no warning, and docs/sdk is what it generates', async () => {
    const typedoc = join(root, 'node_modules/typedoc/bin/typedoc');
    const out = join(work, 'sdk-docs');
    // treatWarningsAsErrors is set in typedoc.json, so any warning is a non-zero exit with its text.
    const result = await run(
      process.execPath,
      [typedoc, '--options', join(sdkDir, 'typedoc.json'), '--out', out],
      { cwd: root, maxBuffer: 16 * 1024 * 1024 },
    ).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => error,
    );
    const lines = result.stdout.replace(ANSI_COLOURS, '').split('\n');
    expect(lines.filter((line) => /\[(warning|error)\]/.test(line))).toEqual([]);
    expect(result.code).toBe(0);
    const committed = join(root, 'docs/sdk');
    const files = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
    expect(files(committed), `docs/sdk is stale: run \`${UPDATE_DOCS}\` and commit it`).toEqual(files(out));
    for (const file of files(out).filter((name) => name.endsWith('.md'))) {
      expect(
        readFileSync(join(committed, file), 'utf8') === readFileSync(join(out, file), 'utf8'),
        `docs/sdk/${file} is stale: run \`${UPDATE_DOCS}\` and commit it`,
      ).toBe(true);
    }
  });
});
