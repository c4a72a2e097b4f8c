import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentDetail, PlanwrightClient } from '@planwright/sdk';
import { outlineOf } from '@planwright/sdk/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, ensureCliBuilt } from '../support/cli-binary.js';
import { type OpenAiStreamServer, startOpenAiStreamServer } from '../support/openai-stream-server.js';
import { signUpWithSdk } from '../support/sdk-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * `planwright chat`, `finalize` and `progress` as people and scripts run them: the built bin as a child process
 * against the real server, whose `openai-compatible` provider streams from a local OpenAI-wire server that
 * the test scripts (text and tool calls, so proposals are real). The SDK sets up and checks the document.
 */

let model: OpenAiStreamServer;
let server: TestServer;
let scratch: string;
let client: PlanwrightClient;
let configDir: string;
let counter = 0;

interface Exit {
  code: number;
  stdout: string;
  stderr: string;
}

function env(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: scratch,
    PLANWRIGHT_CONFIG_DIR: configDir,
    PLANWRIGHT_SERVER: server.url,
  };
}

/** Runs the built bin with pipes (not a terminal), as a script does. */
function planwright(args: string[]): Promise<Exit> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI_BIN, ...args],
      { cwd: scratch, env: env() },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

/** A fresh document from the seeded blueprint, with its first section and subsection. */
async function newDocument(): Promise<{
  document: DocumentDetail;
  sectionUuid: string;
  subsectionUuid: string;
}> {
  const blueprints = await client.blueprints.available();
  const blueprint = blueprints.items.find((item) => item.is_default) ?? blueprints.items[0];
  if (!blueprint) throw new Error('no blueprint');
  const document = await client.documents.create({ blueprint: blueprint.uuid, title: `Bakery ${++counter}` });
  const section = outlineOf(document.content).sections[0];
  const subsection = section?.subsections[0];
  if (!section || !subsection) throw new Error('no subsection');
  return { document, sectionUuid: section.uuid, subsectionUuid: subsection.uuid };
}

function fullDraft(subsectionUuid: string, content: string) {
  return {
    type: 'answer' as const,
    text: ['Here is ', 'a draft.'],
    toolCalls: [
      {
        name: 'propose_full_subsection',
        arguments: { subsection_uuid: subsectionUuid, format: 'markdown', content },
      },
    ],
  };
}

async function contentText(uuid: string): Promise<string> {
  return JSON.stringify((await client.documents.get(uuid)).content);
}

