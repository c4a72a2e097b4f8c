import { createPlanwrightClient, MemoryTokenStore, outlineOf } from '@planwright/sdk';
import { type DocumentJson, renameSection, setSubsectionFinalized } from '@planwright/sdk/model';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EditorBridge } from '../../src/workspace/editor-bridge';
import { LiveOutline } from '../../src/workspace/live-outline';
import { PlanWorkspace, parseDocumentContent } from '../../src/workspace/plan-workspace';
import { json, type SeenRequest } from '../support/fake-server';
import { ManualClock } from '../support/manual-clock';
import { memoryStorage } from '../support/render-app';
import { hostileStrings, IDS, planContent, setupWorkspace, storedOrder } from './workspace-support';

const open: PlanWorkspace[] = [];
afterEach(() => {
  for (const workspace of open.splice(0)) workspace.dispose();
});

/** A stand-in editor: holds the content, records loads and read-only switches. */
function fakeEditor(workspace: PlanWorkspace) {
  let content = workspace.getSnapshot().initialContent as DocumentJson;
  const readOnly: boolean[] = [];
  const loads: DocumentJson[] = [];
  const hints: ReadonlyMap<string, string>[] = [];
  const bridge: EditorBridge = {
    setHints: (next) => {
      hints.push(next);
    },
    getJSON: () => content,
    load: (next) => {
      content = next;
      loads.push(next);
    },
    setReadOnly: (value) => {
      readOnly.push(value);
    },
    setFinalized: (uuid, finalized) => {
      const result = setSubsectionFinalized(content, uuid, finalized);
      if (!result.ok || !result.changed) return false;
      content = result.doc;
      workspace.edited();
      return true;
    },
    focus: vi.fn(),
    reveal: vi.fn(() => true),
    skeleton: () => content,
    applyContent: (next) => {
      content = next;
      workspace.edited();
      return true;
    },
    insertParagraphAfterCursor: () => false,
    selectedText: () => '',
    commentAnchor: () => null,
    setCommentMarks: () => {},
    revealComment: () => false,
    revealSuggestion: () => false,
  };
  workspace.attachEditor(bridge);
  return {
    bridge,
    readOnly,
    hints,
    loads,
    content: () => content,
    /** A user edit: renames the Market section in the text, as typing in its heading would. */
    type(title: string) {
      const result = renameSection(content, IDS.market, title);
      if (!result.ok) throw new Error('rename failed');
      content = result.doc;
      workspace.edited();
    },
  };
}

async function openWorkspace(setup = setupWorkspace(), storage = memoryStorage()) {
  const clock = new ManualClock();
  const client = createPlanwrightClient({
    baseUrl: 'http://planwright.test',
    fetch: setup.server.fetch,
    tokenStore: new MemoryTokenStore(),
  });
  const workspace = new PlanWorkspace({
    client,
    uuid: 'doc-1',
    clock,
    storage: () => storage,
    random: () => 0.5,
  });
  open.push(workspace);
  await workspace.load();
  return { ...setup, clock, workspace, storage };
}

const calls = (server: { requests: SeenRequest[] }, method: string) =>
  server.requests.filter((request) => request.method === method).map((request) => request.path);

