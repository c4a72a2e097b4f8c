import { outlineOf } from '@planwright/sdk';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { ALLAUTH_PROTOCOL_ANSWERS, recordPageProblems, useBrowserHarness } from '../support/browser.js';
import { chatPanel, sendChatMessage, suggestedInsertions, suggestionBar } from '../support/chat-page.js';
import { corpusPath } from '../support/corpus.js';
import {
  badgeSaved,
  badgeText,
  CHAT_SOCKET_DOWN,
  clickIntoSubsection,
  type EditorUser,
  editorParts,
  LIVE_SOCKET_DOWN,
  nodeByUuid,
  openEditor,
  openInBoth,
  SERVER_DOWN,
  sameUserElsewhere,
  serverSubsectionText,
  signedInEditorUser,
  subsectionBody,
  textOf,
  typeInSubsection,
} from '../support/editor-page.js';
import { type OpenAiStreamServer, startOpenAiStreamServer } from '../support/openai-stream-server.js';

/**
 * Live plans in Chromium (workspace SPEC.md W40, docs/editor.md "Live plans"): two browser profiles with one
 * plan open on a server that co-edits, typing at once; nothing typed is lost, nothing asks to choose.
 */
let model: OpenAiStreamServer | undefined;
const harness = useBrowserHarness(async () => {
  // A local model speaking OpenAI's wire format, for AI suggestions on a live plan (W50).
  model = await startOpenAiStreamServer();
  return { env: { LIVE_DOCUMENTS: 'on', LIVE_DERIVE_DEBOUNCE_MS: '200', ...model.providerEnv() } };
});
afterAll(async () => {
  await model?.close();
});

/** The first paragraph's text in a subsection, without the others' caret labels drawn inside it. */
async function paragraphText(user: EditorUser, subsection: string): Promise<string> {
  return subsectionBody(user.page, subsection)
    .locator('p')
    .first()
    .evaluate((paragraph) => {
      const copy = paragraph.cloneNode(true) as HTMLElement;
      for (const caret of copy.querySelectorAll('.pw-live-caret')) caret.remove();
      return copy.textContent ?? '';
    });
}

/** The badge of a live plan whose socket is down (W40): nothing is retried, the tab keeps every change. */
const LIVE_OFFLINE_BADGE = 'Error saving | Offline — your changes are kept on this device';

/** The live copies (y-indexeddb stores) this browser profile keeps, and how many changes each holds. */
function browserCopies(page: Page): Promise<Record<string, number>> {
  return page.evaluate(async () => {
    const counts: Record<string, number> = {};
    for (const { name } of await indexedDB.databases()) {
      if (!name?.startsWith('planwright-plan-')) continue;
      counts[name] = await new Promise<number>((resolve, reject) => {
        const opening = indexedDB.open(name);
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const store = opening.result;
          const counting = store.transaction('updates').objectStore('updates').count();
          counting.onsuccess = () => {
            store.close();
            resolve(counting.result);
          };
          counting.onerror = () => reject(counting.error);
        };
      });
    }
    return counts;
  });
}

async function twoPeople(email: string) {
  const here = await signedInEditorUser(harness, email);
  const elsewhere = await sameUserElsewhere(harness, here);
  return { here, elsewhere, ...(await openInBoth(harness, here, elsewhere)) };
}

