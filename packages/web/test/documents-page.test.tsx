import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeServer, currentUser, json } from './support/fake-server';
import {
  blueprintFixture,
  defaultBlueprint,
  documentFixture,
  listAnswer,
  minutesAgo,
  serveWorkspace,
  type WorkspaceSeed,
} from './support/fake-workspace';
import { renderApp } from './support/render-app';

afterEach(cleanup);

const SESSION = { token: 'token-1', email: 'ada@example.com', name: 'Ada Lovelace' };

function setup(seed: WorkspaceSeed = {}) {
  const server = createFakeServer().on('GET /api/v1/app/me/', json(currentUser()));
  const workspace = serveWorkspace(server, seed);
  return { server, workspace };
}

function open(server: ReturnType<typeof setup>['server'], path = '/dashboard/documents') {
  return renderApp({ path, server, session: SESSION });
}

const recentSection = () => screen.getByRole('region', { name: 'Recent Documents' });

describe('documents list (spec 000 §2; SPEC.md DL1–DL4)', () => {
  it('DL1/DL2: Recent Documents shows the 5 newest with progress, subsections and status', async () => {
    const documents = Array.from({ length: 7 }, (_, index) =>
      documentFixture({
        uuid: `doc-${index + 1}`,
        title: `Plan ${index + 1}`,
        updated_at: minutesAgo((index + 1) * 10),
        progress: { finalized: index, total: 10, percent: index * 10 },
        status: index === 0 ? 'completed' : 'in-progress',
      }),
    );
    const { server } = setup({ documents });
    open(server);
    await screen.findByRole('heading', { name: 'Recent Documents' });
    const recent = within(recentSection());
    const links = recent.getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Plan 1', 'Plan 2', 'Plan 3', 'Plan 4', 'Plan 5']);
    expect(links[0]?.getAttribute('href')).toBe('/dashboard/documents/doc-1');
    const bar = recent.getByRole('progressbar', { name: 'Progress of Plan 3' }) as HTMLProgressElement;
    expect(bar.value).toBe(20);
    expect(recent.getByText('2/10 subsections')).toBeTruthy();
    expect(recent.getByText('20%')).toBeTruthy();
    expect(recent.getByText('10 minutes ago')).toBeTruthy();
    expect(server.calls('/api/v1/documents/', 'GET').map((request) => request.query.toString())).toContain(
      'page_size=5&ordering=-updated_at',
    );

    const all = within(screen.getByRole('region', { name: 'All Documents' }));
    expect(all.getAllByRole('link')).toHaveLength(7);
  });

  it('DL2: status badges use the spec colours: completed success, in-progress primary, else secondary', async () => {
    const { server } = setup({
      documents: [
        documentFixture({ uuid: 'a', title: 'Done', status: 'completed', updated_at: minutesAgo(1) }),
        documentFixture({ uuid: 'b', title: 'Going', status: 'in-progress', updated_at: minutesAgo(2) }),
        documentFixture({ uuid: 'c', title: 'Odd', status: 'on-hold', updated_at: minutesAgo(3) }),
        documentFixture({ uuid: 'd', title: 'Silent', status: null, updated_at: minutesAgo(4) }),
      ],
    });
    open(server);
    await screen.findByRole('heading', { name: 'Recent Documents' });
    const badges = [...recentSection().querySelectorAll('.badge')].map((badge) => [
      badge.textContent,
      badge.className.match(/badge-(success|primary|secondary)/)?.[1],
    ]);
    expect(badges).toEqual([
      ['Completed', 'success'],
      ['In-progress', 'primary'],
      ['On-hold', 'secondary'],
      ['Unknown', 'secondary'],
    ]);
  });

  it('DL3: loading, then the spec texts for a failure, and Try again reads again', async () => {
    let fail = true;
    const { server } = setup({ documents: [documentFixture()] });
    server.on('GET /api/v1/documents/', (request) =>
      fail
        ? json({ detail: 'boom' }, 500)
        : listAnswer([documentFixture()], 1, 1, Number(request.query.get('page_size'))),
    );
    open(server);
    expect(await screen.findByText('Loading documents…')).toBeTruthy();
    expect(await screen.findByText('Failed to load documents')).toBeTruthy();
    expect(screen.getByText('An error occurred fetching documents.')).toBeTruthy();
    fail = false;
    // The first is the list's; the plans shared with the caller (read from the same route) failed too.
    const [retry] = screen.getAllByRole('button', { name: 'Try again' });
    if (!retry) throw new Error('no Try again');
    fireEvent.click(retry);
    expect(await screen.findByRole('heading', { name: 'Recent Documents' })).toBeTruthy();
    expect(server.calls('/api/v1/documents/').length).toBeGreaterThan(2);
  });

  it('DL3: no documents at all is an empty state', async () => {
    const { server } = setup();
    open(server);
    expect(await screen.findByRole('heading', { name: 'No documents yet' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Recent Documents' })).toBeNull();
  });

  it('DL1: All Documents goes page by page', async () => {
    const documents = Array.from({ length: 23 }, (_, index) =>
      documentFixture({
        uuid: `doc-${index + 1}`,
        title: `Plan ${index + 1}`,
        updated_at: minutesAgo(index + 1),
      }),
    );
    const { server } = setup({ documents });
    open(server);
    const all = within(await screen.findByRole('region', { name: 'All Documents' }));
    expect(all.getAllByRole('link')).toHaveLength(20);
    expect(all.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(all.getByRole('button', { name: 'Next' }));
    await waitFor(() =>
      expect(all.getAllByRole('link').map((link) => link.textContent)).toEqual([
        'Plan 21',
        'Plan 22',
        'Plan 23',
      ]),
    );
    expect(all.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);
  });

  it('DL4: hostile titles are text: markup, RTL, emoji and a 500-character word', async () => {
    const long = 'W'.repeat(500);
    const { server } = setup({
      documents: [
        documentFixture({ uuid: 'x', title: '<img src=x onerror=alert(1)>', updated_at: minutesAgo(1) }),
        documentFixture({ uuid: 'y', title: 'مرحبا بالعالم 🚀', updated_at: minutesAgo(2) }),
        documentFixture({ uuid: 'z', title: long, updated_at: minutesAgo(3) }),
        documentFixture({ uuid: 'w', title: '', updated_at: minutesAgo(4) }),
      ],
    });
    open(server);
    const recent = within(await screen.findByRole('region', { name: 'Recent Documents' }));
    expect(recent.getByRole('link', { name: '<img src=x onerror=alert(1)>' })).toBeTruthy();
    expect(document.querySelector('img')).toBeNull();
    const rtl = recent.getByRole('link', { name: 'مرحبا بالعالم 🚀' });
    expect(rtl.getAttribute('dir')).toBe('auto');
    expect(recent.getByRole('link', { name: long }).className).toContain('[overflow-wrap:anywhere]');
    expect(recent.getByRole('link', { name: 'Untitled Document' })).toBeTruthy();
  });
});

describe('new-document modal (spec 000 §2, §4, §5; SPEC.md ND1–ND6)', () => {
  const own = blueprintFixture({ uuid: 'bp-own', title: 'My template', description: '', status: 'draft' });
  const impostor = blueprintFixture({ uuid: 'bp-fake', title: 'Business Plan', description: 'Mine.' });

  async function openModal(server: ReturnType<typeof setup>['server']) {
    const app = open(server);
    fireEvent.click(await screen.findByRole('button', { name: 'New Document' }));
    return { app, dialog: await screen.findByRole('dialog', { name: 'Select a Blueprint' }) };
  }

  const radio = (name: RegExp) => screen.getByRole('radio', { name }) as HTMLInputElement;
  const create = () => screen.getByRole('button', { name: 'Create Document' });

  it('ND1: blueprints are read only when the modal first opens', async () => {
    const { server } = setup({ blueprints: [defaultBlueprint(), own] });
    open(server);
    await screen.findByRole('button', { name: 'New Document' });
    expect(server.calls('/api/v1/blueprints/available/')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'New Document' }));
    await screen.findByRole('radio', { name: /My template/ });
    expect(server.calls('/api/v1/blueprints/available/')).toHaveLength(1);
  });

  it('ND2: the preferred blueprint is selected by default; each option shows publisher, description, badges', async () => {
    const { server } = setup({ blueprints: [own, impostor, defaultBlueprint()] });
    const { dialog } = await openModal(server);
    await screen.findByRole('radio', { name: /My template/ });
    expect(radio(/Planwright Studio/).checked).toBe(true);
    expect(radio(/Mine\./).checked).toBe(false);
    const mine = radio(/My template/).closest('label') as HTMLElement;
    expect(within(mine).getByText('ada')).toBeTruthy();
    expect(within(mine).getByText('No description.')).toBeTruthy();
    expect(within(mine).getByText('Draft')).toBeTruthy();
    expect(within(mine).getByText('Private')).toBeTruthy();
    const preferred = radio(/Planwright Studio/).closest('label') as HTMLElement;
    expect(within(preferred).getByText('An investor-ready business plan.')).toBeTruthy();
    expect(within(preferred).getByText('Public')).toBeTruthy();
    expect(dialog.getAttribute('aria-labelledby')).toBeTruthy();
  });

  it('ND2: without the preferred one the first is selected; a pick is what Create sends', async () => {
    const { server } = setup({ blueprints: [impostor, own] });
    const { app } = await openModal(server);
    await screen.findByRole('radio', { name: /My template/ });
    expect(radio(/Mine\./).checked).toBe(true);
    fireEvent.click(radio(/My template/));
    expect(radio(/My template/).checked).toBe(true);
    fireEvent.click(create());
    await waitFor(() => expect(app.location()).toBe('/dashboard/documents/doc-new-1'));
    expect(server.calls('/api/v1/documents/', 'POST')[0]?.body).toEqual({ blueprint: 'bp-own' });
    expect(await screen.findByRole('heading', { name: 'My template', level: 1 })).toBeTruthy();
  });

  it('ND3/ND5: while loading nothing can be created; Cancel closes', async () => {
    const { server } = setup();
    server.on('GET /api/v1/blueprints/available/', () => new Promise<Response>(() => {}));
    await openModal(server);
    expect(screen.getByText('Loading blueprints…')).toBeTruthy();
    expect(create().hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('ND4: a failed first load says so, and Create makes the document from the default template', async () => {
    const { server } = setup();
    server.on('GET /api/v1/blueprints/available/', json({ detail: 'down' }, 503));
    const { app } = await openModal(server);
    expect(await screen.findByText('An error occurred fetching blueprints.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByText('Please select a blueprint')).toBeNull();
    expect(create().hasAttribute('disabled')).toBe(false);
    fireEvent.click(create());
    await waitFor(() => expect(app.location()).toBe('/dashboard/documents/doc-new-1'));
    expect(server.calls('/api/v1/documents/', 'POST')[0]?.body).toStrictEqual({});
    expect(await screen.findByRole('heading', { name: 'Business Plan', level: 1 })).toBeTruthy();
  });

  it('ND4: when a reload fails, the list read before stays and the preferred one is still selected', async () => {
    const { server } = setup({ blueprints: [own, defaultBlueprint()] });
    const { app } = await openModal(server);
    await screen.findByRole('radio', { name: /My template/ });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    server.on('GET /api/v1/blueprints/available/', json({ detail: 'down' }, 503));
    await app.queryClient.refetchQueries({ queryKey: ['blueprints', 'available'] });
    fireEvent.click(screen.getByRole('button', { name: 'New Document' }));
    await screen.findByRole('dialog', { name: 'Select a Blueprint' });
    expect(screen.getByText('An error occurred fetching blueprints.')).toBeTruthy();
    expect(radio(/Planwright Studio/).checked).toBe(true);
    expect(create().hasAttribute('disabled')).toBe(false);
    fireEvent.click(create());
    await waitFor(() => expect(app.location()).toBe('/dashboard/documents/doc-new-1'));
    expect(server.calls('/api/v1/documents/', 'POST')[0]?.body).toEqual({ blueprint: 'bp-default' });
  });

  it('ND4: an empty list shows the spec text, and Create sends no blueprint', async () => {
    const { server } = setup();
    const { app } = await openModal(server);
    expect(await screen.findByText('No blueprints available. Using default template.')).toBeTruthy();
    expect(screen.queryByText('Please select a blueprint')).toBeNull();
    expect(create().hasAttribute('disabled')).toBe(false);
    fireEvent.click(create());
    await waitFor(() => expect(app.location()).toBe('/dashboard/documents/doc-new-1'));
    expect(server.calls('/api/v1/documents/', 'POST').map((request) => request.body)).toStrictEqual([{}]);
  });

  it('ND6: a failed creation says "Failed to create document" and stays open', async () => {
    const { server } = setup({ blueprints: [defaultBlueprint()] });
    server.on('POST /api/v1/documents/', json({ detail: 'nope' }, 500));
    const { app } = await openModal(server);
    await screen.findByRole('radio', { name: /Business Plan/ });
    fireEvent.click(create());
    expect(await screen.findByText('Failed to create document')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Select a Blueprint' })).toBeTruthy();
    expect(app.location()).toBe('/dashboard/documents');
  });

  it('DG1: Escape closes the modal and the focus returns to New Document', async () => {
    const { server } = setup({ blueprints: [defaultBlueprint()] });
    open(server);
    const button = await screen.findByRole('button', { name: 'New Document' });
    button.focus();
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Select a Blueprint' });
    await screen.findByRole('radio', { name: /Business Plan/ });
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});
