import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../../src/auth/password/index.js';
import { HOURLY_VERSION_MS } from '../../src/documents/write-document.js';
import { SHARE_PAGE_POLICY } from '../../src/http/security-headers.js';
import { SHARE_PAGE_LIMITS } from '../../src/routes/share-page-routes.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument, hostileStrings } from '../support/workspace-calls.js';

// Share links (docs/versions.md "Share links"): read-only links for people without an account, to a version or
// to the latest finalized subsections; the reader page, its password, downloads, views and reading time, 410 once
// turned off or expired, and the limits on guessing.

let t: TestApp;
let clock = new Date('2026-11-29T10:00:00.000Z');
const now = () => clock;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
let owner: SignedInUser;
let viewer: SignedInUser;
let ip = 0;
/** A fresh reader address per test, so one test's misses do not limit another's. */
const freshIp = () => {
  ip += 1;
  return `10.9.${(ip >> 8) & 255}.${ip & 255}`;
};

interface Node {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  content?: Node[];
}

/** A plan whose first subsection (finalized) and second (a draft) say what they are. */
async function planWithDraft(title = 'Bakery plan') {
  const doc = await createDocument(t, owner, { title });
  const current = (await call(t, 'GET', `documents/${doc.uuid}/`, { as: owner })).json();
  const content = structuredClone(current.content) as Node;
  const subsections = (content.content ?? []).flatMap((section) =>
    (section.content ?? []).filter((node) => node.type === 'subsection'),
  );
  const [done, draft] = subsections;
  if (!done || !draft) throw new Error('the default blueprint has two subsections at least');
  const say = (subsection: Node, text: string) => {
    subsection.content = [
      subsection.content?.[0] as Node,
      { type: 'paragraph', content: [{ type: 'text', text }] },
    ];
  };
  say(done, 'Finalized: we sell sourdough to cafés.');
  say(draft, 'Draft: secret numbers not for investors.');
  (done.attrs as { finalized: boolean }).finalized = true;
  const saved = await call(t, 'PATCH', `documents/${doc.uuid}/`, { as: owner, body: { content } });
  expect(saved.statusCode, saved.body).toBe(200);
  return doc;
}

async function createLink(doc: { uuid: string }, body: Record<string, unknown> = {}, as = owner) {
  const res = await call(t, 'POST', `documents/${doc.uuid}/share-links/`, { as, body });
  expect(res.statusCode, res.body).toBe(201);
  const link = res.json();
  return { ...link, path: new URL(link.url).pathname as string };
}

/** A request of the reader pages, as a browser without an account (no session), from `from`. */
function read(
  path: string,
  options: { from?: string; cookie?: string; headers?: Record<string, string>; method?: 'GET' | 'HEAD' } = {},
) {
  return t.app.inject({
    method: options.method ?? 'GET',
    url: path,
    remoteAddress: options.from ?? '10.0.0.1',
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
  });
}

function cookieOf(
  res: { cookies: Array<{ name: string; value: string }> },
  name: string,
): string | undefined {
  const found = res.cookies.find((cookie) => cookie.name === name);
  return found && `${name}=${found.value}`;
}

