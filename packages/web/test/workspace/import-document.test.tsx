import { createPlanwrightClient, MemoryTokenStore, outlineOf } from '@planwright/sdk';
import { type DocumentJson, renameSection } from '@planwright/sdk/model';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EditorBridge } from '../../src/workspace/editor-bridge';
import { PlanWorkspace } from '../../src/workspace/plan-workspace';
import { type FakeServer, json } from '../support/fake-server';
import { ManualClock } from '../support/manual-clock';
import { EDITOR_COMPILE_TIMEOUT_MS, loadEditorRoute, memoryStorage, renderApp } from '../support/render-app';
import {
  IDS,
  planContent,
  SESSION,
  serveImportExport,
  setupBlueprintWorkspace,
  setupWorkspace,
} from './workspace-support';

const open: PlanWorkspace[] = [];
beforeAll(loadEditorRoute, EDITOR_COMPILE_TIMEOUT_MS);
afterEach(() => {
  cleanup();
  for (const workspace of open.splice(0)) workspace.dispose();
});

const MARKDOWN = '# Alpha\n\nText.\n\n## One\n\n# Beta\n';
const markdownFile = (name = 'notes.md', text = MARKDOWN) =>
  new File([text], name, { type: 'text/markdown' });

/** A stand-in editor: holds the content, records loads and read-only switches. */
function standInEditor(workspace: PlanWorkspace) {
  let content = workspace.getSnapshot().initialContent as DocumentJson;
  const readOnly: boolean[] = [];
  const loads: DocumentJson[] = [];
  const bridge: EditorBridge = {
    setHints: () => {},
    getJSON: () => content,
    load: (next) => {
      content = next;
      loads.push(next);
    },
    setReadOnly: (value) => {
      readOnly.push(value);
    },
    setFinalized: () => false,
    focus: () => {},
    reveal: () => true,
    skeleton: () => content,
    applyContent: () => false,
    insertParagraphAfterCursor: () => false,
    selectedText: () => '',
    commentAnchor: () => null,
    setCommentMarks: () => {},
    revealComment: () => false,
    revealSuggestion: () => false,
  };
  workspace.attachEditor(bridge);
  return {
    readOnly,
    loads,
    content: () => content,
    type(title: string) {
      const result = renameSection(content, IDS.market, title);
      if (!result.ok) throw new Error('rename failed');
      content = result.doc;
      workspace.edited();
    },
  };
}

function setupImport(overrides: Record<string, unknown> = {}) {
  const setup = setupWorkspace(overrides);
  const { forms } = serveImportExport(setup.server, setup.documents);
  return { ...setup, forms };
}

async function openWorkspace(setup = setupImport()) {
  const clock = new ManualClock();
  const client = createPlanwrightClient({
    baseUrl: 'http://planwright.test',
    fetch: setup.server.fetch,
    tokenStore: new MemoryTokenStore(),
  });
  const workspace = new PlanWorkspace({ client, uuid: 'doc-1', clock, storage: () => memoryStorage() });
  open.push(workspace);
  await workspace.load();
  return { ...setup, clock, workspace };
}

const writes = (server: FakeServer) =>
  server.requests
    .filter((request) => request.method !== 'GET')
    .map((request) => `${request.method} ${request.path}`);

const titles = (content: unknown) => outlineOf(content).sections.map((section) => section.title);

