import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fillFilesystem,
  freeBytes,
  mountSmallFilesystem,
} from '../../packages/server/test/db/small-filesystem.mjs';
import { type SdkAccount, signUpWithSdk, TEST_PASSWORD } from '../support/sdk-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A full disk under the embedded PGlite (SPEC packages/server/src/db DF1, DF2, DF4): the server's data
 * directory is a small tmpfs, filled to the last byte with a file. Writes answer 2xx or 503 in the house
 * shape (never 500), nothing is half-written, and once the file is removed the same server (no restart)
 * accepts writes again.
 */
let small: { dir: string; unmount(): void };
let server: TestServer;
let ada: SdkAccount;
let filler = '';

const UNAVAILABLE = {
  detail: 'The database is unavailable. Please try again shortly.',
  code: 'database_unavailable',
};

type Json = Record<string, unknown>;

beforeAll(async () => {
  small = mountSmallFilesystem(128);
  server = await startTestServer({ env: { PLANWRIGHT_DATA_DIR: join(small.dir, 'data') } });
  ada = await signUpWithSdk(server, 'ada@example.com');
}, 120_000);

afterAll(async () => {
  if (filler) rmSync(filler, { force: true });
  await server?.close();
  small?.unmount();
});

function api(path: string, init: RequestInit = {}, token = ada.tokenStore.getToken() as string) {
  return fetch(`${server.url}/api/v1/${path}`, {
    ...init,
    headers: { 'x-session-token': token, ...init.headers },
  });
}

function json(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } };
}

/** A 503 must be the house answer; anything else but 2xx (and sign-up's 401 "pending") fails. */
async function outcome(response: Response, ok: number[]): Promise<'ok' | 'unavailable'> {
  // Read every answer: an unread large body holds the connection open and the server's close with it.
  const body = await response.text();
  if (ok.includes(response.status)) return 'ok';
  expect(response.status, body).toBe(503);
  expect(JSON.parse(body)).toEqual(UNAVAILABLE);
  expect(response.headers.get('retry-after')).toBe('5');
  return 'unavailable';
}

/** The status once the body is read (see {@link outcome}). */
async function statusOf(response: Promise<Response>): Promise<number> {
  const answer = await response;
  await answer.arrayBuffer();
  return answer.status;
}

/** `content` with its first paragraph's text replaced by `text`. */
function withFirstParagraph(content: unknown, text: string): unknown {
  const copy = structuredClone(content);
  const visit = (node: unknown): boolean => {
    if (typeof node !== 'object' || node === null) return false;
    const current = node as { type?: unknown; content?: unknown };
    if (current.type === 'paragraph') {
      current.content = [{ type: 'text', text }];
      return true;
    }
    return Array.isArray(current.content) && current.content.some(visit);
  };
  if (!visit(copy)) throw new Error('the plan has no paragraph');
  return copy;
}

async function getDocument(uuid: string): Promise<{ content: unknown; revision: string | null }> {
  const response = await api(`documents/${uuid}/`);
  expect(response.status).toBe(200);
  return { content: ((await response.json()) as Json).content, revision: response.headers.get('etag') };
}

async function createDocument(title: string): Promise<Response> {
  return api('documents/', json('POST', { title }));
}

// Incompressible text, so a write needs new pages on the disk and cannot fit in what is allocated.
const bigText = (label: string, bytes: number) => `${label} ${randomBytes(bytes).toString('base64')}`;