async function linkState(doc: { uuid: string }, id: string) {
  const res = await call(t, 'GET', `documents/${doc.uuid}/share-links/${id}/`, { as: owner });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

beforeAll(async () => {
  t = await createTestApp(
    { PUBLIC_URL: 'https://plans.example.com' },
    { now, passwordHasher: createPasswordHasher({ params: { ln: 10, r: 8, p: 1 } }) },
  );
  owner = await createSignedInUser(
    t,
    { email: 'olive@example.com', firstName: 'Olive', lastName: 'Baker' },
    now,
  );
  viewer = await createSignedInUser(t, { email: 'vic@example.com', firstName: 'Vic' }, now);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  advance(60_000);
});

describe('share links', () => {
  it('SL1 a link is made once with a 256-bit token kept only as its hash; lists never show the URL again', async () => {
    const doc = await planWithDraft();
    const link = await createLink(doc, { label: 'Acme Ventures' });
    expect(link.url).toMatch(/^https:\/\/plans\.example\.com\/s\/[A-Za-z0-9_-]{43}$/);
    const token = link.path.slice(3);
    expect(link).toMatchObject({
      label: 'Acme Ventures',
      token_hint: token.slice(0, 4),
      version: null,
      status: 'active',
      has_password: false,
      allow_download: false,
      expires_at: null,
      created_by: { username: 'olive', first_name: 'Olive' },
      views: { total: 0, unique_visitors: 0, last_viewed_at: null, sections: [] },
    });
    const listed = await call(t, 'GET', `documents/${doc.uuid}/share-links/`, { as: owner });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toHaveLength(1);
    expect(listed.body).not.toContain(token);
    expect(listed.json().data[0]).not.toHaveProperty('url');
    const stored = await t.storage.shareLinks.findByTokenIn(doc.uuid, 'not-a-hash');
    expect(stored).toBeUndefined();
    const rows = JSON.stringify(await t.storage.shareLinks.list(doc.uuid));
    expect(rows).not.toContain(token);
    // The URL finds its link again (to turn it off by URL).
    const found = await call(t, 'POST', `documents/${doc.uuid}/share-links/find/`, {
      as: owner,
      body: { url: `${link.url}?utm=mail` },
    });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().id).toBe(link.id);
  });

  it('SL2 the reader page: the finalized subsections only, a title page and contents, noindex, a strict CSP, no session', async () => {
    const doc = await planWithDraft('Sourdough & Co');
    const link = await createLink(doc);
    const res = await read(link.path, { cookie: `sessionid=${owner.token}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toBe(SHARE_PAGE_POLICY);
    expect(res.headers['x-robots-tag']).toContain('noindex');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(res.body).toContain('Sourdough &amp; Co');
    expect(res.body).toContain('By Olive Baker');
    expect(res.body).toContain('Finalized sections as of 29 Nov 2026');
    expect(res.body).toContain('Finalized: we sell sourdough to cafés.');
    expect(res.body).not.toContain('Draft: secret numbers');
    expect(res.body).toMatch(
      /<nav class="pw-toc"[^>]*><h2 id="pw-contents">Contents<\/h2><ol><li><a href="#section-/,
    );
    expect(res.body).not.toMatch(/<script>|style="/);
    expect(res.body).not.toContain('/download/');
    // No session is made, kept or read: only the reader's own first-party cookie.
    expect(res.cookies.map((cookie) => cookie.name)).toEqual(['pw_reader']);
    expect(res.cookies[0]).toMatchObject({ path: '/s/', httpOnly: true, sameSite: 'Lax', secure: true });
    const script = /<script src="([^"]+)" defer><\/script>/.exec(res.body)?.[1];
    const style = /<link rel="stylesheet" href="([^"]+)">/.exec(res.body)?.[1];
    for (const asset of [script, style]) {
      const file = await read(asset ?? '/missing');
      expect(file.statusCode).toBe(200);
      expect(file.headers['cache-control']).toContain('immutable');
    }
  });

  it('SL3 a link to a version shows that version, and the version outlives its retention while linked', async () => {
    const doc = await planWithDraft('Before');
    const version = await call(t, 'POST', `documents/${doc.uuid}/versions/`, {
      as: owner,
      body: { name: 'Sent to bank, v3' },
    });
    await call(t, 'PATCH', `documents/${doc.uuid}/`, { as: owner, body: { title: 'After' } });
    const link = await createLink(doc, { version: 'sent to bank, v3' });
    expect(link.version).toMatchObject({ id: version.json().id, name: 'Sent to bank, v3', kind: 'named' });
    const page = await read(link.path, { from: freshIp() });
    expect(page.body).toContain('<h1>Before</h1>');
    expect(page.body).toContain('Version “Sent to bank, v3” of 29 Nov 2026');
    // The whole version, drafts too: a version is what its owner named.
    expect(page.body).toContain('Draft: secret numbers');

    // An automatic version behind a link is kept past its retention; the others go.
    advance(HOURLY_VERSION_MS);
    await call(t, 'PATCH', `documents/${doc.uuid}/`, { as: owner, body: { title: 'Later' } });
    const automatic = (
      await call(t, 'GET', `documents/${doc.uuid}/versions/?page_size=100`, { as: owner })
    ).json().data as Array<{ id: string; kind: string }>;
    const hourly = automatic.filter((entry) => entry.kind === 'hourly');
    expect(hourly.length).toBeGreaterThan(0);
    const kept = await createLink(doc, { version: hourly[0]?.id });
    await t.storage.documentVersions.pruneAutomatic(new Date(clock.getTime() + 1));
    expect((await read(kept.path, { from: freshIp() })).statusCode).toBe(200);
    const left = (await call(t, 'GET', `documents/${doc.uuid}/versions/?page_size=100`, { as: owner })).json()
      .data as Array<{ id: string }>;
    expect(left.map((entry) => entry.id)).toContain(hourly[0]?.id);
    expect(left.filter((entry) => hourly.slice(1).some((gone) => gone.id === entry.id))).toEqual([]);
  });

  it('SL4 views, unique visitors and time per section are counted as readers read; Do Not Track is honoured', async () => {
    const doc = await planWithDraft();
    const link = await createLink(doc);
    const from = freshIp();
    const first = await read(link.path, { from });
    const visitor = cookieOf(first, 'pw_reader');
    expect(visitor).toBeDefined();
    await read(link.path, { from, cookie: visitor });
    await read(link.path, { from: freshIp() });
    // Not counted: a HEAD, and readers who ask not to be tracked (no cookie, no view, no script).
    await read(link.path, { method: 'HEAD' });
    for (const header of [{ dnt: '1' }, { 'sec-gpc': '1' }] as Array<Record<string, string>>) {
      const untracked = await read(link.path, { headers: header });
      expect(untracked.statusCode).toBe(200);
      expect(untracked.cookies).toEqual([]);
      expect(untracked.body).toContain('not counted');
      expect(untracked.body).not.toContain('data-view');
      expect(untracked.body).not.toContain('<script');
    }
    const view = /data-view="([^"]+)"/.exec(first.body)?.[1] ?? '';
    const section = /data-section="([^"]+)"/.exec(first.body)?.[1] ?? '';
    const report = (body: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: `${link.path}/read`,
        remoteAddress: from,
        headers: { 'content-type': 'application/json', ...headers },
        payload: JSON.stringify(body),
      });
    expect((await report({ view, sections: { [section]: 30_000 } })).statusCode).toBe(204);
    expect((await report({ view, sections: { [section]: 12_400 } })).statusCode).toBe(204);
    // One report adds at most five minutes to a section.
    expect((await report({ view, sections: { [section]: 24 * 60 * 60_000 } })).statusCode).toBe(204);
    const state = await linkState(doc, link.id);
    expect(state.views).toMatchObject({ total: 3, unique_visitors: 2, last_viewed_at: clock.toISOString() });
    expect(state.views.sections).toEqual([
      { uuid: section, title: expect.any(String), seconds: Math.round((30_000 + 12_400 + 300_000) / 1000) },
    ]);
    // Hostile reports: a clear 400 or 404, never a 500, and nothing counted.
    for (const body of [
      null,
      'text',
      { view },
      { view: 'not-a-uuid', sections: {} },
      { view, sections: { [section]: -5 } },
      { view, sections: { [section]: 1.5 } },
      { view, sections: { 'not-a-uuid': 5 } },
      { view, sections: Object.fromEntries(Array.from({ length: 501 }, () => [crypto.randomUUID(), 1])) },
      ...hostileStrings.slice(0, 20).map((text) => ({ view: text, sections: { [section]: text } })),
    ]) {
      const res = await report(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await report({ view: crypto.randomUUID(), sections: { [section]: 5 } })).statusCode).toBe(404);
    // A report after Do Not Track was switched on is not counted.
    expect((await report({ view, sections: { [section]: 9_000 } }, { dnt: '1' })).statusCode).toBe(204);
    // A page left open past a day reports nothing more.
    advance(25 * 60 * 60_000);
    expect((await report({ view, sections: { [section]: 9_000 } })).statusCode).toBe(404);
    expect((await linkState(doc, link.id)).views.sections[0].seconds).toBe(state.views.sections[0].seconds);
  });

  it('SL5 a link turned off or past its expiry answers 410 at once, to pages, downloads and reports alike', async () => {
    const doc = await planWithDraft();
    const link = await createLink(doc, { allow_download: true });
    const page = await read(link.path, { from: freshIp() });
    const view = /data-view="([^"]+)"/.exec(page.body)?.[1];
    const off = await call(t, 'DELETE', `documents/${doc.uuid}/share-links/${link.id}/`, { as: owner });
    expect(off.statusCode).toBe(204);
    const gone = await read(link.path, { from: freshIp() });
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('This link has been turned off');
    expect(gone.headers['content-security-policy']).toBe(SHARE_PAGE_POLICY);
    expect((await read(`${link.path}/download/pdf`, { from: freshIp() })).statusCode).toBe(410);
    const report = await t.app.inject({
      method: 'POST',
      url: `${link.path}/read`,
      headers: { 'content-type': 'application/json' },
      payload: { view, sections: {} },
    });
    expect(report.statusCode).toBe(410);
    expect((await linkState(doc, link.id)).status).toBe('revoked');
    // The plan's activity says who opened it to readers without an account, and who stopped it.
    const activity = await call(t, 'GET', `activities/activities/?target=document&object_id=${doc.uuid}`, {
      as: owner,
    });
    expect(activity.json().data.map((entry: { verb: string }) => entry.verb)).toEqual(
      expect.arrayContaining(['made a share link', 'turned off a share link']),
    );
    // Turning it off again is done already.
    expect(
      (await call(t, 'DELETE', `documents/${doc.uuid}/share-links/${link.id}/`, { as: owner })).statusCode,
    ).toBe(204);

    const expiring = await createLink(doc, {
      expires_at: new Date(clock.getTime() + 60 * 60_000).toISOString(),
    });
    expect((await read(expiring.path, { from: freshIp() })).statusCode).toBe(200);
    advance(60 * 60_000);
    const expired = await read(expiring.path, { from: freshIp() });
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('This link has expired');
    expect((await linkState(doc, expiring.id)).status).toBe('expired');
  });

  it('SL6 guessing: unknown tokens answer 404 alike, and an address that misses too often is stopped', async () => {
    const doc = await planWithDraft();
    const link = await createLink(doc);
    const from = freshIp();
    const wrong = `/s/${'A'.repeat(43)}`;
    for (const path of [wrong, '/s/short', `/s/${'%3Cscript%3E'.repeat(4)}`]) {
      const miss = await read(path, { from });
      expect(miss.statusCode).toBe(404);
      expect(miss.body).toContain('This link does not exist');
    }
    for (let i = 3; i < SHARE_PAGE_LIMITS.misses.limit; i += 1) await read(wrong, { from });
    const stopped = await read(link.path, { from });
    expect(stopped.statusCode).toBe(429);
    expect(stopped.headers['retry-after']).toBeDefined();
    // Another address reads on.
    expect((await read(link.path, { from: freshIp() })).statusCode).toBe(200);
  });

  it('SL7 a password: the form first, wrong tries limited, the right one opens this link only', async () => {
    const doc = await planWithDraft();
    const link = await createLink(doc, { password: 'open sesame' });
    const other = await createLink(doc, { password: 'open sesame' });
    expect(link.has_password).toBe(true);
    const from = freshIp();
    const form = await read(link.path, { from });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('This plan is protected by a password');
    expect(form.body).not.toContain('Finalized: we sell');
    expect(form.body).not.toContain('Bakery plan');
    const submit = (password: string, address = from) =>
      t.app.inject({
        method: 'POST',
        url: link.path,
        remoteAddress: address,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ password }).toString(),
      });
    const wrong = await submit('nope');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('That password is not right');
    const right = await submit('open sesame');
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe(link.path);
    const unlock = right.cookies.find((cookie) => cookie.name === 'pw_unlock');
    expect(unlock).toMatchObject({ path: link.path, httpOnly: true, secure: true });
    const cookie = `pw_unlock=${unlock?.value}`;
    const opened = await read(link.path, { from, cookie });
    expect(opened.body).toContain('Finalized: we sell');
    // The cookie opens this link, not another with the same password.
    expect((await read(other.path, { from, cookie })).body).toContain('protected by a password');
    // Wrong passwords are limited per address.
    const guesser = freshIp();
    for (let i = 0; i < SHARE_PAGE_LIMITS.passwordPerAddress.limit; i += 1)
      expect((await submit(`guess ${i}`, guesser)).statusCode).toBe(401);
    const limited = await submit('open sesame', guesser);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('SL8 downloads only when the link allows them: the shown content as PDF or Word', async () => {
    const doc = await planWithDraft('Cafe plan');
    const closed = await createLink(doc);
    expect((await read(closed.path, { from: freshIp() })).body).not.toContain('/download/');
    expect((await read(`${closed.path}/download/pdf`, { from: freshIp() })).statusCode).toBe(403);
    const open = await createLink(doc, { allow_download: true });
    const page = await read(open.path, { from: freshIp() });
    expect(page.body).toContain(`href="${open.path}/download/pdf"`);
    const pdf = await read(`${open.path}/download/pdf`, { from: freshIp() });
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain('Cafe plan.pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const docx = await read(`${open.path}/download/docx`, { from: freshIp() });
    expect(docx.statusCode).toBe(200);
    expect(docx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await read(`${open.path}/download/exe`, { from: freshIp() })).statusCode).toBe(404);
  });

  it('SL9 who may make links: those who may invite people; bad input is refused with its reason', async () => {
    const doc = await planWithDraft();
    await t.storage.documentMembers.put({
      documentId: doc.uuid,
      userId: viewer.user.id,
      role: 'viewer',
      addedBy: owner.user.id,
      at: now(),
    });
    for (const [method, path] of [
      ['GET', `documents/${doc.uuid}/share-links/`],
      ['POST', `documents/${doc.uuid}/share-links/`],
    ] as const) {
      const refused = await call(t, method, path, { as: viewer, body: {} });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().code).toBe('not_permitted');
    }
    const stranger = await createSignedInUser(t, { email: `s${ip}@example.com` }, now);
    expect((await call(t, 'GET', `documents/${doc.uuid}/share-links/`, { as: stranger })).json().code).toBe(
      'not_found',
    );
    expect((await call(t, 'GET', `documents/${doc.uuid}/share-links/`)).statusCode).toBe(401);
    for (const body of [
      { expires_at: new Date(clock.getTime() - 1000).toISOString() },
      { expires_at: 'tomorrow' },
      { password: 'short' },
      { password: 'x'.repeat(129) },
      { allow_download: 'yes' },
      { label: 'x'.repeat(101) },
      { label: 'bell\u0007' },
      { version: 42 },
    ]) {
      const res = await call(t, 'POST', `documents/${doc.uuid}/share-links/`, { as: owner, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const unknown = await call(t, 'POST', `documents/${doc.uuid}/share-links/`, {
      as: owner,
      body: { version: 'never kept' },
    });
    expect(unknown.statusCode).toBe(404);
    for (const label of hostileStrings
      .filter((text) => !/[\p{Cc}\p{Cs}]/u.test(text) && text.length <= 100)
      .slice(0, 30)) {
      const res = await call(t, 'POST', `documents/${doc.uuid}/share-links/`, { as: owner, body: { label } });
      expect(res.statusCode, label).toBe(201);
      expect(res.json().label).toBe(label.trim());
    }
    const strangerLink = await call(
      t,
      'DELETE',
      `documents/${doc.uuid}/share-links/${crypto.randomUUID()}/`,
      {
        as: owner,
      },
    );
    expect(strangerLink.statusCode).toBe(404);
    const notFound = await call(t, 'POST', `documents/${doc.uuid}/share-links/find/`, {
      as: owner,
      body: { url: 'https://plans.example.com/s/nothing' },
    });
    expect(notFound.statusCode).toBe(404);
  });

  it('SL10 a plan title or text with markup reads as text on the reader page', async () => {
    const doc = await createDocument(t, owner, { title: '<img src=x onerror=alert(1)> & "quotes"' });
    const link = await createLink(doc, { version: null });
    const page = await read(link.path, { from: freshIp() });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;');
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).toContain('Nothing in this plan has been finalized yet');
  });
});
