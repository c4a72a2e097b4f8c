import { execFile } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { createPlanwrightClient } from '@planwright/sdk';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_PASSWORD, verifiedAccount } from '../support/browser-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/*
 * The SDK as npm would publish it (examples/SPEC.md, rules INT-P1–P6): packed with `npm pack` (its `prepack`
 * builds what is stale), then checked by publint, are-the-types-wrong and API Extractor, then installed from
 * the tarballs with the CLI's into empty folders, as a user would. PLANWRIGHT_SDK_DIR packs another folder
 * holding a built copy instead (its scripts are not run).
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const sdkDir = join(root, 'packages/sdk');
const packDir = process.env.PLANWRIGHT_SDK_DIR ? resolve(process.env.PLANWRIGHT_SDK_DIR) : sdkDir;
/** One API report per public entry point of the package's `exports`. */
const API_REPORT_CONFIGS = ['', '.model', '.formats', '.formats-node', '.proposals', '.live', '.testing'].map(
  (name) => join(sdkDir, `api-extractor${name}.json`),
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
  const { stdout } = await run(
    'npm',
    [
      'pack',
      packDir,
      '--pack-destination',
      work,
      '--json',
      ...(packDir === sdkDir ? [] : ['--ignore-scripts']),
    ],
    { cwd: root },
  );
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

/** The most an install of the SDK alone (its main entry: the API client) may put in node_modules. */
const API_ONLY_INSTALL_LIMIT_BYTES = 15 * 1000 * 1000;

/** npm as a user runs it: none of the `npm_*` settings of the `npm test` this runs under. */
function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
}

/** `npm install` of `specs` into a new empty project folder; npm's own output is kept for its warnings. */
async function installInto(name: string, specs: string[]): Promise<{ dir: string; output: string }> {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  const { stdout, stderr } = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'warn', ...specs],
    { cwd: dir, env: userEnv(), maxBuffer: 16 * 1024 * 1024 },
  );
  return { dir, output: stdout + stderr };
}

/** Bytes of every file under `path`, symbolic links counted as links (as `du -sb` does). */
function bytesUnder(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, entry) => sum + bytesUnder(join(path, entry)), stat.size);
}

/** A consumer's script: signs in with the SDK's main entry and prints the titles of its documents. */
const LIST_DOCUMENTS_SCRIPT = `import { createPlanwrightClient } from '@planwright/sdk';
const [baseUrl, email, password] = process.argv.slice(2);
const client = createPlanwrightClient({ baseUrl });
const signedIn = await client.auth.login({ email, password });
if (signedIn.kind !== 'authenticated') throw new Error('not signed in: ' + signedIn.kind);
const { items, total } = await client.documents.list({ page: 1, pageSize: 100 });
console.log(JSON.stringify({ total, titles: items.map((document) => document.title) }));
`;

