import { outlineOf } from '@planwright/sdk';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/router/routes';
import { EDITOR_COMPILE_TIMEOUT_MS, loadEditorRoute, memoryStorage, renderApp } from '../support/render-app';
import { hostileStrings, IDS, planContent, SESSION, setupBlueprintWorkspace } from './workspace-support';

afterEach(cleanup);
beforeAll(loadEditorRoute, EDITOR_COMPILE_TIMEOUT_MS);

const EDIT = '/dashboard/blueprints/bp-1/edit';
const MARKET = `${EDIT}?section=${IDS.market}`;
const SIZE = `${EDIT}?section=${IDS.market}&subsection=${IDS.size}`;

async function arrive(path = MARKET, setup = setupBlueprintWorkspace(), storage = memoryStorage()) {
  const app = renderApp({ path, server: setup.server, session: SESSION, storage });
  await screen.findByRole('navigation', { name: 'Sections' });
  return { ...app, ...setup };
}

const panel = () => screen.getByRole('region', { name: 'Settings' });
const settingsBadge = () => screen.getByRole('status', { name: 'Settings save status' });
const field = (name: string) =>
  within(panel()).getByLabelText(name) as HTMLInputElement | HTMLTextAreaElement;

function fileMenu(item: string) {
  fireEvent.click(screen.getByRole('button', { name: 'File' }));
  fireEvent.click(screen.getByRole('menuitem', { name: item }));
}

/** A draft of the blueprint's text with the Market heading changed: the editor starts with unsaved text. */
function draftStorage() {
  const content = planContent();
  const heading = content.content[0]?.content[0];
  if (heading?.type !== 'sectionHeading') throw new Error('setup');
  heading.content = [{ type: 'text', text: 'Market (draft)' }];
  return memoryStorage({
    'planwright:draft:blueprint:bp-1': JSON.stringify({
      v: 1,
      content,
      baseRevision: 4,
      savedAt: Date.UTC(2026, 0, 15, 8, 30),
    }),
  });
}