describe('disk full under PGlite (DF)', () => {
  const outcomes: Record<string, 'ok' | 'unavailable'> = {};
  let docUuid = '';
  let before: unknown;
  let autosaved: unknown;
  const importMarker = bigText('disk-full import', 600_000);
  const titles = ['Written on a full disk 1', 'Written on a full disk 2'];

  it('DF1: with the disk full, writes answer 2xx or 503 database_unavailable with retry-after, never 500', async () => {
    const created = await createDocument('Before the disk filled');
    expect(created.status).toBe(201);
    docUuid = ((await created.json()) as Json).uuid as string;
    const current = await getDocument(docUuid);
    before = current.content;

    filler = fillFilesystem(small.dir);
    expect(freeBytes(small.dir)).toBeLessThan(64 * 1024);

    const signup = await fetch(`${server.url}/_allauth/app/v1/auth/signup`, {
      ...json('POST', { email: 'bob@example.com', password: TEST_PASSWORD, terms_agreement: true }),
    });
    outcomes.signup = await outcome(signup, [401]);
    for (const title of titles) outcomes[title] = await outcome(await createDocument(title), [201]);
    autosaved = withFirstParagraph(before, bigText('disk-full autosave', 1_200_000));
    const ifMatch: Record<string, string> = current.revision ? { 'if-match': current.revision } : {};
    outcomes.autosave = await outcome(
      await api(`documents/${docUuid}/`, json('PATCH', { content: autosaved }, ifMatch)),
      [200],
    );
    const form = new FormData();
    form.append('file', new Blob([`# Imported\n\n${importMarker}\n`], { type: 'text/markdown' }), 'plan.md');
    outcomes.import = await outcome(
      await api(`documents/${docUuid}/import/`, { method: 'POST', body: form }),
      [200],
    );
    // A large autosave cannot fit in a full disk: at least that one is refused.
    expect(outcomes.autosave).toBe('unavailable');
  });

  it('DF4: once space is freed the same server recovers without a restart: health is 200 and a large write succeeds', async () => {
    rmSync(filler);
    filler = '';
    expect(await statusOf(fetch(`${server.url}/api/v1/health`))).toBe(200);
    const current = await getDocument(docUuid);
    const after = withFirstParagraph(before, bigText('disk-full after', 1_200_000));
    const ifMatch: Record<string, string> = current.revision ? { 'if-match': current.revision } : {};
    expect(await statusOf(api(`documents/${docUuid}/`, json('PATCH', { content: after }, ifMatch)))).toBe(
      200,
    );
    expect((await getDocument(docUuid)).content).toEqual(after);
    // Put the document back as it was after the full-disk writes, for DF2's check.
    expect(await statusOf(api(`documents/${docUuid}/`, json('PATCH', { content: current.content })))).toBe(
      200,
    );
  });

  it('DF2: nothing is half-written: each 2xx write is there in full, each 503 write absent or complete', async () => {
    const listed = await api('documents/?page_size=100');
    expect(listed.status).toBe(200);
    const items = ((await listed.json()) as { results?: Json[]; items?: Json[] }).results ?? [];
    for (const title of titles) {
      const found = items.filter((item) => item.title === title);
      if (outcomes[title] === 'ok') expect(found, title).toHaveLength(1);
      expect(found.length, title).toBeLessThanOrEqual(1);
      // Present means complete: its content and sections came in the same transaction.
      for (const item of found) {
        const detail = (await (await api(`documents/${item.uuid as string}/`)).json()) as Json;
        expect(JSON.stringify(detail.content)).toContain('paragraph');
      }
    }
    const stored = JSON.stringify((await getDocument(docUuid)).content);
    const autosaveText = JSON.stringify(autosaved);
    if (outcomes.autosave === 'ok') expect(stored).toContain(autosaveText.slice(0, 200));
    // The import's paragraph is there whole or not at all.
    const imported = stored.includes(importMarker.slice(0, 40));
    expect(imported).toBe(outcomes.import === 'ok' || stored.includes(importMarker));
    if (imported) expect(stored).toContain(importMarker);
    // Bob's account: signed up means it signs in (pending verification); refused means absent or whole.
    const login = await fetch(`${server.url}/_allauth/app/v1/auth/login`, {
      ...json('POST', { email: 'bob@example.com', password: TEST_PASSWORD }),
    });
    if (outcomes.signup === 'ok') expect(login.status, await login.clone().text()).toBe(401);
    expect([400, 401]).toContain(login.status);
  });

  it('DF3: large autosaves on a disk with less room than a WAL segment are refused with 503 (a PANIC when the WAL runs out), and the server recovers', async () => {
    const created = await createDocument('Autosaved until the disk is full');
    expect(created.status).toBe(201);
    const uuid = ((await created.json()) as Json).uuid as string;
    const base = (await getDocument(uuid)).content;
    // 15 MiB: a new 16 MiB WAL segment cannot be made, but tables may still grow a little.
    filler = fillFilesystem(small.dir, 15 * 1024 * 1024);
    let lastSaved: unknown = base;
    let refused: unknown;
    for (let n = 1; n <= 14 && refused === undefined; n += 1) {
      const content = withFirstParagraph(base, bigText(`disk-full autosave #${n}`, 1_200_000));
      const answer = await outcome(await api(`documents/${uuid}/`, json('PATCH', { content })), [200]);
      if (answer === 'ok') lastSaved = content;
      else refused = content;
    }
    expect(refused, 'no autosave was refused on a nearly full disk').toBeDefined();
    rmSync(filler);
    filler = '';
    // The first request after the space is back may reopen the database (about 2 s), then it answers.
    expect(await statusOf(fetch(`${server.url}/api/v1/health`))).toBe(200);
    expect((await getDocument(uuid)).content).toEqual(lastSaved);
    expect(await statusOf(api(`documents/${uuid}/`, json('PATCH', { content: refused })))).toBe(200);
    expect((await getDocument(uuid)).content).toEqual(refused);
  });
});
