import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFakeServer, currentUser, json } from './support/fake-server';
import {
  activities,
  blueprintFixture,
  defaultBlueprint,
  minutesAgo,
  serveWorkspace,
  type WorkspaceSeed,
} from './support/fake-workspace';
import { EDITOR_COMPILE_TIMEOUT_MS, loadEditorRoute, renderApp } from './support/render-app';

afterEach(cleanup);
beforeAll(loadEditorRoute, EDITOR_COMPILE_TIMEOUT_MS);

const SESSION = { token: 'token-1', email: 'ada@example.com', name: 'Ada Lovelace' };
const ORGS = [
  { id: 'org-a', name: 'Acme Ventures', slug: 'acme', title: null, role: 'admin' },
  { id: 'org-b', name: 'Beta Studio', slug: 'beta', title: null, role: 'member' },
];

function setup(seed: WorkspaceSeed = {}) {
  const server = createFakeServer().on('GET /api/v1/app/me/', json(currentUser()));
  const workspace = serveWorkspace(server, {
    blueprints: [blueprintFixture()],
    organizations: ORGS,
    ...seed,
  });
  return { server, workspace };
}

async function arrive(server = setup().server, uuid = 'bp-1', title = 'Seed round plan') {
  const app = renderApp({ path: `/dashboard/blueprints/${uuid}`, server, session: SESSION });
  await screen.findByRole('heading', { level: 1, name: title });
  return app;
}

const select = (label: string) => screen.getByLabelText(label) as HTMLSelectElement;
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const saveButton = () => screen.getByRole('button', { name: 'Save changes' });

describe('blueprints list (spec 000 §2; SPEC.md BL1–BL3)', () => {
  it('BL2: Recent Blueprints (5 newest) and All Blueprints, each with its status badge', async () => {
    const blueprints = Array.from({ length: 6 }, (_, index) =>
      blueprintFixture({
        uuid: `bp-${index + 1}`,
        title: `Template ${index + 1}`,
        status: index === 0 ? 'published' : 'draft',
        visibility: index === 0 ? 'public' : 'private',
        updated_at: minutesAgo(index + 1),
      }),
    );
    const { server } = setup({ blueprints: [...blueprints, defaultBlueprint()] });
    renderApp({ path: '/dashboard/blueprints', server, session: SESSION });
    const recent = within(await screen.findByRole('region', { name: 'Recent Blueprints' }));
    expect(recent.getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Template 1',
      'Template 2',
      'Template 3',
      'Template 4',
      'Template 5',
    ]);
    expect(recent.getByText('Published').className).toContain('badge-secondary');
    expect(recent.getAllByText('Draft')).toHaveLength(4);
    expect(recent.getByText('Public')).toBeTruthy();
    const all = within(screen.getByRole('region', { name: 'All Blueprints' }));
    // Only the caller's own: the studio's default is not theirs.
    expect(all.getAllByRole('link')).toHaveLength(6);
    expect(all.getAllByText(/Draft|Published/)).toHaveLength(6);
    expect(all.getByRole('link', { name: 'Template 6' }).getAttribute('href')).toBe(
      '/dashboard/blueprints/bp-6',
    );
  });

  it('BL1: New Blueprint creates a draft (an empty body) and opens it in the blueprint editor', async () => {
    const { server } = setup();
    const app = renderApp({ path: '/dashboard/blueprints', server, session: SESSION });
    fireEvent.click(await screen.findByRole('button', { name: 'New Blueprint' }));
    // The editor's chunk loads before the navigation commits (compiled in beforeAll).
    await waitFor(() => expect(app.location()).toBe('/dashboard/blueprints/bp-new-1/edit'));
    const posts = server.calls('/api/v1/blueprints/', 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body ?? {}).toEqual({});
  });

  it("BL1: a failed creation says 'Failed to create blueprint'", async () => {
    const { server } = setup();
    server.on('POST /api/v1/blueprints/', json({ detail: 'nope' }, 500));
    const app = renderApp({ path: '/dashboard/blueprints', server, session: SESSION });
    fireEvent.click(await screen.findByRole('button', { name: 'New Blueprint' }));
    expect(await screen.findByText('Failed to create blueprint')).toBeTruthy();
    expect(app.location()).toBe('/dashboard/blueprints');
  });

  it('BL3: loading, failure and empty texts', async () => {
    const { server } = setup({ blueprints: [] });
    renderApp({ path: '/dashboard/blueprints', server, session: SESSION });
    expect(await screen.findByText('Loading blueprints…')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'No blueprints yet' })).toBeTruthy();
    cleanup();
    server.on('GET /api/v1/blueprints/', json({ detail: 'down' }, 503));
    renderApp({ path: '/dashboard/blueprints', server, session: SESSION });
    expect(await screen.findByText('Failed to load blueprints')).toBeTruthy();
    expect(screen.getByText('An error occurred fetching blueprints.')).toBeTruthy();
  });
});