describe('loading (SPEC.md W3, W4, W5)', () => {
  it('W3/W4: reads the document; the controller ends loading at its revision; the outline lists it', async () => {
    const { workspace } = await openWorkspace();
    expect(workspace.getSnapshot().load).toEqual({ status: 'ready' });
    expect(workspace.getSnapshot().title).toBe('Acme plan');
    expect(workspace.controller.getSnapshot()).toMatchObject({ loading: false, revision: 4, dirty: false });
    expect(workspace.getSnapshot().initialContent).toEqual(planContent());
    const { outline, progress } = workspace.outline.getSnapshot();
    expect(outline.sections.map((section) => section.displayTitle)).toEqual(['Market', 'Product', 'Finance']);
    expect(outline.sections[0]?.subsections.map((sub) => sub.displayTitle)).toEqual([
      'Size',
      'Untitled Subsection',
    ]);
    expect(progress).toEqual({ finalized: 1, total: 3, percent: 33 });
  });

  it('W3: a 404 is not found; nothing is saved', async () => {
    const setup = setupWorkspace();
    setup.documents.clear();
    const { workspace } = await openWorkspace(setup);
    expect(workspace.getSnapshot().load).toEqual({ status: 'not-found' });
    expect(workspace.controller.getSnapshot().status).not.toBe('error');
  });

  it('W3: any other failure is failed with the error, and the save status is error; Try again reads again', async () => {
    const setup = setupWorkspace();
    let fail = true;
    const real = setup.document();
    setup.server.on('GET /api/v1/documents/:uuid/', () =>
      fail ? json({ detail: 'Database is down' }, 503) : json(real, 200, { etag: '"4"' }),
    );
    const { workspace } = await openWorkspace(setup);
    expect(workspace.getSnapshot().load.status).toBe('failed');
    expect(workspace.controller.getSnapshot().status).toBe('error');
    fail = false;
    await workspace.load();
    expect(workspace.getSnapshot().load.status).toBe('ready');
  });

  it('W3: content the SDK cannot repair is a failed load, not a broken editor', async () => {
    const { workspace } = await openWorkspace(setupWorkspace({ content: { type: 'doc', content: 'oops' } }));
    expect(workspace.getSnapshot().load.status).toBe('failed');
  });

  it('W5: a stored draft that differs comes back as the editor’s content, with the notice', async () => {
    const draft = planContent();
    const renamed = renameSection(draft, IDS.market, 'Market (offline edit)');
    if (!renamed.ok) throw new Error('setup');
    const storage = memoryStorage({
      'planwright:draft:document:doc-1': JSON.stringify({
        v: 1,
        content: renamed.doc,
        baseRevision: 4,
        savedAt: Date.UTC(2026, 0, 15, 8, 30),
      }),
    });
    const { workspace } = await openWorkspace(setupWorkspace(), storage);
    expect(workspace.getSnapshot().initialContent).toEqual(renamed.doc);
    expect(workspace.controller.getSnapshot().restoredDraft).toEqual({
      savedAt: Date.UTC(2026, 0, 15, 8, 30),
    });
    expect(workspace.controller.getSnapshot().dirty).toBe(true);
    expect(outlineOf(workspace.getSnapshot().initialContent).sections[0]?.title).toBe(
      'Market (offline edit)',
    );
    workspace.dismissRestoredDraft();
    expect(workspace.controller.getSnapshot().restoredDraft).toBeNull();
  });

  it.each([
    ['not JSON', '{'],
    ['a wrong shape', JSON.stringify({ v: 1, content: 'x', baseRevision: 'a', savedAt: 1 })],
    [
      'content that is no document',
      JSON.stringify({ v: 1, content: { type: 'nope' }, baseRevision: 4, savedAt: 1 }),
    ],
  ])('W4/W5: a stored draft that is %s is ignored', async (_name, raw) => {
    const storage = memoryStorage({ 'planwright:draft:document:doc-1': raw });
    const { workspace } = await openWorkspace(setupWorkspace(), storage);
    expect(workspace.getSnapshot().initialContent).toEqual(planContent());
    expect(workspace.controller.getSnapshot().restoredDraft).toBeNull();
  });

  it('W4: draft content is parsed with the SDK’s rules: hostile text stays text, unknown nodes go', () => {
    for (const text of hostileStrings().slice(0, 200)) {
      const parsed = parseDocumentContent({
        type: 'doc',
        content: [{ type: 'script', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] }],
      });
      expect(parsed?.type).toBe('doc');
      expect(JSON.stringify(parsed)).not.toContain('"script"');
    }
    expect(parseDocumentContent('<doc/>')).toBeNull();
  });
});

describe('skip to editor (SPEC.md W39)', () => {
  it('W39: focusEditor hands the focus to the editor once there is one', async () => {
    const { workspace } = await openWorkspace();
    expect(workspace.focusEditor()).toBe(false);
    const editor = fakeEditor(workspace);
    expect(workspace.focusEditor()).toBe(true);
    expect(editor.bridge.focus).toHaveBeenCalledTimes(1);
    workspace.detachEditor(editor.bridge);
    expect(workspace.focusEditor()).toBe(false);
  });
});