describe('the SDK and CLI tarballs, installed into empty folders', () => {
  const email = 'packed-sdk@example.com';
  let server: TestServer;
  let cliTarball: string;
  let account: Promise<void> | undefined;
  /** A verified account with one document, made once (expect.poll, which it uses, runs only inside a test). */
  const signedUpWithOnePlan = () => {
    account ??= (async () => {
      await verifiedAccount(server, email);
      const client = createPlanwrightClient({ baseUrl: server.url });
      await client.auth.login({ email, password: TEST_PASSWORD });
      await client.documents.create({ title: 'Packed plan' });
    })();
    return account;
  };

  beforeAll(async () => {
    server = await startTestServer();
    const { stdout } = await run(
      'npm',
      ['pack', join(root, 'packages/cli'), '--pack-destination', work, '--json'],
      { cwd: root },
    );
    const [packed] = z.array(z.object({ filename: z.string() })).parse(JSON.parse(stdout));
    if (!packed) throw new Error('npm pack wrote no CLI tarball');
    cliTarball = join(work, packed.filename);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('INT-P5: the SDK alone (the API client) installs light, with no engine warning, and signs in and lists documents', async () => {
    const { dir, output } = await installInto('api-only', [tarball]);
    expect(output).not.toContain('EBADENGINE');
    const lock = z
      .object({ packages: z.record(z.string(), z.unknown()) })
      .parse(JSON.parse(readFileSync(join(dir, 'node_modules/.package-lock.json'), 'utf8')));
    const packages = Object.keys(lock.packages).filter((path) => path.startsWith('node_modules/'));
    const bytes = bytesUnder(join(dir, 'node_modules'));
    const measured = `${packages.length} packages, ${(bytes / 1e6).toFixed(1)} MB: ${packages.join(', ')}`;
    expect(bytes, measured).toBeLessThanOrEqual(API_ONLY_INSTALL_LIMIT_BYTES);
    // The optional peers (Tiptap, docx, pdfmake…) are not installed.
    expect(packages.sort(), measured).toEqual(['node_modules/@planwright/sdk', 'node_modules/zod']);

    writeFileSync(join(dir, 'list-documents.mjs'), LIST_DOCUMENTS_SCRIPT);
    await signedUpWithOnePlan();
    const listed = await run(process.execPath, ['list-documents.mjs', server.url, email, TEST_PASSWORD], {
      cwd: dir,
    });
    expect(JSON.parse(listed.stdout)).toEqual({ total: 1, titles: ['Packed plan'] });

    // An entry that needs an optional package says which to install, as a typed SDK error.
    const formats = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import('@planwright/sdk/formats/node').then(() => console.log('loaded'), (e) => console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message, suggestion: e.suggestion })))",
      ],
      { cwd: dir },
    );
    const refusal = z
      .object({ name: z.string(), code: z.string(), message: z.string(), suggestion: z.string() })
      .parse(JSON.parse(formats.stdout));
    expect(refusal).toMatchObject({ name: 'PlanwrightError', code: 'missing_dependency' });
    expect(refusal.message).toMatch(
      /^@planwright\/sdk\/formats\/node needs the package \S+, which is not installed/,
    );
    expect(refusal.suggestion).toMatch(/^npm install .*docx@\^9\.15\.2.*pdfmake@/);
  });

  it('INT-P6: with the CLI, both tarballs install from the registry: the script lists documents, and npx planwright runs', async () => {
    const { dir } = await installInto('with-cli', [tarball, cliTarball]);
    writeFileSync(join(dir, 'list-documents.mjs'), LIST_DOCUMENTS_SCRIPT);
    await signedUpWithOnePlan();
    const listed = await run(process.execPath, ['list-documents.mjs', server.url, email, TEST_PASSWORD], {
      cwd: dir,
    });
    expect(JSON.parse(listed.stdout)).toEqual({ total: 1, titles: ['Packed plan'] });

    const cliVersion = z
      .object({ version: z.string() })
      .parse(JSON.parse(readFileSync(join(root, 'packages/cli/package.json'), 'utf8'))).version;
    const env = { ...userEnv(), PLANWRIGHT_CONFIG_DIR: join(dir, 'config') };
    const version = await run('npx', ['--no-install', 'planwright', '--version'], { cwd: dir, env });
    expect(version.stdout.trim()).toBe(cliVersion);
    const status = await run(
      'npx',
      ['--no-install', 'planwright', 'status', '--json', '--server', server.url],
      {
        cwd: dir,
        env,
      },
    );
    expect(JSON.parse(status.stdout)).toMatchObject({ server: server.url, status: 'ok' });
    // The CLI brings the SDK's optional packages itself: an offline conversion to .docx works.
    writeFileSync(join(dir, 'plan.md'), '# Plan\n\n## Market\n\nWho buys.\n');
    await run('npx', ['--no-install', 'planwright', 'convert', 'plan.md', '-o', 'plan.docx'], {
      cwd: dir,
      env,
    });
    expect(readFileSync(join(dir, 'plan.docx')).subarray(0, 2).toString()).toBe('PK');
  });
});
