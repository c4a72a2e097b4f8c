import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { allauth, createFakeServer, currentUser, json } from './support/fake-server';
import { activities, documentFixture, serveWorkspace, type WorkspaceSeed } from './support/fake-workspace';
import { renderApp } from './support/render-app';

afterEach(cleanup);

const SESSION = { token: 'token-1', email: 'ada@example.com', name: 'Ada Lovelace' };

function setup(seed: WorkspaceSeed = { documents: [documentFixture()] }) {
  const server = createFakeServer().on('GET /api/v1/app/me/', json(currentUser()));
  const workspace = serveWorkspace(server, seed);
  return { server, workspace };
}

async function arrive(server = setup().server, path = '/dashboard/documents/doc-1') {
  const app = renderApp({ path, server, session: SESSION });
  await screen.findByRole('heading', { level: 1, name: 'Acme plan' });
  return app;
}

const actionsButton = () => screen.getByRole('button', { name: 'Document actions' });

function choose(action: 'Rename' | 'Delete') {
  fireEvent.click(actionsButton());
  fireEvent.click(screen.getByRole('menuitem', { name: action }));
}

const titleField = () => screen.getByLabelText('Title') as HTMLInputElement;

describe('document page (spec 000 §2; SPEC.md DD1–DD4)', () => {
  it("DD1: 'Loading document...' first, then the document", async () => {
    const { server } = setup();
    renderApp({ path: '/dashboard/documents/doc-1', server, session: SESSION });
    expect(await screen.findByText('Loading document...')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme plan' })).toBeTruthy();
  });

  it("DD1: an unknown document is 'Document not found.'", async () => {
    const { server } = setup();
    renderApp({ path: '/dashboard/documents/nope', server, session: SESSION });
    expect(await screen.findByRole('heading', { name: 'Document not found.' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to documents' }).getAttribute('href')).toBe(
      '/dashboard/documents',
    );
    expect(server.calls('/api/v1/documents/nope/')).toHaveLength(1);
  });

  it('DD1: any other failure offers Try again', async () => {
    const { server } = setup();
    let fail = true;
    server.on('GET /api/v1/documents/:uuid/', () =>
      fail ? json({ detail: 'down' }, 503) : json(documentFixture()),
    );
    renderApp({ path: '/dashboard/documents/doc-1', server, session: SESSION });
    expect(await screen.findByText('Failed to load document')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme plan' })).toBeTruthy();
  });

  it('DD2/DD3: title, Edit, breadcrumbs, tiles, description fallback and Key Objectives', async () => {
    await arrive();
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(
      '/dashboard/documents/doc-1/edit',
    );
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(crumbs.getByRole('link', { name: 'Documents' }).getAttribute('href')).toBe('/dashboard/documents');
    expect(crumbs.getByText('Acme plan').getAttribute('aria-current')).toBe('page');
    expect(document.title).toBe('Acme plan · Planwright');
    expect(screen.getByText('12%')).toBeTruthy();
    expect(screen.getByText('3/26')).toBeTruthy();
    expect(screen.getByText('3/26 subsections')).toBeTruthy();
    expect(screen.getByText('Mar 15')).toBeTruthy();
    expect(screen.getByText('This document has no description yet.')).toBeTruthy();
    const objectives = within(screen.getByRole('region', { name: 'Key Objectives' }));
    expect(objectives.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByText('In-progress').className).toContain('badge-primary');
  });

  it('DD3: a description is shown as text, line breaks kept', async () => {
    const { server } = setup({
      documents: [documentFixture({ description: 'Line one\n<b>not bold</b>' })],
    });
    await arrive(server);
    const description = within(screen.getByRole('region', { name: 'Description' }));
    expect(description.getByText(/Line one/).textContent).toBe('Line one\n<b>not bold</b>');
    expect(document.querySelector('main b')).toBeNull();
  });

  it('DD4: Recent Activity reads levels 1 to 2 of this document', async () => {
    const { server } = setup({ documents: [documentFixture()], activities: activities(3) });
    await arrive(server);
    await screen.findByText('entry 1');
    const [feed] = server.calls('/api/v1/activities/activities/');
    expect(Object.fromEntries(feed?.query ?? [])).toEqual({
      level__gte: '1',
      level__lte: '2',
      target: 'document',
      object_id: 'doc-1',
      page_size: '100',
    });
  });

  it('DD2: the actions menu works from the keyboard and Escape gives the focus back', async () => {
    await arrive();
    const button = actionsButton();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    const menu = await screen.findByRole('menu', { name: 'Document actions' });
    const [rename, remove] = within(menu).getAllByRole('menuitem');
    await waitFor(() => expect(document.activeElement).toBe(rename));
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(remove);
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(rename);
    fireEvent.keyDown(menu, { key: 'End' });
    expect(document.activeElement).toBe(remove);
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});

describe('rename (SPEC.md RN1–RN5, W1, W2, DG1)', () => {
  it('RN1/RN2/DG1: prefilled, labelled, focused; Enter saves; the focus returns to the menu button', async () => {
    const { server } = setup();
    await arrive(server);
    actionsButton().focus();
    choose('Rename');
    const dialog = screen.getByRole('dialog', { name: 'Rename document' });
    expect(titleField().value).toBe('Acme plan');
    expect(document.activeElement).toBe(titleField());
    fireEvent.change(titleField(), { target: { value: '  Acme plan 2027 ' } });
    fireEvent.submit(titleField().form as HTMLFormElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(dialog.isConnected).toBe(false);
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme plan 2027' })).toBeTruthy();
    const [patch] = server.calls('/api/v1/documents/doc-1/', 'PATCH');
    expect(patch?.body).toEqual({ title: 'Acme plan 2027' });
    expect(patch?.headers.get('if-match')).toBe('"4"');
    expect(document.activeElement).toBe(actionsButton());
  });

  it("RN3: an empty title says 'Title cannot be empty' and sends nothing", async () => {
    const { server } = setup();
    await arrive(server);
    choose('Rename');
    fireEvent.change(titleField(), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Title cannot be empty')).toBeTruthy();
    expect(titleField().getAttribute('aria-invalid')).toBe('true');
    expect(server.calls('/api/v1/documents/doc-1/', 'PATCH')).toEqual([]);
  });

  it('RN4: the same title closes without a call; Escape and Cancel close too', async () => {
    const { server } = setup();
    await arrive(server);
    choose('Rename');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    choose('Rename');
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    choose('Rename');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.calls('/api/v1/documents/doc-1/', 'PATCH')).toEqual([]);
  });

  it("RN5: a failure says 'Failed to rename document' and keeps what was typed", async () => {
    const { server } = setup();
    server.on('PATCH /api/v1/documents/:uuid/', json({ detail: 'nope' }, 500));
    await arrive(server);
    choose('Rename');
    fireEvent.change(titleField(), { target: { value: 'New name' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to rename document')).toBeTruthy();
    expect(titleField().value).toBe('New name');
    expect(screen.getByRole('heading', { level: 1, name: 'Acme plan' })).toBeTruthy();
  });

  it('W2: a stale rename (412) reads the document again and says so; the retry goes through', async () => {
    const { server, workspace } = setup();
    await arrive(server);
    // Someone else renamed it meanwhile: the server is at revision 5.
    Object.assign(workspace.documents.get('doc-1') ?? {}, { title: 'Acme (theirs)', revision: 5 });
    choose('Rename');
    fireEvent.change(titleField(), { target: { value: 'Acme (mine)' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        'This document was changed elsewhere since you loaded it. The latest version is now shown; please try again.',
      ),
    ).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme (theirs)' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme (mine)' })).toBeTruthy();
    const patches = server.calls('/api/v1/documents/doc-1/', 'PATCH');
    expect(patches.map((patch) => patch.headers.get('if-match'))).toEqual(['"4"', '"5"']);
  });

  it('DG1: Tab and Shift+Tab stay inside the dialog', async () => {
    await arrive();
    choose('Rename');
    const dialog = screen.getByRole('dialog', { name: 'Rename document' });
    const save = screen.getByRole('button', { name: 'Save' });
    save.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(titleField());
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(save);
  });
});

describe('delete (SPEC.md DE1–DE3)', () => {
  it('DE1/DE2: asks first (focus on Cancel), then deletes and replaces the page with the list', async () => {
    const { server, workspace } = setup();
    const app = await arrive(server);
    choose('Delete');
    const dialog = screen.getByRole('dialog', { name: 'Delete document?' });
    expect(within(dialog).getByText(/“Acme plan” will be deleted/)).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(app.location()).toBe('/dashboard/documents'));
    expect(workspace.documents.has('doc-1')).toBe(false);
    expect(server.calls('/api/v1/documents/doc-1/', 'DELETE')[0]?.headers.get('if-match')).toBe('"4"');
    expect(await screen.findByRole('heading', { name: 'No documents yet' })).toBeTruthy();
    expect(app.router.state.historyAction).toBe('REPLACE');
    // The deleted document's detail is not read again on the way out.
    expect(server.calls('/api/v1/documents/doc-1/', 'GET')).toHaveLength(1);
    expect(app.queryClient.getQueryData(['documents', 'detail', 'doc-1'])).toBeUndefined();
  });

  it("DE2: a failure says 'Failed to delete document' and stays", async () => {
    const { server } = setup();
    server.on('DELETE /api/v1/documents/:uuid/', json({ detail: 'nope' }, 500));
    const app = await arrive(server);
    choose('Delete');
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete document')).toBeTruthy();
    expect(app.location()).toBe('/dashboard/documents/doc-1');
  });

  it('DE4: a plan shared with others asks for the password again (428), then deletes', async () => {
    const { server, workspace } = setup();
    const deleteAnswers = [
      json(
        {
          detail: 'Deleting a plan shared with others needs your password again: confirm it, then delete.',
          code: 'reauthentication_required',
        },
        428,
      ),
    ];
    const shared = server.calls.bind(server);
    server.on('DELETE /api/v1/documents/:uuid/', () => {
      const next = deleteAnswers.shift();
      if (next) return next;
      workspace.documents.delete('doc-1');
      return new Response(null, { status: 204 });
    });
    let tries = 0;
    server.on('POST /_allauth/app/v1/auth/reauthenticate', () => {
      tries += 1;
      return tries === 1
        ? json(
            {
              status: 400,
              errors: [{ message: 'Incorrect password.', code: 'incorrect_password', param: 'password' }],
            },
            400,
          )
        : allauth.authenticated(undefined);
    });
    const app = await arrive(server);
    choose('Delete');
    const dialog = () => within(screen.getByRole('dialog'));
    fireEvent.click(dialog().getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/needs your password again/)).toBeTruthy();
    fireEvent.change(dialog().getByLabelText('Your password'), { target: { value: 'wrong' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Incorrect password.')).toBeTruthy();
    fireEvent.change(dialog().getByLabelText('Your password'), { target: { value: 'violet-harbour' } });
    fireEvent.click(dialog().getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(app.location()).toBe('/dashboard/documents'));
    expect(shared('/_allauth/app/v1/auth/reauthenticate').map((call) => call.body)).toEqual([
      { password: 'wrong' },
      { password: 'violet-harbour' },
    ]);
  });

  it('DE3: a document already gone counts as deleted', async () => {
    const { server } = setup();
    server.on('DELETE /api/v1/documents/:uuid/', json({ detail: 'Document not found.' }, 404));
    const app = await arrive(server);
    choose('Delete');
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(app.location()).toBe('/dashboard/documents'));
  });
});

describe('hostile titles (SPEC.md DL4)', () => {
  it('shows markup as text, keeps RTL direction, and wraps a 500-character word', async () => {
    const long = `${'ש'.repeat(250)}${'🚀'.repeat(250)}`;
    const { server } = setup({ documents: [documentFixture({ title: long })] });
    renderApp({ path: '/dashboard/documents/doc-1', server, session: SESSION });
    const heading = await screen.findByRole('heading', { level: 1, name: long });
    expect(heading.getAttribute('dir')).toBe('auto');
    expect(heading.className).toContain('[overflow-wrap:anywhere]');
    const crumb = within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText(long);
    expect(crumb.className).toContain('truncate');
  });
});

describe('StrictMode (every effect runs twice, as in development)', () => {
  it('DG1/RN2: the rename dialog opens once, keeps its focus, saves once and returns the focus', async () => {
    const { server } = setup();
    renderApp({ path: '/dashboard/documents/doc-1', server, session: SESSION, strict: true });
    await screen.findByRole('heading', { level: 1, name: 'Acme plan' });
    actionsButton().focus();
    choose('Rename');
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(document.activeElement).toBe(titleField());
    fireEvent.change(titleField(), { target: { value: 'Strict plan' } });
    fireEvent.submit(titleField().form as HTMLFormElement);
    expect(await screen.findByRole('heading', { level: 1, name: 'Strict plan' })).toBeTruthy();
    expect(server.calls('/api/v1/documents/doc-1/', 'PATCH')).toHaveLength(1);
    expect(document.activeElement).toBe(actionsButton());
  });
});