describe('autosave (SPEC.md W4)', () => {
  it('W4: an edit saves the editor’s content 1000 ms later with If-Match, and confirms the new revision', async () => {
    const { workspace, clock, server, document } = await openWorkspace();
    const editor = fakeEditor(workspace);
    editor.type('Markets');
    clock.advance(999);
    expect(calls(server, 'PATCH')).toEqual([]);
    clock.advance(1);
    await vi.waitFor(() => expect(workspace.controller.getSnapshot().status).toBe('saved'));
    const [patch] = server.calls('/api/v1/documents/doc-1/', 'PATCH');
    expect(patch?.headers.get('if-match')).toBe('"4"');
    expect(patch?.body).toEqual({ content: editor.content() });
    expect(workspace.controller.getSnapshot().revision).toBe(5);
    expect(document().revision).toBe(5);
  });
});

describe('structure calls (SPEC.md W19–W23)', () => {
  it('W19/W20: read-only first, unsaved edits flushed, then the create with If-Match; the answer is loaded', async () => {
    const { workspace, server, document } = await openWorkspace();
    const editor = fakeEditor(workspace);
    editor.type('Markets');
    const outcome = await workspace.structure.createSection(IDS.market);
    expect(outcome.ok).toBe(true);
    const requests = server.requests.filter((request) => request.method !== 'GET');
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'PATCH /api/v1/documents/doc-1/',
      'POST /api/v1/documents/doc-1/sections/',
    ]);
    expect(requests[1]?.body).toEqual({ title: 'New Section', after: IDS.market });
    expect(requests[1]?.headers.get('if-match')).toBe('"5"');
    expect(editor.readOnly).toEqual([true, false]);
    // The create answered the whole document: loaded as it is, no second read.
    expect(server.calls('/api/v1/documents/doc-1/', 'GET')).toHaveLength(1);
    expect(editor.content()).toEqual(document().content);
    const created = outcome.ok ? outcome.value : '';
    expect(storedOrder(document())).toEqual([IDS.market, created, IDS.product, IDS.finance]);
    expect(workspace.outline.getSnapshot().outline.sections[1]?.title).toBe('New Section');
    expect(workspace.controller.getSnapshot()).toMatchObject({ revision: 6, dirty: false });
    expect(outlineOf(editor.content()).sections[0]?.title).toBe('Markets');
  });

  it('W19: a flush that fails aborts with the error shown and makes no call', async () => {
    const setup = setupWorkspace();
    setup.server.on('PATCH /api/v1/documents/:uuid/', json({ detail: 'Too large.' }, 413));
    const { workspace, server } = await openWorkspace(setup);
    const editor = fakeEditor(workspace);
    editor.type('Markets');
    const outcome = await workspace.structure.createSection(null);
    expect(outcome).toEqual({ ok: false, message: 'Failed to save changes' });
    expect(server.calls('/api/v1/documents/doc-1/sections/')).toEqual([]);
    expect(workspace.structure.getSnapshot()).toMatchObject({ busy: false, alert: 'Failed to save changes' });
    expect(editor.readOnly).toEqual([true, false]);
  });

  it('W19: one call at a time; a second action meanwhile is ignored', async () => {
    const setup = setupWorkspace();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    setup.server.on('POST /api/v1/documents/:uuid/sections/', async () => {
      await gate;
      return json({ detail: 'nope' }, 400);
    });
    const { workspace, server } = await openWorkspace(setup);
    fakeEditor(workspace);
    const first = workspace.structure.createSection(null);
    await vi.waitFor(() => expect(server.calls('/api/v1/documents/doc-1/sections/')).toHaveLength(1));
    expect(workspace.structure.getSnapshot().busy).toBe(true);
    expect(await workspace.structure.moveSection(IDS.product, 'up')).toEqual({ ok: false, message: '' });
    release();
    await first;
    expect(server.requests.filter((request) => request.method === 'PATCH')).toEqual([]);
  });

  it('W20: a subsection goes after the current one (order), or first', async () => {
    const { workspace, server, document } = await openWorkspace();
    fakeEditor(workspace);
    const after = await workspace.structure.createSubsection(IDS.market, IDS.size);
    const first = await workspace.structure.createSubsection(IDS.product, null);
    const posts = server.requests.filter((request) => request.method === 'POST');
    expect(posts.map((request) => [request.path, request.body])).toEqual([
      [`/api/v1/documents/doc-1/sections/${IDS.market}/subsections/`, { title: 'New Subsection', order: 2 }],
      [`/api/v1/documents/doc-1/sections/${IDS.product}/subsections/`, { title: 'New Subsection', order: 1 }],
    ]);
    expect(storedOrder(document(), IDS.market)).toEqual([IDS.size, after.ok ? after.value : '', IDS.rivals]);
    expect(storedOrder(document(), IDS.product)).toEqual([first.ok ? first.value : '']);
  });

  it('W21: moves send the new 1-based order and read the document again', async () => {
    const { workspace, server, document } = await openWorkspace();
    const editor = fakeEditor(workspace);
    await workspace.structure.moveSection(IDS.product, 'up');
    await workspace.structure.moveSection(IDS.product, 'down');
    await workspace.structure.moveSubsection(IDS.market, IDS.size, 'down');
    const patches = server.requests.filter((request) => request.method === 'PATCH');
    expect(patches.map((request) => request.body)).toEqual([{ order: 1 }, { order: 2 }, { order: 2 }]);
    expect(patches.map((request) => request.headers.get('if-match'))).toEqual(['"4"', '"5"', '"6"']);
    expect(storedOrder(document(), IDS.market)).toEqual([IDS.rivals, IDS.size]);
    // Updates answer the item only: the document is read again and loaded.
    expect(server.calls('/api/v1/documents/doc-1/', 'GET')).toHaveLength(4);
    expect(editor.content()).toEqual(document().content);
  });

  it('W21: moves at the edges make no call', async () => {
    const { workspace, server } = await openWorkspace();
    fakeEditor(workspace);
    expect(await workspace.structure.moveSection(IDS.market, 'up')).toEqual({ ok: false, message: '' });
    expect(await workspace.structure.moveSection(IDS.finance, 'down')).toEqual({ ok: false, message: '' });
    expect(await workspace.structure.moveSubsection(IDS.market, IDS.size, 'up')).toEqual({
      ok: false,
      message: '',
    });
    expect(await workspace.structure.moveSubsection(IDS.market, IDS.rivals, 'down')).toEqual({
      ok: false,
      message: '',
    });
    expect(await workspace.structure.moveSectionTo(IDS.product, 1)).toEqual({ ok: false, message: '' });
    expect(server.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('W18: a drop sends the target place', async () => {
    const { workspace, document } = await openWorkspace();
    fakeEditor(workspace);
    await workspace.structure.moveSectionTo(IDS.market, 2);
    expect(storedOrder(document())).toEqual([IDS.product, IDS.finance, IDS.market]);
  });

  it('W22: the only section is not deleted, and no call is made', async () => {
    const single = planContent();
    const { workspace, server } = await openWorkspace(
      setupWorkspace({ content: { ...single, content: single.content.slice(0, 1) } }),
    );
    fakeEditor(workspace);
    const outcome = await workspace.structure.deleteSection(IDS.market);
    expect(outcome).toEqual({ ok: false, message: 'A document keeps at least one section.' });
    expect(workspace.structure.getSnapshot().alert).toBe('A document keeps at least one section.');
    expect(server.requests.filter((request) => request.method === 'DELETE')).toEqual([]);
  });

  it('W22: a delete hides the item while the call runs; a failure brings it back with an alert', async () => {
    const setup = setupWorkspace();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    setup.server.on('DELETE /api/v1/documents/:uuid/sections/:sid/', async () => {
      await gate;
      return json({ detail: 'Server error' }, 500);
    });
    const { workspace } = await openWorkspace(setup);
    fakeEditor(workspace);
    const deleting = workspace.structure.deleteSection(IDS.product);
    await vi.waitFor(() =>
      expect(workspace.structure.getSnapshot().pending).toEqual([{ kind: 'hide', uuid: IDS.product }]),
    );
    release();
    expect(await deleting).toEqual({
      ok: false,
      message: 'The item could not be deleted, so it is back in the list.',
    });
    expect(workspace.structure.getSnapshot()).toMatchObject({
      pending: [],
      alert: 'The item could not be deleted, so it is back in the list.',
    });
  });

  it('W22: a delete that goes through reads the document again', async () => {
    const { workspace, document } = await openWorkspace();
    const editor = fakeEditor(workspace);
    expect((await workspace.structure.deleteSubsection(IDS.market, IDS.rivals)).ok).toBe(true);
    expect(storedOrder(document(), IDS.market)).toEqual([IDS.size]);
    expect(outlineOf(editor.content()).sections[0]?.subsections).toHaveLength(1);
    expect(workspace.controller.getSnapshot().revision).toBe(5);
  });

  it('W23: a 412 reads the document again, loads it and says so', async () => {
    const setup = setupWorkspace();
    const { workspace, document } = await openWorkspace(setup);
    const editor = fakeEditor(workspace);
    // Someone else renames a section meanwhile.
    const theirs = renameSection(document().content as DocumentJson, IDS.finance, 'Money');
    if (!theirs.ok) throw new Error('setup');
    Object.assign(document(), { content: theirs.doc, revision: 9 });
    const outcome = await workspace.structure.moveSection(IDS.product, 'up');
    expect(outcome.ok).toBe(false);
    expect(workspace.structure.getSnapshot().notice).toBe(
      'This document was changed elsewhere since you loaded it. The latest version is now shown; please try again.',
    );
    expect(outlineOf(editor.content()).sections[2]?.title).toBe('Money');
    expect(workspace.controller.getSnapshot().revision).toBe(9);
  });

  it('W23: a failed reorder reads the document again and shows why', async () => {
    const setup = setupWorkspace();
    setup.server.on('PATCH /api/v1/documents/:uuid/sections/:sid/', json({ detail: 'Boom' }, 500));
    const { workspace, server } = await openWorkspace(setup);
    fakeEditor(workspace);
    await workspace.structure.moveSection(IDS.product, 'up');
    expect(workspace.structure.getSnapshot().alert).toBe(
      'The new order could not be saved; the document was read again.',
    );
    expect(server.calls('/api/v1/documents/doc-1/', 'GET')).toHaveLength(2);
  });

  it('W23: a refusal the server explains is shown in its words', async () => {
    const setup = setupWorkspace();
    setup.server.on(
      'POST /api/v1/documents/:uuid/sections/',
      json({ detail: 'An after that names no section.', errors: [{ param: 'after' }] }, 400),
    );
    const { workspace } = await openWorkspace(setup);
    fakeEditor(workspace);
    await workspace.structure.createSection(IDS.market);
    expect(workspace.structure.getSnapshot().alert).toBe('An after that names no section.');
  });

  it('W17: renames send the title and return a failure for the dialog instead of an alert', async () => {
    const setup = setupWorkspace();
    const { workspace, server, document } = await openWorkspace(setup);
    fakeEditor(workspace);
    expect((await workspace.structure.renameSection(IDS.product, 'Offer')).ok).toBe(true);
    expect((await workspace.structure.renameSubsection(IDS.market, IDS.rivals, 'Rivals')).ok).toBe(true);
    expect(outlineOf(document().content).sections[0]?.subsections[1]?.title).toBe('Rivals');
    expect(outlineOf(document().content).sections[1]?.title).toBe('Offer');
    setup.server.on('PATCH /api/v1/documents/:uuid/sections/:sid/', json({ detail: 'Nope.' }, 400));
    expect(await workspace.structure.renameSection(IDS.product, 'Again')).toEqual({
      ok: false,
      message: 'Nope.',
    });
    expect(workspace.structure.getSnapshot().alert).toBeNull();
    expect(server.requests.at(-1)?.body).toEqual({ title: 'Again' });
  });
});

describe('title (SPEC.md W12)', () => {
  it('W12: flush, then PATCH {title} with If-Match; the next autosave uses the revision it answered', async () => {
    const { workspace, server, clock } = await openWorkspace();
    const editor = fakeEditor(workspace);
    editor.type('Markets');
    expect((await workspace.structure.saveTitle('Acme 2027')).ok).toBe(true);
    const patches = server.calls('/api/v1/documents/doc-1/', 'PATCH');
    expect(patches.map((request) => request.body)).toEqual([
      { content: editor.content() },
      { title: 'Acme 2027' },
    ]);
    expect(patches[1]?.headers.get('if-match')).toBe('"5"');
    expect(workspace.getSnapshot().title).toBe('Acme 2027');
    expect(workspace.controller.getSnapshot()).toMatchObject({ revision: 6, dirty: false });
    editor.type('Markets again');
    clock.advance(1000);
    await vi.waitFor(() => expect(workspace.controller.getSnapshot().status).toBe('saved'));
    expect(server.calls('/api/v1/documents/doc-1/', 'PATCH')[2]?.headers.get('if-match')).toBe('"6"');
  });

  it('W11/W12: a failure comes back in words a person can read', async () => {
    const setup = setupWorkspace();
    setup.server.on('PATCH /api/v1/documents/:uuid/', () => Promise.reject(new TypeError('fetch failed')));
    const { workspace } = await openWorkspace(setup);
    fakeEditor(workspace);
    expect(await workspace.structure.saveTitle('New')).toEqual({
      ok: false,
      message: 'Failed to save title',
    });
    setup.server.on('PATCH /api/v1/documents/:uuid/', json({ detail: 'Title is taken.' }, 400));
    expect(await workspace.structure.saveTitle('New')).toEqual({ ok: false, message: 'Title is taken.' });
  });
});

describe('finalize (SPEC.md W24)', () => {
  it('W24: an edit saved at once; the progress follows without waiting for the throttle', async () => {
    const { workspace, server, document } = await openWorkspace();
    fakeEditor(workspace);
    const saved = workspace.setFinalized(IDS.size, true);
    expect(workspace.outline.getSnapshot().progress).toEqual({ finalized: 2, total: 3, percent: 67 });
    expect(await saved).toBe(true);
    expect(server.calls('/api/v1/documents/doc-1/', 'PATCH')).toHaveLength(1);
    expect(outlineOf(document().content).sections[0]?.subsections[0]?.finalized).toBe(true);
  });
});

describe('conflict (SPEC.md W9)', () => {
  async function conflicted() {
    const setup = setupWorkspace();
    const opened = await openWorkspace(setup);
    const editor = fakeEditor(opened.workspace);
    const theirs = renameSection(setup.document().content as DocumentJson, IDS.product, 'Theirs');
    if (!theirs.ok) throw new Error('setup');
    Object.assign(setup.document(), { content: theirs.doc, revision: 7 });
    editor.type('Mine');
    opened.clock.advance(1000);
    await vi.waitFor(() => expect(opened.workspace.controller.getSnapshot().conflict?.theirs).toBeTruthy());
    return { ...opened, editor };
  }

  it('W9: Reload theirs puts their version in the editor and confirms it', async () => {
    const { workspace, editor } = await conflicted();
    await workspace.reloadTheirs();
    expect(outlineOf(editor.content()).sections.map((section) => section.title)).toEqual([
      'Market',
      'Theirs',
      'Finance',
    ]);
    expect(workspace.controller.getSnapshot()).toMatchObject({ conflict: null, dirty: false, revision: 7 });
  });

  it('W9: Keep mine overwrites with If-Match of their revision', async () => {
    const { workspace, server, document } = await conflicted();
    const kept = await workspace.keepMine();
    expect(kept).toBe(true);
    const last = server.calls('/api/v1/documents/doc-1/', 'PATCH').at(-1);
    expect(last?.headers.get('if-match')).toBe('"7"');
    expect(outlineOf(document().content).sections.map((section) => section.title)).toEqual([
      'Mine',
      'Product',
      'Finance',
    ]);
  });
});

describe('live outline (SPEC.md W27)', () => {
  it('W27: edits recompute at most every 250 ms; a refresh is immediate; an unchanged outline keeps its identity', () => {
    const clock = new ManualClock();
    const outline = new LiveOutline(clock);
    let content: DocumentJson = planContent();
    const read = vi.fn(() => content);
    outline.setSource(read);
    const first = outline.getSnapshot();
    expect(read).toHaveBeenCalledTimes(1);
    const renamed = renameSection(content, IDS.market, 'Markets');
    if (!renamed.ok) throw new Error('setup');
    content = renamed.doc;
    for (let index = 0; index < 20; index += 1) {
      outline.invalidate();
      clock.advance(10);
    }
    expect(read).toHaveBeenCalledTimes(1);
    clock.advance(50);
    expect(read).toHaveBeenCalledTimes(2);
    expect(outline.getSnapshot().outline.sections[0]?.title).toBe('Markets');
    const second = outline.getSnapshot();
    outline.refreshNow();
    expect(read).toHaveBeenCalledTimes(3);
    expect(outline.getSnapshot()).toBe(second);
    expect(second).not.toBe(first);
    outline.invalidate();
    outline.dispose();
    expect(clock.pending).toBe(0);
  });
});