describe('live plans in Chromium against the real server', () => {
  it('W40 two people typing in different subsections and in one paragraph converge with every character kept', async () => {
    const { here, elsewhere, uuid, first, second } = await twoPeople('live-two@example.com');
    // Carets first, then both type at once. (A click while the other types can lose its caret to the
    // remote update's selection restore: y-prosemirror issue #146, docs/editor.md "Live plans".)
    await clickIntoSubsection(here.page, first);
    await clickIntoSubsection(elsewhere.page, second);
    await Promise.all([here.page.keyboard.type('Ours here.'), elsewhere.page.keyboard.type('Theirs there.')]);
    for (const user of [here, elsewhere]) {
      await expect.poll(() => paragraphText(user, first)).toBe('Ours here.');
      await expect.poll(() => paragraphText(user, second)).toBe('Theirs there.');
    }
    // Both at the end of one paragraph at once: their keystrokes may interleave (each caret stays where
    // its owner types), but both editors show the same text and every character typed is in it.
    await clickIntoSubsection(here.page, first);
    await clickIntoSubsection(elsewhere.page, first);
    await Promise.all([here.page.keyboard.type(' Alpha'), elsewhere.page.keyboard.type(' Beta')]);
    const sorted = (text: string) => [...text].sort().join('');
    for (const user of [here, elsewhere]) {
      await expect
        .poll(async () => sorted(await paragraphText(user, first)))
        .toBe(sorted('Ours here. Alpha Beta'));
    }
    expect(await paragraphText(here, first)).toBe(await paragraphText(elsewhere, first));
    await badgeSaved(here.page);
    await badgeSaved(elsewhere.page);
    // Stored: the server's content has all of it, and no conflict dialog ever showed.
    await expect.poll(() => serverSubsectionText(here, uuid, second)).toBe('Theirs there.');
    await expect
      .poll(async () => sorted((await serverSubsectionText(here, uuid, first)) ?? ''))
      .toBe(sorted('Ours here. Alpha Beta'));
    expect(await here.page.getByRole('dialog').count()).toBe(0);
  });

  it("W40 a script's REST PATCH appears in both open editors without a reload, and what they typed stays", async () => {
    const { here, elsewhere, uuid, first, second } = await twoPeople('live-rest@example.com');
    await typeInSubsection(here.page, first, 'Typed in the browser.');
    await badgeSaved(here.page);
    const read = await here.client.documents.get(uuid);
    const content = structuredClone(read.content);
    if (!content) throw new Error('no content');
    const target = nodeByUuid(content, second) as { content: Array<{ type: string; content?: unknown[] }> };
    const paragraph = target.content.find((node) => node.type === 'paragraph');
    if (!paragraph) throw new Error('no paragraph in the second subsection');
    paragraph.content = [{ type: 'text', text: 'Written by a script.' }];
    await here.client.documents.update(uuid, { content }, { ifMatch: read.revision ?? undefined });
    for (const user of [here, elsewhere]) {
      await expect.poll(() => paragraphText(user, second)).toBe('Written by a script.');
      await expect.poll(() => paragraphText(user, first)).toBe('Typed in the browser.');
    }
    expect(textOf(nodeByUuid((await here.client.documents.get(uuid)).content, first))).toContain(
      'Typed in the browser.',
    );
  });

  it("W40 the other person's caret shows their name; undo takes back only one's own typing", async () => {
    const { here, elsewhere, first, second } = await twoPeople('live-caret@example.com');
    await typeInSubsection(elsewhere.page, second, 'Kept.');
    await expect.poll(() => paragraphText(here, second)).toBe('Kept.');
    await here.page.locator('.pw-live-caret-label').first().waitFor();
    // No display name: the address's local part, as the server names accounts; never the whole address.
    expect(await here.page.locator('.pw-live-caret-label').first().textContent()).toBe('live-caret');
    await typeInSubsection(here.page, first, 'Undone.');
    await expect.poll(() => paragraphText(elsewhere, first)).toBe('Undone.');
    await here.page.keyboard.press('Control+z');
    for (const user of [here, elsewhere]) {
      await expect.poll(() => paragraphText(user, first)).toBe('');
      await expect.poll(() => paragraphText(user, second)).toBe('Kept.');
    }
  });

  it('W40 three people typing at once in three subsections and one paragraph all converge, every character kept', async () => {
    const { here, elsewhere, uuid, first, second } = await twoPeople('live-three@example.com');
    const third = await sameUserElsewhere(harness, here);
    await openEditor(harness, third.page, uuid);
    const outline = outlineOf((await here.client.documents.get(uuid)).content);
    const last = outline.sections[0]?.subsections[2]?.uuid;
    if (!last) throw new Error('the default plan has fewer than three subsections in its first section');
    const people = [here, elsewhere, third];
    const places = [first, second, last];
    const words = ['One.', 'Two.', 'Three.'];
    for (const [index, person] of people.entries())
      await clickIntoSubsection(person.page, places[index] ?? first);
    await Promise.all(people.map((person, index) => person.page.keyboard.type(words[index] ?? '')));
    for (const person of people) {
      for (const [index, place] of places.entries()) {
        await expect.poll(() => paragraphText(person, place)).toBe(words[index]);
      }
    }
    // All three at the end of one paragraph at once.
    for (const person of people) await clickIntoSubsection(person.page, first);
    const more = [' Red', ' Green', ' Blue'];
    await Promise.all(people.map((person, index) => person.page.keyboard.type(more[index] ?? '')));
    const sorted = (text: string) => [...text].sort().join('');
    const expected = sorted(`One.${more.join('')}`);
    for (const person of people) {
      await expect.poll(async () => sorted(await paragraphText(person, first))).toBe(expected);
    }
    const shown = await Promise.all(people.map((person) => paragraphText(person, first)));
    expect(new Set(shown).size).toBe(1);
    await expect
      .poll(async () => sorted((await serverSubsectionText(here, uuid, first)) ?? ''))
      .toBe(expected);
    expect(await serverSubsectionText(here, uuid, last)).toBe('Three.');
  });

  it('W40 E8 two people splitting one paragraph at the same place at once: every block keeps a node id of its own, in both editors and on the server', async () => {
    const { here, elsewhere, uuid, first } = await twoPeople('live-split@example.com');
    await typeInSubsection(here.page, first, 'Alpha beta gamma delta.');
    await expect.poll(() => paragraphText(elsewhere, first)).toBe('Alpha beta gamma delta.');
    // Both carets after "beta", then Enter and a word at once.
    for (const user of [here, elsewhere]) {
      await clickIntoSubsection(user.page, first);
      for (let step = 0; step < ' gamma delta.'.length; step++) await user.page.keyboard.press('ArrowLeft');
    }
    await Promise.all([
      here.page.keyboard.press('Enter').then(() => here.page.keyboard.type('One')),
      elsewhere.page.keyboard.press('Enter').then(() => elsewhere.page.keyboard.type('Two')),
    ]);
    const blocks = (user: EditorUser) =>
      subsectionBody(user.page, first)
        .locator('[data-node-id]')
        .evaluateAll((nodes) =>
          nodes.map((node) => {
            const copy = node.cloneNode(true) as HTMLElement;
            for (const caret of copy.querySelectorAll('.pw-live-caret')) caret.remove();
            return `${node.getAttribute('data-node-id')}:${copy.textContent}`;
          }),
        );
    await expect
      .poll(async () => JSON.stringify(await blocks(here)))
      .toBe(JSON.stringify(await blocks(elsewhere)));
    const shown = await blocks(here);
    const ids = shown.map((block) => block.split(':')[0]);
    // Every character kept. (Not their order: a remote change landing between two keys can put the caret
    // back before the letter just typed, y-prosemirror issue 146, docs/editor.md "Live plans".)
    const typed = 'Alpha beta gamma delta.OneTwo';
    const joined = shown.map((block) => block.slice(block.indexOf(':') + 1)).join('');
    const count = (text: string, character: string) => [...text].filter((each) => each === character).length;
    for (const character of new Set(typed)) {
      expect(count(joined, character), character).toBeGreaterThanOrEqual(count(typed, character));
    }
    expect(new Set(ids).size).toBe(ids.length);
    // Stored: the whole plan's node ids are unique too.
    await badgeSaved(here.page);
    await badgeSaved(elsewhere.page);
    const stored: string[] = [];
    const walk = (node: unknown) => {
      if (typeof node !== 'object' || node === null) return;
      const { attrs, content } = node as { attrs?: { nodeId?: unknown }; content?: unknown };
      if (typeof attrs?.nodeId === 'string') stored.push(attrs.nodeId);
      if (Array.isArray(content)) for (const child of content) walk(child);
    };
    await expect
      .poll(async () => {
        stored.length = 0;
        walk((await here.client.documents.get(uuid)).content);
        return ids.every((id) => stored.includes(id ?? ''));
      })
      .toBe(true);
    expect(new Set(stored).size).toBe(stored.length);
  });

  it('W40 an import in one editor appears in the other without a reload, and what the other typed meanwhile stays', async () => {
    const { here, elsewhere, uuid, second } = await twoPeople('live-import@example.com');
    await typeInSubsection(elsewhere.page, second, 'Typed while they import.');
    const chooser = here.page.waitForEvent('filechooser');
    await here.page.getByRole('button', { name: 'File', exact: true }).click();
    await here.page.getByRole('menuitem', { name: 'Import…' }).click();
    await (await chooser).setFiles(corpusPath('docx/pandoc-headers.docx'));
    const dialog = here.page.getByRole('dialog', { name: 'Import document' });
    await expect.poll(() => dialog.getByTestId('import-file-name').textContent()).toBe('pandoc-headers.docx');
    // The other keeps typing while the import runs on the server.
    await Promise.all([
      dialog.getByRole('button', { name: 'Import' }).click(),
      elsewhere.page.keyboard.type(' And more.'),
    ]);
    for (const user of [here, elsewhere]) {
      await editorParts(user.page)
        .sidebar.getByRole('button', { name: '(Imported) A Test of Headers', exact: true })
        .waitFor();
      await expect.poll(() => editorParts(user.page).editor.textContent()).toContain('Some more plain text.');
      await expect.poll(() => paragraphText(user, second)).toBe('Typed while they import. And more.');
    }
    await badgeSaved(elsewhere.page);
    await expect
      .poll(() => serverSubsectionText(here, uuid, second))
      .toBe('Typed while they import. And more.');
    const titles = outlineOf((await here.client.documents.get(uuid)).content).sections.map((s) => s.title);
    expect(titles).toContain('(Imported) A Test of Headers');
    expect(await elsewhere.page.getByRole('dialog').count()).toBe(0);
  });

  it('W40 with the server down the badge says the changes are kept; a tab closed offline hands them over on the next visit; sign-out forgets the copies', async () => {
    const user = await signedInEditorUser(harness, 'live-offline@example.com', {
      expected: [LIVE_SOCKET_DOWN, SERVER_DOWN, CHAT_SOCKET_DOWN],
    });
    const document = await user.client.documents.create({});
    const uuid = document.uuid;
    const first = document.sections[0]?.subsections[0]?.uuid;
    if (!first) throw new Error('the default plan has no subsection');
    await openEditor(harness, user.page, uuid);
    await typeInSubsection(user.page, first, 'Before.');
    await badgeSaved(user.page);
    // The same profile's next tab, opened once the server is back.
    const reopened = await user.page.context().newPage();
    const problems = recordPageProblems(reopened, [ALLAUTH_PROTOCOL_ANSWERS, LIVE_SOCKET_DOWN, SERVER_DOWN]);

    await harness.server.stop();
    try {
      await badgeSaved(user.page);
      const store = `planwright-plan-${uuid}`;
      const kept = (await browserCopies(user.page))[store] ?? 0;
      await user.page.keyboard.type(' While down.');
      await expect.poll(() => badgeText(user.page), { timeout: 15_000 }).toBe(LIVE_OFFLINE_BADGE);
      // Kept in this browser before the tab goes: the closed tab's changes are all the server will get.
      await expect.poll(async () => (await browserCopies(user.page))[store] ?? 0).toBeGreaterThan(kept);
      await user.page.close();
    } finally {
      await harness.server.restart();
    }
    await openEditor(harness, reopened, uuid);
    await expect.poll(() => paragraphText({ ...user, page: reopened }, first)).toBe('Before. While down.');
    await badgeSaved(reopened);
    await expect.poll(() => serverSubsectionText(user, uuid, first)).toBe('Before. While down.');

    // Sign-out leaves no plan in this browser (a shared computer).
    expect(Object.keys(await browserCopies(reopened))).toContain(`planwright-plan-${uuid}`);
    await reopened.goto(`${harness.server.url}/account/signout`);
    await reopened.waitForURL(`${harness.server.url}/`);
    await expect.poll(() => browserCopies(reopened)).toEqual({});
    expect(problems.list).toEqual([]);
  });

  it('W40 LB1 LB2 a blueprint co-edited by its owner in two profiles; a reader of the published blueprint follows it live, read-only', async () => {
    const here = await signedInEditorUser(harness, 'live-blueprint@example.com');
    const elsewhere = await sameUserElsewhere(harness, here);
    const blueprint = await here.client.blueprints.create({ title: 'Studio template' });
    const subsection = blueprint.sections[0]?.subsections[0]?.uuid;
    if (!subsection) throw new Error('a new blueprint has one subsection');
    const openBlueprint = async (user: EditorUser) => {
      await user.page.goto(`${harness.server.url}/dashboard/blueprints/${blueprint.uuid}/edit`);
      await editorParts(user.page).editor.waitFor();
    };
    await openBlueprint(here);
    await openBlueprint(elsewhere);
    await typeInSubsection(here.page, subsection, 'Ask for the market size.');
    await expect.poll(() => paragraphText(elsewhere, subsection)).toBe('Ask for the market size.');
    await typeInSubsection(elsewhere.page, subsection, ' Then the sources.');
    await expect
      .poll(() => paragraphText(here, subsection))
      .toBe('Ask for the market size. Then the sources.');
    // The content's badge (the settings panel has its own).
    const contentBadge = (user: EditorUser) => editorParts(user.page).status.first().innerText();
    await badgeSaved(here.page, () => contentBadge(here));
    await badgeSaved(elsewhere.page, () => contentBadge(elsewhere));
    const stored = async () => {
      const read = await here.client.blueprints.get(blueprint.uuid);
      return JSON.stringify(read.content);
    };
    await expect.poll(stored).toContain('Ask for the market size. Then the sources.');

    // Published to everyone: another user opens it and follows the owner's typing without a reload,
    // in an editor they cannot type in (the server would refuse their changes anyway).
    await here.client.blueprints.publish(blueprint.uuid, { visibility: 'public' });
    const reader = await signedInEditorUser(harness, 'live-blueprint-reader@example.com');
    await openBlueprint(reader);
    await expect
      .poll(() => paragraphText(reader, subsection))
      .toBe('Ask for the market size. Then the sources.');
    expect(await editorParts(reader.page).editor.getAttribute('contenteditable')).toBe('false');
    await typeInSubsection(here.page, subsection, ' Cite each one.');
    await expect
      .poll(() => paragraphText(reader, subsection))
      .toBe('Ask for the market size. Then the sources. Cite each one.');
    await reader.page.keyboard.type('Reader was here.');
    await expect.poll(stored).toContain('Cite each one.');
    expect(await stored()).not.toContain('Reader was here.');
    expect(await paragraphText(here, subsection)).not.toContain('Reader was here.');
    // Following changes nothing of the reader's: nothing waits to be saved.
    await badgeSaved(reader.page, () => contentBadge(reader));
  });

  it('W41 a tab hidden for five minutes lets go of its plan once everything is stored, and syncs again when shown', async () => {
    const user = await signedInEditorUser(harness, 'live-hidden@example.com', { installClock: true });
    const document = await user.client.documents.create({});
    const subsection = document.sections[0]?.subsections[0]?.uuid;
    if (!subsection) throw new Error('the default plan has a subsection');
    const sockets: Array<{ closed: boolean }> = [];
    user.page.on('websocket', (socket) => {
      if (new URL(socket.url()).pathname.replace(/\/$/, '') !== '/ws/collab') return;
      const seen = { closed: false };
      sockets.push(seen);
      socket.on('close', () => {
        seen.closed = true;
      });
    });
    await openEditor(harness, user.page, document.uuid);
    await typeInSubsection(user.page, subsection, 'Typed before the tab was hidden.');
    await expect
      .poll(() => serverSubsectionText(user, document.uuid, subsection))
      .toBe('Typed before the tab was hidden.');
    const setHidden = (hidden: boolean) =>
      user.page.evaluate((value) => {
        Object.defineProperty(window.document, 'visibilityState', {
          configurable: true,
          get: () => (value ? 'hidden' : 'visible'),
        });
        window.document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    const open = () => sockets.filter((socket) => !socket.closed).length;
    expect(open()).toBe(1);
    await setHidden(true);
    // (Jumping minutes at once, the socket's own silence check may close and reopen it meanwhile.)
    await user.page.clock.runFor(4 * 60_000);
    await expect.poll(open).toBe(1);
    await user.page.clock.runFor(60_000 + 100);
    await expect.poll(open).toBe(0);
    expect(await badgeText(user.page)).toBe('Saved');
    await setHidden(false);
    await expect.poll(open).toBe(1);
    await typeInSubsection(user.page, subsection, ' And after.');
    await expect
      .poll(() => serverSubsectionText(user, document.uuid, subsection))
      .toBe('Typed before the tab was hidden. And after.');
  });

  it("W50 pending AI suggestions are the asker's alone; the text they accept reaches the other editor live", async () => {
    const { here, elsewhere, first } = await twoPeople('live-suggestions@example.com');
    await typeInSubsection(here.page, first, 'Our ovens are old.');
    await expect.poll(() => paragraphText(elsewhere, first), { timeout: 15_000 }).toBe('Our ovens are old.');
    if (!model) throw new Error('the model server is not running');
    model.script({
      type: 'answer',
      text: 'A sharper line.',
      toolCalls: [
        {
          name: 'propose_full_subsection',
          arguments: { subsection_uuid: first, format: 'markdown', content: 'Our ovens are new and fast.' },
        },
      ],
    });
    const chat = chatPanel(here.page);
    await expect.poll(() => chat.panel.getAttribute('data-status'), { timeout: 15_000 }).toBe('connected');
    await sendChatMessage(here.page, 'Make it sharper');
    await expect.poll(() => suggestedInsertions(here.page), { timeout: 15_000 }).toContain('fast');
    // The other editor sees neither the suggestion nor its text.
    expect(await elsewhere.page.locator('.pw-editor [data-suggestion]').count()).toBe(0);
    expect(await paragraphText(elsewhere, first)).toBe('Our ovens are old.');
    await suggestionBar(here.page).getByRole('button', { name: 'Accept', exact: true }).click();
    await expect
      .poll(() => paragraphText(elsewhere, first), { timeout: 15_000 })
      .toBe('Our ovens are new and fast.');
    expect(await elsewhere.page.locator('.pw-editor [data-suggestion]').count()).toBe(0);
  });
});
