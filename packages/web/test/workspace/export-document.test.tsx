import { ApiError, createPlanwrightClient, MemoryTokenStore, PlanwrightError } from '@planwright/sdk';
import { type DocumentJson, renameSection } from '@planwright/sdk/model';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EditorBridge } from '../../src/workspace/editor-bridge';
import { exportFailureMessage } from '../../src/workspace/export-actions';
import type { DownloadFile } from '../../src/workspace/export-download';
import { PlanWorkspace } from '../../src/workspace/plan-workspace';
import { json } from '../support/fake-server';
import { ManualClock } from '../support/manual-clock';
import { EDITOR_COMPILE_TIMEOUT_MS, loadEditorRoute, memoryStorage, renderApp } from '../support/render-app';
import {
  IDS,
  outlineMarkdown,
  SESSION,
  serveImportExport,
  setupBlueprintWorkspace,
  setupWorkspace,
} from './workspace-support';

/** What the browser was handed: the Blob URLs made and revoked, and the links clicked. */
interface Downloads {
  blobs: Map<string, Blob>;
  revoked: string[];
  clicked: Array<{ href: string; download: string; blob: Blob | undefined }>;
}

let downloads: Downloads;

// The test environment has no Blob URLs and would follow the link: both are stubbed here, and only here.
beforeEach(() => {
  downloads = { blobs: new Map(), revoked: [], clicked: [] };
  let next = 0;
  vi.stubGlobal(
    'URL',
    Object.assign(class extends URL {}, {
      createObjectURL: (blob: Blob) => {
        const url = `blob:http://planwright.test/${++next}`;
        downloads.blobs.set(url, blob);
        return url;
      },
      revokeObjectURL: (url: string) => {
        downloads.revoked.push(url);
      },
    }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const href = this.getAttribute('href') ?? '';
    downloads.clicked.push({ href, download: this.download, blob: downloads.blobs.get(href) });
  });
});