describe('import into the workspace (SPEC.md W29–W34)', () => {
  it('W29/W33: merge: edits flushed first, read-only meanwhile, multipart file + mode, the answer loaded as the new base', async () => {
    const { workspace, forms, clock, document, server } = await openWorkspace();
    const editor = standInEditor(workspace);
    editor.type('Markets');
    expect(workspace.imports.choose(markdownFile(), ['docx', 'md'])).toBe(true);
    expect(workspace.imports.getSnapshot().step).toMatchObject({ kind: 'choose', replace: false });
    const ok = await workspace.imports.submit();
    expect(ok).toBe(true);

    expect(writes(server)).toEqual([
      'PATCH /api/v1/documents/doc-1/',
      'POST /api/v1/documents/doc-1/import/',
    ]);
    expect(forms.map((sent) => sent.form.get('mode'))).toEqual(['merge']);
    const file = forms[0]?.form.get('file') as File;
    expect(file.name).toBe('notes.md');
    expect(await file.text()).toBe(MARKDOWN);
    expect(editor.readOnly).toEqual([true, false]);
    // The answer is the document: loaded as it is, without another read.
    expect(server.calls('/api/v1/documents/doc-1/', 'GET')).toHaveLength(1);
    expect(editor.content()).toEqual(document().content);
    expect(titles(editor.content())).toEqual([
      'Markets',
      'Product',
      'Finance',
      '(Imported) Alpha',
      '(Imported) Beta',
    ]);
    expect(workspace.controller.getSnapshot()).toMatchObject({ revision: 6, dirty: false });
    expect(workspace.outline.getSnapshot().outline.sections).toHaveLength(5);
    expect(workspace.imports.getSnapshot()).toMatchObject({
      step: { kind: 'idle' },
      alert: null,
      report: { fileName: 'notes.md', mode: 'merge' },
    });
    expect(workspace.imports.getSnapshot().report?.notes.map((note) => note.count)).toEqual([2, 1]);

    // The next autosave builds on the imported revision: no 412.
    editor.type('Markets again');
    clock.advance(1000);
    await vi.waitFor(() => expect(workspace.controller.getSnapshot().status).toBe('saved'));
    expect(server.calls('/api/v1/documents/doc-1/', 'PATCH')[1]?.headers.get('if-match')).toBe('"6"');
  });

  it('W29: replace asks first; Cancel sends nothing; confirmed, mode=replace swaps the content', async () => {
    const { workspace, forms, server } = await openWorkspace();
    const editor = standInEditor(workspace);
    workspace.imports.choose(markdownFile(), ['docx', 'md']);
    workspace.imports.setReplace(true);
    expect(await workspace.imports.submit()).toBe(false);
    expect(workspace.imports.getSnapshot().step.kind).toBe('confirm');
    workspace.imports.cancel();
    expect(workspace.imports.getSnapshot().step.kind).toBe('idle');
    expect(server.calls('/api/v1/documents/doc-1/import/')).toEqual([]);

    workspace.imports.choose(markdownFile(), ['docx', 'md']);
    workspace.imports.setReplace(true);
    await workspace.imports.submit();
    expect(await workspace.imports.confirmReplace()).toBe(true);
    expect(forms.map((sent) => sent.form.get('mode'))).toEqual(['replace']);
    expect(titles(editor.content())).toEqual(['Alpha', 'Beta']);
  });

  it.each([
    [413, 'The file is larger than the 10 MB import limit.', 'too_large'],
    [415, 'Unsupported file type .pdf: only .md, .docx files can be imported.', 'unsupported_format'],
    [422, 'The file is not a valid .docx (not a zip archive).', 'not_a_zip'],
  ])(
    'W34: a %i refusal shows "Import failed: {detail}" and nothing changes',
    async (status, detail, code) => {
      const setup = setupImport();
      setup.server.on('POST /api/v1/documents/:uuid/import/', json({ detail, code }, status));
      const { workspace, document } = await openWorkspace(setup);
      const editor = standInEditor(workspace);
      workspace.imports.choose(markdownFile('plan.docx'), ['docx', 'md']);
      expect(await workspace.imports.submit()).toBe(false);
      expect(workspace.imports.getSnapshot()).toMatchObject({
        step: { kind: 'idle' },
        alert: `Import failed: ${detail}`,
        report: null,
      });
      expect(editor.loads).toEqual([]);
      expect(editor.content()).toEqual(planContent());
      expect(document().revision).toBe(4);
      expect(workspace.controller.getSnapshot()).toMatchObject({ revision: 4, dirty: false });
      expect(editor.readOnly).toEqual([true, false]);
      workspace.imports.dismissAlert();
      expect(workspace.imports.getSnapshot().alert).toBeNull();
    },
  );

  it('W29: with nothing unsaved the upload starts at once, before the workspace yields (no save is sent)', async () => {
    const { workspace, server } = await openWorkspace();
    standInEditor(workspace);
    expect(workspace.controller.getSnapshot().dirty).toBe(false);
    expect(workspace.imports.choose(markdownFile(), ['docx', 'md'])).toBe(true);
    const submitted = workspace.imports.submit();
    // Synchronously inside submit(): the request is on its way before any render could run.
    expect(writes(server)).toEqual(['POST /api/v1/documents/doc-1/import/']);
    expect(await submitted).toBe(true);
    expect(writes(server)).toEqual(['POST /api/v1/documents/doc-1/import/']);
  });

  it('W34: a failed flush of unsaved edits stops the import before any request', async () => {
    const setup = setupImport();
    setup.server.on('PATCH /api/v1/documents/:uuid/', json({ detail: 'down' }, 400));
    const { workspace, server } = await openWorkspace(setup);
    standInEditor(workspace).type('Markets');
    workspace.imports.choose(markdownFile(), ['md']);
    expect(await workspace.imports.submit()).toBe(false);
    expect(server.calls('/api/v1/documents/doc-1/import/')).toEqual([]);
    expect(workspace.imports.getSnapshot().alert).toBe('Import failed: Failed to save changes');
  });

  it.each([
    [
      'plan.pdf',
      ['docx', 'md'],
      'Import failed: Unsupported file type: only .docx, .md files can be imported.',
    ],
    ['notes.md', ['docx'], 'Import failed: Unsupported file type .md: only .docx files can be imported.'],
    ['no-extension', ['docx'], 'Import failed: Unsupported file type: only .docx files can be imported.'],
  ] as const)('W32: %s where %j is taken is refused before any request', async (name, accepted, alert) => {
    const { workspace, server } = await openWorkspace();
    expect(workspace.imports.choose(markdownFile(name), accepted)).toBe(false);
    expect(workspace.imports.getSnapshot()).toMatchObject({ step: { kind: 'idle' }, alert });
    expect(server.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });
});

const EDIT = '/dashboard/documents/doc-1/edit';

async function arrive(setup = setupImport()) {
  const app = renderApp({ path: EDIT, server: setup.server, session: SESSION });
  await screen.findByRole('navigation', { name: 'Sections' });
  return { ...app, ...setup };
}

const sidebarTitles = () =>
  within(screen.getByRole('navigation', { name: 'Sections' }))
    .getAllByRole('button')
    .map((button) => button.textContent ?? '')
    .filter((text) => text.includes('Imported'));

function pick(label: string, file: File) {
  fireEvent.change(screen.getByLabelText(label), { target: { files: [file] } });
}

describe('import on the screen (SPEC.md W29–W34)', () => {
  it('W29: File has Import… (.docx) and the exports; the header has Import (.docx, .md) and Export', async () => {
    await arrive();
    fireEvent.click(screen.getByRole('button', { name: 'File' }));
    const items = within(screen.getByRole('menu', { name: 'File' }))
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      'Rename',
      'System Prompt',
      'Share…',
      'Version history…',
      'Import…',
      'Export as .md',
      'Export as .docx',
      'Export as .pdf',
      'Export as .html',
      'Export as .json',
    ]);
    const menuInput = screen.getByLabelText('File to import (.docx)') as HTMLInputElement;
    const headerInput = screen.getByLabelText('File to import (.docx or .md)') as HTMLInputElement;
    expect(menuInput.accept).toContain('.docx');
    expect(menuInput.accept).not.toContain('.md');
    expect(headerInput.accept).toContain('.docx');
    expect(headerInput.accept).toContain('.md');
    const opened = vi.spyOn(menuInput, 'click').mockImplementation(() => {});
    fireEvent.click(screen.getByRole('menuitem', { name: 'Import…' }));
    expect(opened).toHaveBeenCalledTimes(1);
    const headerOpened = vi.spyOn(headerInput, 'click').mockImplementation(() => {});
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(headerOpened).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Export' })).toBeTruthy();
  });

  it('W29–W31: the dialog, the progress dialog, the new "(Imported)" sections and the report', async () => {
    const setup = setupImport();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { server } = setup;
    const forward = server.fetch;
    server.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/import/')) await held;
      return forward(input, init);
    }) as typeof globalThis.fetch;
    await arrive(setup);

    pick('File to import (.docx or .md)', markdownFile('Q3 notes.md'));
    const dialog = screen.getByRole('dialog', { name: 'Import document' });
    expect(within(dialog).getByText('Q3 notes.md')).toBeTruthy();
    const replace = within(dialog).getByRole('checkbox', { name: /Replace document/ }) as HTMLInputElement;
    expect(replace.checked).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));

    const progress = await screen.findByRole('dialog', { name: 'Importing document' });
    // The request is on its way (held by the test): the SDK has told the dialog so.
    expect(within(progress).getByText('Uploading Q3 notes.md…')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Import document' })).toBeNull();
    release();

    await waitFor(() =>
      expect(sidebarTitles()).toEqual(['(Imported) Alpha', '(Imported) One', '(Imported) Beta']),
    );
    expect(screen.queryByRole('dialog', { name: 'Importing document' })).toBeNull();
    const report = screen.getByTestId('import-report');
    expect(report.textContent).toContain('Imported Q3 notes.md.');
    expect(
      within(report)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['2 images were dropped: documents hold text only.', '1 table became paragraphs.']);
    expect(screen.getByRole('status', { name: 'Save status' }).textContent).toBe('Saved');
    fireEvent.click(within(report).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('import-report')).toBeNull();
  });

  it('W30: the progress dialog follows the server’s stream (waiting, converting with its limit, saving)', async () => {
    const setup = setupImport();
    const { server } = setup;
    const forward = server.fetch;
    let push: (line: unknown) => void = () => {};
    let close: () => void = () => {};
    let accept: string | null = null;
    server.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!String(input).endsWith('/import/')) return forward(input, init);
      accept = new Headers(init?.headers).get('accept');
      const answer = await forward(input, init);
      const body = await answer.json();
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (line) => controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
          close = () => {
            push({ type: 'result', etag: `"${body.revision}"`, body });
            controller.close();
          };
        },
      });
      return new Response(stream, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
    }) as typeof globalThis.fetch;
    await arrive(setup);

    pick('File to import (.docx or .md)', markdownFile('Q3 notes.md'));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Import document' })).getByRole('button', { name: 'Import' }),
    );
    const progress = await screen.findByRole('dialog', { name: 'Importing document' });
    const bar = () => within(progress).getByRole('progressbar', { name: 'Importing document' });
    await waitFor(() => expect(accept).toContain('application/x-ndjson'));

    push({ type: 'progress', phase: 'queued', ahead: 2, waited_ms: 0, limit_ms: 30_000 });
    await waitFor(() =>
      expect(within(progress).getByText('Waiting for a converter… (2 ahead)')).toBeTruthy(),
    );
    push({ type: 'progress', phase: 'converting', elapsed_ms: 12_400, limit_ms: 37_800 });
    await waitFor(() =>
      expect(within(progress).getByText('Converting… 12 s of at most 37.8 s')).toBeTruthy(),
    );
    expect(bar().getAttribute('aria-valuetext')).toBe('Step 3 of 4: Converting… 12 s of at most 37.8 s');
    push({ type: 'progress', phase: 'saving' });
    await waitFor(() => expect(within(progress).getByText('Saving…')).toBeTruthy());
    close();

    await waitFor(() =>
      expect(sidebarTitles()).toEqual(['(Imported) Alpha', '(Imported) One', '(Imported) Beta']),
    );
    expect(screen.queryByRole('dialog', { name: 'Importing document' })).toBeNull();
    expect(screen.getByTestId('import-report').textContent).toContain('Imported Q3 notes.md.');
  });

  it('W29: Replace document asks "Replace the whole document…?"; Cancel keeps it, Replace swaps it', async () => {
    const { forms } = await arrive();
    const choose = () => {
      pick('File to import (.docx)', markdownFile('plan.docx'));
      const dialog = screen.getByRole('dialog', { name: 'Import document' });
      fireEvent.click(within(dialog).getByRole('checkbox', { name: /Replace document/ }));
      fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
      return screen.getByRole('dialog', { name: 'Replace document?' });
    };
    let confirm = choose();
    expect(confirm.textContent).toContain('Replace the whole document with the imported file?');
    expect(document.activeElement?.textContent).toBe('Cancel');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(forms).toEqual([]);

    confirm = choose();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Replace' }));
    const nav = screen.getByRole('navigation', { name: 'Sections' });
    await waitFor(() => expect(within(nav).queryByRole('button', { name: 'Market' })).toBeNull());
    expect(within(nav).getByRole('button', { name: 'Alpha' })).toBeTruthy();
    expect(forms.map((sent) => sent.form.get('mode'))).toEqual(['replace']);
  });

  it('W34: a refused file shows the alert with the server’s words; the sections stay', async () => {
    const setup = setupImport();
    setup.server.on(
      'POST /api/v1/documents/:uuid/import/',
      json({ detail: 'The file is encrypted.', code: 'encrypted' }, 422),
    );
    await arrive(setup);
    pick('File to import (.docx)', markdownFile('secret.docx'));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Import document' })).getByRole('button', { name: 'Import' }),
    );
    expect(
      (await screen.findByText('Import failed: The file is encrypted.')).closest('[role="alert"]'),
    ).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Sections' });
    expect(within(nav).getByRole('button', { name: 'Market' })).toBeTruthy();
    expect(sidebarTitles()).toEqual([]);
  });

  it('W32: a file of another type is refused at once, with no dialog and no request', async () => {
    const { server } = await arrive();
    pick('File to import (.docx)', markdownFile('notes.md'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain(
      'Import failed: Unsupported file type .md: only .docx files can be imported.',
    );
    expect(server.calls('/api/v1/documents/doc-1/import/')).toEqual([]);
  });

  it('W29: blueprints have no import', async () => {
    const setup = setupBlueprintWorkspace();
    renderApp({ path: '/dashboard/blueprints/bp-1/edit', server: setup.server, session: SESSION });
    await screen.findByRole('navigation', { name: 'Sections' });
    fireEvent.click(screen.getByRole('button', { name: 'File' }));
    expect(screen.queryByRole('menuitem', { name: 'Import…' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
    expect(screen.queryByLabelText(/File to import/)).toBeNull();
  });
});