describe('route and layout (SPEC.md B1, B2)', () => {
  it('B1: the route is lazy, inside the guarded layout', () => {
    const dashboard = routes.find((route) => route.path === 'dashboard');
    const pages = dashboard?.children?.flatMap((group) => group.children ?? []) ?? [];
    const editor = pages.find((route) => route.path === 'blueprints/:uuid/edit');
    expect(typeof editor?.lazy).toBe('function');
    expect(editor?.Component).toBeUndefined();
  });

  it('B1: breadcrumbs Dashboard › Blueprints › title › Editor and the tab title', async () => {
    await arrive();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Blueprints' }).getAttribute('href')).toBe(
      '/dashboard/blueprints',
    );
    expect(crumbs.getByRole('link', { name: 'Seed round plan' }).getAttribute('href')).toBe(
      '/dashboard/blueprints/bp-1',
    );
    expect(crumbs.getByText('Editor').getAttribute('aria-current')).toBe('page');
    await waitFor(() => expect(document.title).toBe('Seed round plan · Editor · Planwright'));
    expect(screen.getByTestId('blueprint-workspace')).toBeTruthy();
  });

  it('B1: a blueprint that is not there says so, with the way back', async () => {
    const setup = setupBlueprintWorkspace();
    renderApp({ path: '/dashboard/blueprints/nope/edit', server: setup.server, session: SESSION });
    expect(await screen.findByRole('heading', { name: 'Blueprint not found.' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to blueprints' }).getAttribute('href')).toBe(
      '/dashboard/blueprints',
    );
  });

  it('B2: no chat, no progress, no finalize; the settings panel and its gutter instead', async () => {
    await arrive();
    expect(screen.queryByRole('region', { name: 'AI chat' })).toBeNull();
    expect(panel()).toBeTruthy();
    expect(screen.getByRole('separator', { name: 'Resize settings panel' })).toBeTruthy();
    expect(screen.queryByText(/subsection\(s\) completed/)).toBeNull();
    expect(document.querySelector('.pw-canvas')?.className).toContain('[&_.pw-finalize]:hidden');
  });
});

describe('settings panel (SPEC.md B3–B6)', () => {
  it('B3: with a section selected it shows that section’s settings', async () => {
    await arrive();
    expect(within(panel()).getByRole('heading', { name: 'Section settings' })).toBeTruthy();
    expect(field('Title').value).toBe('Market');
    expect(field('Developer prompt').value).toBe('Cite sources.');
    expect(field('User hint').value).toBe('Who buys, and how many of them?');
    expect((field('Tool mode') as unknown as HTMLSelectElement).value).toBe('');
    expect(field('MCP URL').disabled).toBe(true);
    expect(within(panel()).getByText('Enable MCP to set a URL.')).toBeTruthy();
  });

  it('B3: a subsection selected shows its own settings', async () => {
    await arrive(SIZE);
    expect(within(panel()).getByRole('heading', { name: 'Subsection settings' })).toBeTruthy();
    expect(field('Title').value).toBe('Size');
    expect((field('Tool mode') as unknown as HTMLSelectElement).value).toBe('mcp');
    expect(field('MCP URL').disabled).toBe(false);
    expect(field('MCP URL').value).toBe('https://mcp.example.com/sse');
  });

  it('B5: a change is saved 800 ms after the last one, as a write aside with If-Match, with its own status', async () => {
    const app = await arrive();
    fireEvent.change(field('Developer prompt'), { target: { value: 'Cite two sources.' } });
    expect(settingsBadge().textContent).toBe('Saving…');
    app.advance(799);
    expect(app.server.calls(`/api/v1/blueprints/bp-1/sections/${IDS.market}/`, 'PATCH')).toHaveLength(0);
    app.advance(1);
    await waitFor(() => expect(settingsBadge().textContent).toBe('Saved'));
    const [write] = app.server.calls(`/api/v1/blueprints/bp-1/sections/${IDS.market}/`, 'PATCH');
    expect(write?.headers.get('if-match')).toBe('"4"');
    expect(write?.body).toEqual({
      developer_prompt: 'Cite two sources.',
      user_hint: 'Who buys, and how many of them?',
      tool_mode: '',
      mcp_url: '',
    });
    // The editor's own save is not badly surprised by the revision the settings moved.
    expect(screen.getByRole('status', { name: 'Save status' }).textContent).toBe('Saved');
  });

  it('B5: a settings write beside unsaved text saves the text first, then both without a conflict', async () => {
    const app = await arrive(MARKET, setupBlueprintWorkspace(), draftStorage());
    fireEvent.change(field('User hint'), { target: { value: 'Name the buyer.' } });
    app.advance(800);
    await waitFor(() => expect(settingsBadge().textContent).toBe('Saved'));
    app.advance(1000);
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Save status' }).textContent).toBe('Saved'),
    );
    const writes = app.server.requests.filter((request) => request.method === 'PATCH');
    expect(writes.map((request) => [request.path, request.headers.get('if-match')])).toEqual([
      ['/api/v1/blueprints/bp-1/', '"4"'],
      [`/api/v1/blueprints/bp-1/sections/${IDS.market}/`, '"5"'],
    ]);
    expect(outlineOf(app.blueprint().content).sections[0]?.title).toBe('Market (draft)');
    expect(screen.queryByRole('dialog', { name: /changed elsewhere/ })).toBeNull();
  });

  it('B5: the hint typed shows in the editor at once, under its heading, and never in the saved text', async () => {
    const app = await arrive();
    fireEvent.change(field('User hint'), { target: { value: 'Say who pays.' } });
    await waitFor(() => expect(document.querySelector('.pw-hint')?.textContent).toContain('Say who pays.'));
    app.advance(800);
    await waitFor(() => expect(settingsBadge().textContent).toBe('Saved'));
    expect(JSON.stringify(app.blueprint().content)).not.toContain('Say who pays.');
  });

  it('B5: in StrictMode (development’s double mount) the shown form still saves', async () => {
    const setup = setupBlueprintWorkspace();
    const app = renderApp({ path: MARKET, server: setup.server, session: SESSION, strict: true });
    await screen.findByRole('navigation', { name: 'Sections' });
    fireEvent.change(field('Developer prompt'), { target: { value: 'Twice mounted.' } });
    app.advance(800);
    await waitFor(() => expect(settingsBadge().textContent).toBe('Saved'));
    expect(setup.server.calls(`/api/v1/blueprints/bp-1/sections/${IDS.market}/`, 'PATCH')).toHaveLength(1);
  });

  it('B5: selecting another part saves the previous one at once', async () => {
    const app = await arrive();
    fireEvent.change(field('Developer prompt'), { target: { value: 'Be brief.' } });
    fireEvent.click(
      within(screen.getByRole('navigation', { name: 'Sections' })).getByRole('button', { name: 'Product' }),
    );
    await waitFor(() =>
      expect(app.server.calls(`/api/v1/blueprints/bp-1/sections/${IDS.market}/`, 'PATCH')).toHaveLength(1),
    );
    expect(field('Title').value).toBe('Product');
    expect(field('Developer prompt').value).toBe('');
  });

  it('B6: MCP enables the URL; a URL that is not http(s) is shown as wrong and not saved; leaving MCP clears it', async () => {
    const app = await arrive();
    const mode = field('Tool mode') as unknown as HTMLSelectElement;
    fireEvent.change(mode, { target: { value: 'mcp' } });
    expect(field('MCP URL').disabled).toBe(false);
    expect(within(panel()).getByText('Please enter the URL of the MCP server.')).toBeTruthy();
    fireEvent.change(field('MCP URL'), { target: { value: 'javascript:alert(1)' } });
    expect(within(panel()).getByText('Please enter a valid URL (http:// or https://).')).toBeTruthy();
    expect(field('MCP URL').getAttribute('aria-invalid')).toBe('true');
    app.advance(5000);
    await waitFor(() => expect(settingsBadge().textContent).toBe('Unsaved changes'));
    fireEvent.change(field('MCP URL'), { target: { value: 'https://tools.example.org/mcp' } });
    app.advance(800);
    await waitFor(() => expect(settingsBadge().textContent).toBe('Saved'));
    const writes = app.server.calls(`/api/v1/blueprints/bp-1/sections/${IDS.market}/`, 'PATCH');
    expect(writes.map((request) => (request.body as { mcp_url: string }).mcp_url)).toEqual([
      '',
      'https://tools.example.org/mcp',
    ]);
    fireEvent.change(mode, { target: { value: 'web' } });
    expect(field('MCP URL').value).toBe('');
    expect(field('MCP URL').disabled).toBe(true);
    fireEvent.change(mode, { target: { value: 'mcp' } });
    expect(field('MCP URL').value).toBe('https://tools.example.org/mcp');
  });

  it('B5: hostile text is kept exactly as typed and sent as text', async () => {
    const app = await arrive();
    const hostile = hostileStrings().slice(0, 40).join('\n');
    fireEvent.change(field('Developer prompt'), { target: { value: hostile } });
    app.advance(800);
    await waitFor(() => expect(settingsBadge().textContent).toBe('Saved'));
    const [write] = app.server.calls(`/api/v1/blueprints/bp-1/sections/${IDS.market}/`, 'PATCH');
    expect((write?.body as { developer_prompt?: string } | undefined)?.developer_prompt).toBe(hostile);
  });

  it('B4: the title field renames through the structure path when left', async () => {
    const app = await arrive();
    fireEvent.change(field('Title'), { target: { value: 'Market and customers' } });
    fireEvent.blur(field('Title'));
    await waitFor(() =>
      expect(outlineOf(app.blueprint().content).sections[0]?.title).toBe('Market and customers'),
    );
    await waitFor(() =>
      expect(
        within(screen.getByRole('navigation', { name: 'Sections' })).getByRole('button', {
          name: 'Market and customers',
        }),
      ).toBeTruthy(),
    );
  });
});