beforeAll(async () => {
  ensureCliBuilt();
  model = await startOpenAiStreamServer();
  server = await startTestServer({
    env: model.providerEnv({ PLANWRIGHT_AI_API_KEY: 'test-key' }),
  });
  scratch = mkdtempSync(join(tmpdir(), 'planwright-cli-chat-'));
  const account = await signUpWithSdk(server, 'cli-chat@example.com');
  client = account.client;
  configDir = join(scratch, 'config');
  // The CLI signed in with the same session the SDK holds (what `planwright login` would have stored).
  const { mkdirSync } = await import('node:fs');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    join(configDir, 'session.json'),
    JSON.stringify({
      sessions: { [server.url]: { token: account.tokenStore.getToken(), email: account.email } },
    }),
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
  await model?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('planwright chat --message (scripts)', () => {
  it('T50 T22: --accept streams the answer, prints the diff, applies and saves the proposal', async () => {
    const { document, subsectionUuid } = await newDocument();
    model.script(fullDraft(subsectionUuid, 'We bake sourdough for the neighbourhood.'));
    const result = await planwright([
      'chat',
      document.uuid,
      '--subsection',
      subsectionUuid,
      '--message',
      'Draft it',
      '--accept',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Here is a draft\.\n/);
    expect(result.stdout).toContain('{+');
    expect(result.stdout).toContain('Applied proposal 1 and saved the document');
    expect(await contentText(document.uuid)).toContain('We bake sourdough for the neighbourhood.');
    // The server recorded the acceptance: history shows it decided.
    const after = await client.documents.get(document.uuid);
    expect(after.revision).toBeGreaterThan(document.revision ?? 0);
  }, 60_000);

  it('T50: --reject leaves the document as it was; the default leaves the proposal pending', async () => {
    const { document, subsectionUuid } = await newDocument();
    const before = await contentText(document.uuid);
    model.script(fullDraft(subsectionUuid, 'Rejected text.'));
    const rejected = await planwright([
      'chat',
      document.uuid,
      '--subsection',
      subsectionUuid,
      '-m',
      'Draft',
      '--reject',
    ]);
    expect(rejected).toMatchObject({ code: 0, stderr: '' });
    expect(rejected.stdout).toContain('Rejected proposal 1.');
    model.script(fullDraft(subsectionUuid, 'Pending text.'));
    const left = await planwright(['chat', document.uuid, '--subsection', subsectionUuid, '-m', 'Again']);
    expect(left).toMatchObject({ code: 0, stderr: '' });
    expect(left.stdout).toContain('Left pending');
    expect(await contentText(document.uuid)).toBe(before);
  }, 60_000);

  it('T52: --json prints one JSON event per line: connected, delta…, proposal, applied, end', async () => {
    const { document, subsectionUuid } = await newDocument();
    model.script(fullDraft(subsectionUuid, 'JSON draft.'));
    const result = await planwright([
      'chat',
      document.uuid,
      '--subsection',
      subsectionUuid,
      '-m',
      'Go',
      '--accept',
      '--json',
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; text?: string; items?: unknown[] });
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('connected');
    expect(types.filter((type) => type === 'delta').length).toBeGreaterThan(0);
    expect(types.slice(-3)).toEqual(['proposal', 'applied', 'end']);
    expect(
      events
        .filter((e) => e.type === 'delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('Here is a draft.');
    expect(events.find((e) => e.type === 'proposal')?.items).toHaveLength(1);
    expect(await contentText(document.uuid)).toContain('JSON draft.');
  }, 60_000);

  it('T57: --file attaches a file: the model reads its text after the message; a refused file sends nothing', async () => {
    const { document } = await newDocument();
    const notes = join(scratch, 'notes.md');
    writeFileSync(notes, '# Market notes\n\nBakeries in town: 14.\n');
    model.script({ type: 'answer', text: 'Noted.' });
    const sent = model.requests.length;
    const result = await planwright(['chat', document.uuid, '-m', 'Use my notes', '--file', notes]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('Noted.');
    const request = JSON.stringify(model.requests[sent]?.body);
    expect(request).toContain('<attachment name=\\"notes.md\\">');
    expect(request).toContain('Bakeries in town: 14.');

    const binary = join(scratch, 'logo.png');
    writeFileSync(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const refused = await planwright(['chat', document.uuid, '-m', 'Look', '--file', binary]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Only .md, .txt and .docx files can be attached.');
    expect(model.requests.length).toBe(sent + 1);
  }, 60_000);

  it('T4: a subsection that is not there is a clear error (exit 1), nothing is sent to the chat', async () => {
    const { document } = await newDocument();
    const result = await planwright(['chat', document.uuid, '--subsection', 'zzz-no-such-part', '-m', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Subsection not found');
  }, 30_000);
});

describe('planwright finalize and progress', () => {
  it('T12 T13 T10: finalize by title, progress --json counts it, --undo takes it back', async () => {
    const { document, subsectionUuid } = await newDocument();
    const title = document.sections[0]?.subsections[0]?.title ?? '';
    const total = document.sections.reduce((sum, section) => sum + section.subsections.length, 0);
    const done = await planwright(['finalize', document.uuid, '--subsection', title.toUpperCase()]);
    expect(done).toMatchObject({ code: 0, stderr: '' });
    expect(done.stdout).toContain('finalized');
    const progress = await planwright(['progress', document.uuid, '--json']);
    const report = JSON.parse(progress.stdout) as {
      finalized: number;
      total: number;
      percent: number;
      sections: { subsections: { uuid: string; finalized: boolean }[] }[];
    };
    expect(report).toMatchObject({ finalized: 1, total, percent: Math.round(100 / total) });
    expect(report.sections[0]?.subsections.find((s) => s.uuid === subsectionUuid)?.finalized).toBe(true);
    const server = await client.documents.get(document.uuid);
    expect(server.progress.finalized).toBe(1);

    const undo = await planwright([
      'finalize',
      document.uuid,
      '--subsection',
      subsectionUuid,
      '--undo',
      '--json',
    ]);
    expect(undo.code).toBe(0);
    expect(JSON.parse(undo.stdout)).toMatchObject({ subsectionUuid, finalized: false, changed: true });
    expect((await client.documents.get(document.uuid)).progress.finalized).toBe(0);

    const table = await planwright(['progress', document.uuid]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('DONE  SUBSECTION');
    expect(table.stdout).toContain(`0% (0/${total}) subsections finalized`);
  }, 60_000);
});

describe('planwright chat on a terminal', () => {
  it('T60 T63 T22: in a pseudo-terminal, a message gets a proposal, a accepts it and the document changes', async () => {
    const { document, subsectionUuid } = await newDocument();
    model.script(fullDraft(subsectionUuid, 'Typed in a real terminal.'));
    const command = [process.execPath, CLI_BIN, 'chat', document.uuid, '--subsection', subsectionUuid]
      .map((part) => `'${part.replaceAll("'", "'\\''")}'`)
      .join(' ');
    // `script` gives the bin a real pseudo-terminal (stdin and stdout are TTYs, raw mode works).
    const child: ChildProcess = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: scratch,
      env: { ...env(), TERM: 'xterm-256color', COLUMNS: '120', LINES: '50' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      screen += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const waitFor = async (text: string, timeoutMs = 20_000) => {
      const start = Date.now();
      while (!screen.includes(text)) {
        if (Date.now() - start > timeoutMs)
          throw new Error(
            `timed out waiting for ${JSON.stringify(text)} in ${JSON.stringify(screen.slice(-2000))}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    try {
      await waitFor('connected');
      child.stdin?.write('Draft the summary');
      await waitFor('Draft the summary');
      child.stdin?.write('\r');
      await waitFor('a accept ·');
      child.stdin?.write('a');
      await waitFor('Applied and saved');
      expect(await contentText(document.uuid)).toContain('Typed in a real terminal.');
      child.stdin?.write('\u0003');
      child.stdin?.write('\u0003');
      expect(await exited).toBe(0);
    } finally {
      child.kill();
    }
  }, 60_000);
});
