import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// bin/planwright.js, the file npm links as `planwright` (package.json `bin`), copied into a scratch package
// so each test chooses what its dist/cli.js is: missing, a working one, or one that fails on its own.
const committedBin = fileURLToPath(new URL('../bin/planwright.js', import.meta.url));
let scratch = '';

beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'planwright-bin-entry-'));
  await mkdir(join(scratch, 'bin'));
  await copyFile(committedBin, join(scratch, 'bin/planwright.js'));
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function runBin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(scratch, 'bin/planwright.js'), ...args], (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

async function writeCli(source: string): Promise<void> {
  await mkdir(join(scratch, 'dist'));
  await writeFile(join(scratch, 'dist/cli.js'), source);
}

describe('bin/planwright.js', () => {
  it('says how to build when dist/cli.js is missing (npm links the bin before the build has run)', async () => {
    const result = await runBin(['--version']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('planwright: the CLI is not built (dist/cli.js is missing)');
    expect(result.stderr).toContain('npm run build');
  });

  it('runs the build with the command line, and keeps its exit code', async () => {
    await writeCli('process.stdout.write(JSON.stringify(process.argv.slice(2)));\nprocess.exitCode = 3;\n');
    expect(await runBin(['status', '--json'])).toEqual({
      code: 3,
      stdout: '["status","--json"]',
      stderr: '',
    });
  });

  it("lets the build's own failures through, a missing package included (not reported as a missing build)", async () => {
    await writeCli("import 'planwright-no-such-package';\n");
    const result = await runBin(['--version']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("Cannot find package 'planwright-no-such-package'");
    expect(result.stderr).not.toContain('the CLI is not built');
  });
});