const open: PlanWorkspace[] = [];
beforeAll(loadEditorRoute, EDITOR_COMPILE_TIMEOUT_MS);
afterEach(() => {
  cleanup();
  for (const workspace of open.splice(0)) workspace.dispose();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const EDIT = '/dashboard/documents/doc-1/edit';

function setupExport(overrides: Record<string, unknown> = {}) {
  const setup = setupWorkspace(overrides);
  serveImportExport(setup.server, setup.documents);
  return setup;
}

async function arrive(setup = setupExport(), path = EDIT) {
  const app = renderApp({ path, server: setup.server, session: SESSION });
  await screen.findByRole('navigation', { name: 'Sections' });
  return { ...app, ...setup };
}

function fileMenu(item: string) {
  fireEvent.click(screen.getByRole('button', { name: 'File' }));
  fireEvent.click(screen.getByRole('menuitem', { name: item }));
}

function exportMenu(item: string) {
  fireEvent.click(screen.getByRole('button', { name: 'Export' }));
  fireEvent.click(screen.getByRole('menuitem', { name: item }));
}

describe('export on the screen (SPEC.md W35–W38)', () => {
  it('W35/W37: File › Export as .md downloads the server’s Markdown as "{title}.md"; the URL is revoked later', async () => {
    const app = await arrive();
    fileMenu('Export as .md');
    await waitFor(() => expect(downloads.clicked).toHaveLength(1));
    const [download] = downloads.clicked;
    expect(download?.download).toBe('Acme plan.md');
    expect(download?.blob?.type).toContain('text/markdown');
    const text = (await download?.blob?.text()) ?? '';
    expect(text).toBe(outlineMarkdown(app.document().content as DocumentJson));
    expect(text).toContain('# Market');
    expect(app.server.calls('/api/v1/documents/doc-1/export', 'GET')).toHaveLength(1);
    expect(document.querySelector('a[download]')).toBeNull();
    expect(downloads.revoked).toEqual([]);
    app.advance(60_000);
    expect(downloads.revoked).toEqual([download?.href]);
  });

  it('W36/W37: Export › Export as .docx converts the editor’s content with the bearer token and downloads it', async () => {
    const app = await arrive();
    exportMenu('Export as .docx');
    await waitFor(() => expect(downloads.clicked).toHaveLength(1));
    const [download] = downloads.clicked;
    expect(download?.download).toBe('Acme plan.docx');
    expect(download?.blob?.type).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    const bytes = new Uint8Array((await download?.blob?.arrayBuffer()) ?? new ArrayBuffer(0));
    expect(String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0)).toBe('PK');
    const [token] = app.server.calls('/api/v1/apps/tiptap/convert/jwt/', 'POST');
    expect(token?.body).toEqual({ scope: 'convert' });
    const [convert] = app.server.calls('/api/v1/apps/tiptap/convert/export/', 'POST');
    expect(convert?.headers.get('authorization')).toBe('Bearer convert-token-1');
    expect(convert?.body).toMatchObject({ format: 'docx', title: 'Acme plan' });
    expect(convert?.body).toEqual(expect.objectContaining({ content: app.document().content }));

    // The token is kept for the next export.
    exportMenu('Export as .html');
    await waitFor(() => expect(downloads.clicked).toHaveLength(2));
    expect(downloads.clicked[1]?.download).toBe('Acme plan.html');
    expect(app.server.calls('/api/v1/apps/tiptap/convert/jwt/', 'POST')).toHaveLength(1);
  });

  it('W36: a refused token (401) is refreshed once and the export goes through', async () => {
    const setup = setupExport();
    const convert = vi.fn((request: { headers: Headers }) =>
      request.headers.get('authorization') === 'Bearer convert-token-1'
        ? json({ detail: 'Token expired.' }, 401)
        : new Response('{}', { headers: { 'content-type': 'application/json' } }),
    );
    setup.server.on('POST /api/v1/apps/tiptap/convert/export/', convert);
    const app = await arrive(setup);
    exportMenu('Export as .json');
    await waitFor(() => expect(downloads.clicked).toHaveLength(1));
    expect(convert).toHaveBeenCalledTimes(2);
    expect(app.server.calls('/api/v1/apps/tiptap/convert/jwt/', 'POST')).toHaveLength(2);
    expect(app.onAuthRequired).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('W36: the busy overlay shows while the export runs', async () => {
    const setup = setupExport();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const forward = setup.server.fetch;
    setup.server.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/convert/export/')) await held;
      return forward(input, init);
    }) as typeof globalThis.fetch;
    await arrive(setup);
    exportMenu('Export as .pdf');
    const overlay = await screen.findByRole('dialog', { name: 'Exporting document' });
    expect(overlay.getAttribute('aria-busy')).toBe('true');
    expect(within(overlay).getByText('Preparing Acme plan.pdf…')).toBeTruthy();
    release();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Exporting document' })).toBeNull());
    expect(downloads.clicked.map((download) => download.download)).toEqual(['Acme plan.pdf']);
  });

  it('W38: a failure shows "Export failed: {message}" and downloads nothing', async () => {
    const setup = setupExport();
    setup.server.on(
      'POST /api/v1/apps/tiptap/convert/export/',
      json({ detail: 'The conversion took too long.' }, 504),
    );
    setup.server.on('GET /api/v1/documents/:uuid/export', json({ detail: 'Document not found.' }, 404));
    await arrive(setup);
    exportMenu('Export as .docx');
    expect(await screen.findByText('Export failed: The conversion took too long.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    fileMenu('Export as .md');
    expect(await screen.findByText('Export failed: Document not found.')).toBeTruthy();
    expect(downloads.clicked).toEqual([]);
  });

  it('W38: the words: the server’s detail, the error’s message, else "Export error"', () => {
    const api = new ApiError({ status: 500, text: '{}', data: { detail: 'Converter down.' } });
    expect(exportFailureMessage(api)).toBe('Export failed: Converter down.');
    expect(
      exportFailureMessage(
        new PlanwrightError({ code: 'invalid_response', message: 'No export token returned by server' }),
      ),
    ).toBe('Export failed: No export token returned by server');
    expect(exportFailureMessage(new Error(''))).toBe('Export error');
    expect(exportFailureMessage(undefined)).toBe('Export error');
  });

  it('W35/B7: a blueprint’s Export as .md says Markdown export is for documents; .docx works', async () => {
    const setup = setupBlueprintWorkspace();
    serveImportExport(setup.server, new Map());
    renderApp({ path: '/dashboard/blueprints/bp-1/edit', server: setup.server, session: SESSION });
    await screen.findByRole('navigation', { name: 'Sections' });
    fileMenu('Export as .md');
    expect(screen.getByText('Markdown export is available for Documents.')).toBeTruthy();
    expect(setup.server.requests.some((request) => request.path.includes('export'))).toBe(false);
    fileMenu('Export as .docx');
    await waitFor(() => expect(downloads.clicked).toHaveLength(1));
    expect(downloads.clicked[0]?.download).toBe('Seed round plan.docx');
    expect(screen.queryByText('Markdown export is available for Documents.')).toBeNull();
  });
});

/** A stand-in editor that can be typed into. */
function standInEditor(workspace: PlanWorkspace) {
  let content = workspace.getSnapshot().initialContent as DocumentJson;
  const bridge: EditorBridge = {
    setHints: () => {},
    getJSON: () => content,
    load: (next) => {
      content = next;
    },
    setReadOnly: () => {},
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
    content: () => content,
    type(title: string) {
      const result = renameSection(content, IDS.market, title);
      if (!result.ok) throw new Error('rename failed');
      content = result.doc;
      workspace.edited();
    },
  };
}

async function openWorkspace(setup = setupExport()) {
  const saved: DownloadFile[] = [];
  const client = createPlanwrightClient({
    baseUrl: 'http://planwright.test',
    fetch: setup.server.fetch,
    tokenStore: new MemoryTokenStore(),
  });
  const workspace = new PlanWorkspace({
    client,
    uuid: 'doc-1',
    clock: new ManualClock(),
    storage: () => memoryStorage(),
    saveFile: (file) => saved.push(file),
  });
  open.push(workspace);
  await workspace.load();
  return { ...setup, workspace, saved, editor: standInEditor(workspace) };
}

describe('export and unsaved edits (SPEC.md W35, W36)', () => {
  it('W35: Markdown is read from the server, so unsaved edits are saved first', async () => {
    const { workspace, server, saved, editor } = await openWorkspace();
    editor.type('Markets');
    expect(await workspace.exports.export('md')).toBe(true);
    expect(
      server.requests.filter(
        (request) => request.path !== '/api/v1/documents/doc-1/' || request.method !== 'GET',
      ),
    ).toMatchObject([
      { method: 'PATCH', path: '/api/v1/documents/doc-1/' },
      { method: 'GET', path: '/api/v1/documents/doc-1/export' },
    ]);
    expect(saved[0]?.data).toContain('# Markets');
  });

  it('W35: when the edits cannot be saved, nothing is exported', async () => {
    const setup = setupExport();
    setup.server.on('PATCH /api/v1/documents/:uuid/', json({ detail: 'No.' }, 400));
    const { workspace, server, saved, editor } = await openWorkspace(setup);
    editor.type('Markets');
    expect(await workspace.exports.export('md')).toBe(false);
    expect(workspace.exports.getSnapshot()).toEqual({
      running: null,
      alert: 'Export failed: Failed to save changes',
    });
    expect(server.calls('/api/v1/documents/doc-1/export')).toEqual([]);
    expect(saved).toEqual([]);
  });

  it('W36: other formats convert what the editor holds, saved or not', async () => {
    const { workspace, server, saved, editor } = await openWorkspace();
    editor.type('Markets');
    expect(await workspace.exports.export('html')).toBe(true);
    const [convert] = server.calls('/api/v1/apps/tiptap/convert/export/', 'POST');
    expect(convert?.body).toEqual(expect.objectContaining({ content: editor.content() }));
    expect(saved[0]).toMatchObject({ fileName: 'Acme plan.html' });
    expect(
      String(saved[0]?.data instanceof Uint8Array ? new TextDecoder().decode(saved[0].data) : ''),
    ).toContain('# Markets');
  });

  it('W37: the file name is made safe from the title; a blank title is "Untitled Document"', async () => {
    const { workspace, saved } = await openWorkspace(setupExport({ title: 'Q3: plan / "draft"' }));
    await workspace.exports.export('json');
    const blank = await openWorkspace(setupExport({ title: '   ' }));
    await blank.workspace.exports.export('docx');
    expect(saved[0]?.fileName).toBe('Q3 plan draft.json');
    expect(blank.saved[0]?.fileName).toBe('Untitled Document.docx');
  });
});