describe('blueprint page (spec 000 §2; SPEC.md BD1–BD4)', () => {
  it('BD2/BD4: stats, publisher, badges, Sales placeholders, breadcrumbs', async () => {
    const { server } = setup({
      blueprints: [blueprintFixture({ sections_count: 4, description: 'For seed rounds.' })],
    });
    await arrive(server);
    expect(screen.getByText('by ada')).toBeTruthy();
    expect(screen.getByText('For seed rounds.')).toBeTruthy();
    const stats = screen.getByText('Sections').closest('.stats') as HTMLElement;
    expect(within(stats).getByText('4')).toBeTruthy();
    expect(within(stats).getByText('1 hour ago')).toBeTruthy();
    expect(within(stats).getByText('3 days ago')).toBeTruthy();
    const sales = within(screen.getByRole('region', { name: 'Sales' }));
    expect(sales.getByText('1,344')).toBeTruthy();
    expect(sales.getByText('$20,160.00')).toBeTruthy();
    const crumbs = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(crumbs.getByRole('link', { name: 'Blueprints' }).getAttribute('href')).toBe(
      '/dashboard/blueprints',
    );
    expect(crumbs.getByText('Seed round plan')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(
      '/dashboard/blueprints/bp-1/edit',
    );
  });

  it("BD1: 'Blueprint not found.' for an unknown one, 'Failed to load blueprint' for other failures", async () => {
    const { server } = setup();
    renderApp({ path: '/dashboard/blueprints/nope', server, session: SESSION });
    expect(await screen.findByText('Loading blueprint…')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Blueprint not found.' })).toBeTruthy();
    cleanup();
    server.on('GET /api/v1/blueprints/:uuid/', json({ detail: 'down' }, 500));
    renderApp({ path: '/dashboard/blueprints/bp-1', server, session: SESSION });
    expect(await screen.findByText('Failed to load blueprint')).toBeTruthy();
  });

  it('BD2: Recent Activity of this blueprint', async () => {
    const { server } = setup({ activities: activities(2, { target: 'blueprint', object_id: 'bp-1' }) });
    await arrive(server);
    expect(await screen.findByText('entry 2')).toBeTruthy();
    const [feed] = server.calls('/api/v1/activities/activities/');
    expect(feed?.query.get('target')).toBe('blueprint');
    expect(feed?.query.get('object_id')).toBe('bp-1');
  });

  it('BD3: someone else’s blueprint is read-only: no Edit but View, no menu, the form disabled', async () => {
    const { server } = setup({ blueprints: [defaultBlueprint()] });
    await arrive(server, 'bp-default', 'Business Plan');
    expect(screen.getByText('by Planwright Studio')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.getByRole('link', { name: 'View' }).getAttribute('href')).toBe(
      '/dashboard/blueprints/bp-default/edit',
    );
    expect(screen.queryByRole('button', { name: 'Blueprint actions' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    expect(screen.getByText('Only the owner of this blueprint can change it.')).toBeTruthy();
    expect(select('Status').closest('fieldset')?.disabled).toBe(true);
    expect(select('Status').value).toBe('published');
    expect(server.calls('/api/v1/organizations/')).toEqual([]);
  });
});

describe('marketplace form (spec 000 §4 "Blueprint status"; SPEC.md BF1–BF7)', () => {
  it('BF4: publishing sends published_at as the injected clock’s time and no organisations', async () => {
    const { server } = setup();
    await arrive(server);
    expect(saveButton().hasAttribute('disabled')).toBe(true);
    fireEvent.change(select('Status'), { target: { value: 'published' } });
    fireEvent.change(select('Visibility'), { target: { value: 'public' } });
    fireEvent.change(input('Version'), { target: { value: '2' } });
    fireEvent.click(saveButton());
    expect(await screen.findByText('Changes saved.')).toBeTruthy();
    const [patch] = server.calls('/api/v1/blueprints/bp-1/', 'PATCH');
    expect(patch?.body).toEqual({
      status: 'published',
      version: 2,
      visibility: 'public',
      published_at: '2026-01-15T09:00:00.000Z',
      allowed_orgs: [],
    });
    expect(patch?.headers.get('if-match')).toBe('"1"');
    expect(screen.getByText('Published', { selector: '.badge' })).toBeTruthy();
    expect(saveButton().hasAttribute('disabled')).toBe(true);
  });

  it('BF4: a draft sends published_at null', async () => {
    const { server } = setup({
      blueprints: [
        blueprintFixture({ status: 'published', visibility: 'public', published_at: minutesAgo(60) }),
      ],
    });
    await arrive(server);
    fireEvent.change(select('Status'), { target: { value: 'draft' } });
    fireEvent.click(saveButton());
    await screen.findByText('Changes saved.');
    expect(server.calls('/api/v1/blueprints/bp-1/', 'PATCH')[0]?.body).toMatchObject({
      status: 'draft',
      published_at: null,
    });
  });

  it('BF2/BF4: the organisations show only for restricted, and are sent only then', async () => {
    const { server } = setup();
    await arrive(server);
    expect(screen.queryByRole('group', { name: 'Allowed organisations' })).toBeNull();
    fireEvent.change(select('Visibility'), { target: { value: 'restricted' } });
    const orgs = within(await screen.findByRole('group', { name: 'Allowed organisations' }));
    fireEvent.click(await orgs.findByRole('checkbox', { name: 'Beta Studio' }));
    fireEvent.click(orgs.getByRole('checkbox', { name: 'Acme Ventures' }));
    fireEvent.click(orgs.getByRole('checkbox', { name: 'Acme Ventures' }));
    fireEvent.change(select('Status'), { target: { value: 'published' } });
    fireEvent.click(saveButton());
    await screen.findByText('Changes saved.');
    expect(server.calls('/api/v1/blueprints/bp-1/', 'PATCH')[0]?.body).toMatchObject({
      visibility: 'restricted',
      allowed_orgs: ['org-b'],
    });

    // Switching away hides them and sends [] again.
    fireEvent.change(select('Visibility'), { target: { value: 'private' } });
    expect(screen.queryByRole('group', { name: 'Allowed organisations' })).toBeNull();
    fireEvent.click(saveButton());
    await waitFor(() => expect(server.calls('/api/v1/blueprints/bp-1/', 'PATCH')).toHaveLength(2));
    expect(server.calls('/api/v1/blueprints/bp-1/', 'PATCH')[1]?.body).toMatchObject({
      visibility: 'private',
      allowed_orgs: [],
    });
  });

  it('BF2: a reader of a restricted blueprint sees the allowed organisations they belong to, read-only', async () => {
    const { server } = setup({
      blueprints: [
        blueprintFixture({
          is_owner: false,
          status: 'published',
          visibility: 'restricted',
          allowed_orgs: ['org-b'],
        }),
      ],
    });
    await arrive(server);
    const orgs = within(await screen.findByRole('group', { name: 'Allowed organisations' }));
    const beta = (await orgs.findByRole('checkbox', { name: 'Beta Studio' })) as HTMLInputElement;
    expect(beta.checked).toBe(true);
    expect(beta.closest('fieldset[disabled]')).not.toBeNull();
    expect(orgs.queryByRole('checkbox', { name: 'Acme Ventures' })).toBeNull();
    expect(screen.queryByText('You are not a member of any organisation yet.')).toBeNull();
  });

  it('BF3: a version below 1 is refused by the field and nothing is sent', async () => {
    const { server } = setup();
    await arrive(server);
    fireEvent.change(input('Version'), { target: { value: '0' } });
    fireEvent.click(saveButton());
    expect(screen.getByText('Version must be a whole number of at least 1.')).toBeTruthy();
    expect(input('Version').getAttribute('aria-invalid')).toBe('true');
    expect(server.calls('/api/v1/blueprints/bp-1/', 'PATCH')).toEqual([]);
  });

  it("BF4: a failed save says 'Failed to save changes'; BF5: Cancel puts the saved values back", async () => {
    const { server } = setup();
    server.on('PATCH /api/v1/blueprints/:uuid/', json({ detail: 'nope' }, 500));
    await arrive(server);
    fireEvent.change(select('Status'), { target: { value: 'published' } });
    fireEvent.click(saveButton());
    expect(await screen.findByText('Failed to save changes')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(select('Status').value).toBe('draft');
    expect(screen.queryByText('Failed to save changes')).toBeNull();
  });

  it('W2/BF6: a stale save reads the blueprint again, keeps the edits, and the retry goes through', async () => {
    const { server, workspace } = setup();
    await arrive(server);
    Object.assign(workspace.blueprints.get('bp-1') ?? {}, { title: 'Renamed elsewhere', revision: 3 });
    fireEvent.change(select('Status'), { target: { value: 'published' } });
    fireEvent.click(saveButton());
    expect(
      await screen.findByText(
        'This blueprint was changed elsewhere since you loaded it. The latest version is now shown; please try again.',
      ),
    ).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Renamed elsewhere' })).toBeTruthy();
    expect(select('Status').value).toBe('published');
    fireEvent.click(saveButton());
    expect(await screen.findByText('Changes saved.')).toBeTruthy();
    expect(
      server.calls('/api/v1/blueprints/bp-1/', 'PATCH').map((patch) => patch.headers.get('if-match')),
    ).toEqual(['"1"', '"3"']);
  });
});

describe('versions (SPEC.md BF8, BF9)', () => {
  it('BF8: a version the server refuses shows its words by the Version field', async () => {
    const { server } = setup({ blueprints: [blueprintFixture({ version: 3 })] });
    server.on(
      'PATCH /api/v1/blueprints/:uuid/',
      json(
        {
          detail: 'Invalid input: version',
          code: 'invalid',
          errors: [{ param: 'version', code: 'version_decrease', message: 'Version cannot go below 3.' }],
        },
        400,
      ),
    );
    await arrive(server);
    fireEvent.change(input('Version'), { target: { value: '2' } });
    fireEvent.click(saveButton());
    expect(await screen.findByText('Version cannot go below 3.')).toBeTruthy();
    expect(input('Version').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText('Failed to save changes')).toBeNull();
  });

  it('BF9: a published blueprint offers its next version; publishing it sends If-Match and says so', async () => {
    const published = blueprintFixture({
      status: 'published',
      version: 2,
      revision: 5,
      published_at: minutesAgo(60),
    });
    const { server } = setup({ blueprints: [published] });
    server.on('POST /api/v1/blueprints/:uuid/publish/', () =>
      json({ ...published, version: 3, revision: 6, published_at: minutesAgo(0) }, 200, { etag: '"6"' }),
    );
    await arrive(server);
    fireEvent.click(screen.getByRole('button', { name: 'Publish version 3' }));
    expect(
      await screen.findByText('Published version 3. Documents made from earlier versions keep theirs.'),
    ).toBeTruthy();
    const [call] = server.calls('/api/v1/blueprints/bp-1/publish/', 'POST');
    expect(call?.headers.get('if-match')).toBe('"5"');
    expect(await screen.findByRole('button', { name: 'Publish version 4' })).toBeTruthy();
  });

  it('BF9: a draft, or a form with changes, offers no new version', async () => {
    await arrive();
    expect(screen.queryByRole('button', { name: /Publish version/ })).toBeNull();
    cleanup();
    const { server } = setup({ blueprints: [blueprintFixture({ status: 'published', version: 2 })] });
    await arrive(server);
    fireEvent.change(select('Visibility'), { target: { value: 'unlisted' } });
    expect(screen.queryByRole('button', { name: /Publish version/ })).toBeNull();
  });
});

describe('blueprint rename and delete (SPEC.md RN, DE)', () => {
  function choose(action: 'Rename' | 'Delete') {
    fireEvent.click(screen.getByRole('button', { name: 'Blueprint actions' }));
    fireEvent.click(screen.getByRole('menuitem', { name: action }));
  }

  it("RN3/RN5: 'Title cannot be empty', then 'Failed to rename blueprint', then a rename that works", async () => {
    const { server } = setup();
    let fail = true;
    await arrive(server);
    choose('Rename');
    const field = screen.getByLabelText('Title') as HTMLInputElement;
    fireEvent.change(field, { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Title cannot be empty')).toBeTruthy();
    expect(server.calls('/api/v1/blueprints/bp-1/', 'PATCH')).toEqual([]);

    server.on('PATCH /api/v1/blueprints/:uuid/', (request) =>
      fail
        ? json({ detail: 'nope' }, 500)
        : json(blueprintFixture({ title: (request.body as { title: string }).title, revision: 2 }), 200, {
            etag: '"2"',
          }),
    );
    fireEvent.change(field, { target: { value: 'Series A plan' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to rename blueprint')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Series A plan' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.calls('/api/v1/blueprints/bp-1/', 'PATCH').at(-1)?.body).toEqual({
      title: 'Series A plan',
    });
  });

  it("DE2: Delete goes back to the list; a failure says 'Failed to delete blueprint'", async () => {
    const { server, workspace } = setup();
    server.on('DELETE /api/v1/blueprints/:uuid/', json({ detail: 'nope' }, 500));
    const app = await arrive(server);
    choose('Delete');
    const dialog = within(screen.getByRole('dialog', { name: 'Delete blueprint?' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete blueprint')).toBeTruthy();

    server.on('DELETE /api/v1/blueprints/:uuid/', () => {
      workspace.blueprints.delete('bp-1');
      return new Response(null, { status: 204 });
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(app.location()).toBe('/dashboard/blueprints'));
    expect(await screen.findByRole('heading', { name: 'No blueprints yet' })).toBeTruthy();
  });
});