describe('File menu (SPEC.md B7)', () => {
  it('B7: Rename Blueprint refuses a blank title with "Title cannot be empty"', async () => {
    await arrive();
    fileMenu('Rename');
    const dialog = screen.getByRole('dialog', { name: 'Rename Blueprint' });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Title cannot be empty')).toBeTruthy();
  });

  it('B7: Export as .md says Markdown export is for documents', async () => {
    await arrive();
    fileMenu('Export as .md');
    expect(screen.getByText('Markdown export is available for Documents.')).toBeTruthy();
  });

  it('B7: System Prompt shows the global prompt read-only and saves the blueprint’s own', async () => {
    const app = await arrive();
    fileMenu('System Prompt');
    const dialog = await screen.findByRole('dialog', { name: 'System Prompt' });
    const global = await within(dialog).findByRole('textbox', { name: 'Global system prompt' });
    expect((global as HTMLTextAreaElement).readOnly).toBe(true);
    const own = within(dialog).getByLabelText('Blueprint system prompt') as HTMLTextAreaElement;
    expect(own.value).toBe('Write for seed investors.');
    fireEvent.change(own, { target: { value: 'Write for seed investors in Europe.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'System Prompt' })).toBeNull());
    const [write] = app.server.calls('/api/v1/blueprints/bp-1/', 'PATCH');
    expect(write?.body).toEqual({ system_prompt: 'Write for seed investors in Europe.' });
    expect(write?.headers.get('if-match')).toBe('"4"');
    fileMenu('System Prompt');
    const reopened = await screen.findByRole('dialog', { name: 'System Prompt' });
    expect((within(reopened).getByLabelText('Blueprint system prompt') as HTMLTextAreaElement).value).toBe(
      'Write for seed investors in Europe.',
    );
  });
});

describe('someone else’s blueprint (SPEC.md B9)', () => {
  it('B9: is shown read-only: the notice, no editing, no settings changes, no Rename, no save', async () => {
    const app = await arrive(MARKET, setupBlueprintWorkspace({ is_owner: false }));
    expect(screen.getByText('Only the owner of this blueprint can change it.')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Document editor' }).getAttribute('contenteditable')).toBe(
        'false',
      ),
    );
    expect((field('Developer prompt') as HTMLTextAreaElement).closest('fieldset')?.disabled).toBe(true);
    expect(screen.queryByRole('status', { name: 'Settings save status' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'File' }));
    expect(screen.queryByRole('menuitem', { name: 'Rename' })).toBeNull();
    fireEvent.click(screen.getByRole('menuitem', { name: 'System Prompt' }));
    const dialog = await screen.findByRole('dialog', { name: 'System Prompt' });
    expect((within(dialog).getByLabelText('Blueprint system prompt') as HTMLTextAreaElement).readOnly).toBe(
      true,
    );
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
    app.advance(5000);
    expect(app.server.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });
});
