import { readFileSync } from 'node:fs';
import { outlineOf } from '@planwright/sdk/model';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from '../../../../tests/support/corpus-path.mjs';
import { DEFAULT_BLUEPRINT } from '../../src/blueprints/default-blueprint.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument, expectRowsMatchTree } from '../support/workspace-calls.js';
import { multipartBody } from './multipart.js';

let t: TestApp;
let clock = new Date('2026-11-25T10:00:00.000Z');
const now = () => clock;
const tick = (ms = 1_000) => {
  clock = new Date(clock.getTime() + ms);
};
let ada: SignedInUser;
let bob: SignedInUser;

// A 2 KiB import limit makes "too large" cheap to reach.
beforeAll(async () => {
  t = await createTestApp({ IMPORT_MAX_MB: String(64 / 1024) }, { now });
  ada = await createSignedInUser(t, { email: 'ada@example.com', firstName: 'Ada' }, now);
  bob = await createSignedInUser(t, { email: 'bob@example.com', firstName: 'Bob' }, now);
});
afterAll(async () => {
  await t?.close();
});

const firstSection = DEFAULT_BLUEPRINT.sections[0];
if (!firstSection) throw new Error('the default blueprint has no section');

async function importFile(
  user: SignedInUser | undefined,
  uuid: string,
  file: { name: string; bytes: Uint8Array | string } | undefined,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const body = await multipartBody({ ...(file ? { file } : {}), ...fields });
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/documents/${uuid}/import/`,
    headers: { ...(user ? user.headers : {}), ...body.headers, ...headers },
    payload: body.payload,
  });
}

function titles(answer: { sections: Array<{ title: string; subsections: Array<{ title: string }> }> }) {
  return answer.sections.map((section) => [section.title, section.subsections.map((sub) => sub.title)]);
}

describe('GET documents/{uuid}/export', () => {
  it('answers Markdown by default, named after the title', async () => {
    const doc = await createDocument(t, ada, { title: 'Acme: "Plan" / 2027' });
    const res = await call(t, 'GET', `documents/${doc.uuid}/export`, { as: ada });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Acme Plan 2027.md"; filename*=UTF-8''Acme%20Plan%202027.md`,
    );
    expect(res.body).toContain(`# ${firstSection.title}`);
    for (const sub of firstSection.subsections) expect(res.body).toContain(`## ${sub.title}`);
  });

  it.each([
    ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'PK'],
    ['pdf', 'application/pdf', '%PDF'],
    ['html', 'text/html; charset=utf-8', '<!'],
    ['json', 'application/json; charset=utf-8', '{'],
  ])('answers ?format=%s with its content type', async (format, type, start) => {
    const doc = await createDocument(t, ada, { title: 'Formats' });
    const res = await call(t, 'GET', `documents/${doc.uuid}/export?format=${format}`, { as: ada });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['content-disposition']).toContain(`filename="Formats.${format}"`);
    expect(res.rawPayload.subarray(0, start.length).toString('latin1')).toBe(start);
    if (format === 'json')
      expect(outlineOf(JSON.parse(res.body)).sections.length).toBe(DEFAULT_BLUEPRINT.sections.length);
  });

  it('refuses an unknown format naming the field, and hides other people’s documents', async () => {
    const doc = await createDocument(t, ada);
    const bad = await call(t, 'GET', `documents/${doc.uuid}/export?format=exe`, { as: ada });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid', errors: [{ param: 'format' }] });
    expect((await call(t, 'GET', `documents/${doc.uuid}/export`, { as: bob })).statusCode).toBe(404);
    expect((await call(t, 'GET', `documents/${doc.uuid}/export`)).statusCode).toBe(401);
    expect((await call(t, 'GET', 'documents/not-a-uuid/export', { as: ada })).statusCode).toBe(404);
  });
});

describe('POST documents/{uuid}/import/', () => {
  it('merges: matching sections take the new blocks and subsections; new ones arrive "(Imported)"', async () => {
    const doc = await createDocument(t, ada);
    tick();
    const markdown = [
      `# ${firstSection.title.toUpperCase()}`,
      '',
      'A new paragraph for the first section.',
      '',
      '## Brand new subsection',
      '',
      'Its text.',
      '',
      '# Appendix',
      '',
      '- one',
      '- two',
    ].join('\n');
    const res = await importFile(ada, doc.uuid, { name: 'draft.md', bytes: markdown });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer.revision).toBe(doc.revision + 1);
    expect(res.headers.etag).toBe(`"${doc.revision + 1}"`);
    expect(answer.import_report).toMatchObject({ format: 'md' });
    const outline = titles(answer);
    expect(outline[0]).toEqual([
      firstSection.title,
      [...firstSection.subsections.map((sub) => sub.title), '(Imported) Brand new subsection'],
    ]);
    expect(outline.at(-1)).toEqual(['(Imported) Appendix', []]);
    expect(outline).toHaveLength(DEFAULT_BLUEPRINT.sections.length + 1);
    // Existing sections keep their uuids and settings.
    expect(answer.sections[0].uuid).toBe(doc.sections[0].uuid);
    expect(answer.sections[0].developer_prompt).toBe(firstSection.developerPrompt);
    expect(JSON.stringify(answer.content)).toContain('A new paragraph for the first section.');
    expectRowsMatchTree(answer);
    const activities = await call(t, 'GET', `activities/activities/?object_id=${doc.uuid}&page_size=100`, {
      as: ada,
    });
    const entries = activities.json().data as Array<{ verb: string }>;
    expect(entries.find((entry) => entry.verb === 'imported')).toMatchObject({
      verb: 'imported',
      message: 'imported "draft.md" into the document (merge)',
    });
  });

  it('replaces: the imported tree becomes the content, matching sections keep uuid and settings', async () => {
    const doc = await createDocument(t, ada);
    const markdown = `# ${firstSection.title}\n\nOnly this.\n\n# Something else\n\nAnd this.\n`;
    const res = await importFile(ada, doc.uuid, { name: 'plan.md', bytes: markdown }, { mode: 'replace' });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(titles(answer)).toEqual([
      [firstSection.title, []],
      ['Something else', []],
    ]);
    expect(answer.sections[0].uuid).toBe(doc.sections[0].uuid);
    expect(answer.sections[0].developer_prompt).toBe(firstSection.developerPrompt);
    expect(answer.sections[0].user_hint).toBe(firstSection.userHint);
    expect(answer.sections[1].developer_prompt).toBe('');
    expectRowsMatchTree(answer);
    const read = await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada });
    expect(titles(read.json())).toEqual(titles(answer));
  });

  it('imports a real .docx with its headings as sections and subsections', async () => {
    const doc = await createDocument(t, ada);
    const bytes = readFileSync(corpusPath('docx/pandoc-headers.docx'));
    const res = await importFile(ada, doc.uuid, { name: 'headers.docx', bytes }, { mode: 'replace' });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer.import_report.format).toBe('docx');
    expect(answer.sections.length).toBeGreaterThanOrEqual(1);
    expectRowsMatchTree(answer);
  });

  describe('refusals save nothing', () => {
    async function expectRefused(
      res: LightMyRequestResponse,
      uuid: string,
      revision: number,
      status: number,
      code: string,
    ) {
      expect(res.statusCode, res.body).toBe(status);
      const body = res.json();
      expect(body.code).toBe(code);
      expect(typeof body.detail).toBe('string');
      expect(body.detail).not.toMatch(/\n|at .*\(.*:\d+:\d+\)/);
      const read = await call(t, 'GET', `documents/${uuid}/`, { as: ada });
      expect(read.json().revision).toBe(revision);
    }

    it.each([
      ['docx-malformed/poi-truncated62886.docx', 'not_a_zip'],
      ['docx-malformed/poi-bug53475-password-is-pass.docx', 'encrypted'],
      ['docx-malformed/poi-ExternalEntityInText.docx', 'xml_entities'],
    ])('%s → 422 %s', async (file, code) => {
      const doc = await createDocument(t, ada);
      const res = await importFile(ada, doc.uuid, {
        name: 'upload.docx',
        bytes: readFileSync(corpusPath(file)),
      });
      await expectRefused(res, doc.uuid, doc.revision, 422, code);
    });

    it('a file type other than .docx and .md → 415, before reading it', async () => {
      const doc = await createDocument(t, ada);
      for (const name of ['plan.pdf', 'plan.doc', 'plan', 'plan.json', 'plan.html', '../../etc/passwd']) {
        const res = await importFile(ada, doc.uuid, { name, bytes: 'text' });
        await expectRefused(res, doc.uuid, doc.revision, 415, 'unsupported_format');
      }
    });

    it('a file over the size limit → 413', async () => {
      const doc = await createDocument(t, ada);
      const res = await importFile(ada, doc.uuid, { name: 'big.md', bytes: 'x'.repeat(70 * 1024) });
      await expectRefused(res, doc.uuid, doc.revision, 413, 'too_large');
    });

    it('Markdown that is not UTF-8 → 422 invalid_text', async () => {
      const doc = await createDocument(t, ada);
      const res = await importFile(ada, doc.uuid, {
        name: 'latin1.md',
        bytes: new Uint8Array([0x23, 0x20, 0xe9, 0xff, 0xfe]),
      });
      await expectRefused(res, doc.uuid, doc.revision, 422, 'invalid_text');
    });

    it('no file, a JSON body, or an unknown mode → 400 naming the field', async () => {
      const doc = await createDocument(t, ada);
      const none = await importFile(ada, doc.uuid, undefined, { mode: 'merge' });
      expect(none.statusCode).toBe(400);
      expect(none.json().errors).toEqual([
        { param: 'file', code: 'required', message: 'A file is required.' },
      ]);
      const json = await call(t, 'POST', `documents/${doc.uuid}/import/`, { as: ada, body: { file: 'x' } });
      expect(json.statusCode).toBe(400);
      const mode = await importFile(ada, doc.uuid, { name: 'a.md', bytes: '# A' }, { mode: 'overwrite' });
      expect(mode.statusCode).toBe(400);
      expect(mode.json().errors[0]).toMatchObject({ param: 'mode' });
    });

    it('a stale If-Match → 412, someone else’s document → 404, anonymous → 401', async () => {
      const doc = await createDocument(t, ada);
      const stale = await importFile(
        ada,
        doc.uuid,
        { name: 'a.md', bytes: '# A' },
        {},
        { 'if-match': '"99"' },
      );
      expect(stale.statusCode).toBe(412);
      expect((await importFile(bob, doc.uuid, { name: 'a.md', bytes: '# A' })).statusCode).toBe(404);
      expect((await importFile(undefined, doc.uuid, { name: 'a.md', bytes: '# A' })).statusCode).toBe(401);
      const read = await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada });
      expect(read.json().revision).toBe(doc.revision);
    });
  });

  it('NUL characters and unpaired surrogates in a file are cleaned, not refused', async () => {
    const doc = await createDocument(t, ada);
    const res = await importFile(
      ada,
      doc.uuid,
      { name: 'odd.md', bytes: '# Odd\u0000 title\n\nText \ud800 here\n' },
      { mode: 'replace' },
    );
    expect(res.statusCode, res.body).toBe(200);
    // CommonMark itself turns NUL into U+FFFD; the unpaired surrogate is replaced before saving.
    expect(res.json().sections[0].title).toBe('Odd\ufffd title');
    expect(JSON.stringify(res.json().content)).toContain('Text \ufffd here');
  });
});

describe('the conversion service (token flow)', () => {
  async function token(user: SignedInUser) {
    const res = await call(t, 'POST', 'apps/tiptap/convert/jwt/', { as: user, body: { scope: 'convert' } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { token: string; expires_at: string; expires_in: number };
  }

  const content = {
    type: 'doc',
    content: [
      { type: 'section', content: [{ type: 'sectionHeading', content: [{ type: 'text', text: 'Market' }] }] },
    ],
  };

  it('issues a short-lived token and converts a tree with it', async () => {
    const issued = await token(ada);
    expect(issued.expires_in).toBe(300);
    expect(Date.parse(issued.expires_at)).toBe(clock.getTime() + 300_000);
    const res = await call(t, 'POST', 'apps/tiptap/convert/export/', {
      body: { content, format: 'docx', title: 'Unsaved plan' },
      headers: { authorization: `Bearer ${issued.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('filename="Unsaved plan.docx"');
    expect(res.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('refuses a missing, forged or expired token with 401, and needs a session to issue one', async () => {
    expect((await call(t, 'POST', 'apps/tiptap/convert/jwt/', { body: {} })).statusCode).toBe(401);
    const wrongScope = await call(t, 'POST', 'apps/tiptap/convert/jwt/', {
      as: ada,
      body: { scope: 'admin' },
    });
    expect(wrongScope.statusCode).toBe(400);
    const send = (authorization?: string) =>
      call(t, 'POST', 'apps/tiptap/convert/export/', {
        body: { content, format: 'pdf' },
        headers: authorization ? { authorization } : {},
      });
    expect((await send()).json()).toMatchObject({ code: 'token_invalid' });
    // A session token is not a conversion token.
    expect((await send(`Bearer ${ada.headers['x-session-token'] ?? 'x'}`)).statusCode).toBe(401);
    const issued = await token(ada);
    const [head, payload, signature] = issued.token.split('.');
    const forged = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    forged.exp += 3600;
    const refused = await send(
      `Bearer ${head}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`,
    );
    expect(refused.json()).toMatchObject({ code: 'token_invalid' });
    tick(301_000);
    const expired = await send(`Bearer ${issued.token}`);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ code: 'token_expired' });
  });

  it('validates the tree and the format', async () => {
    const issued = await token(ada);
    const headers = { authorization: `Bearer ${issued.token}` };
    const badFormat = await call(t, 'POST', 'apps/tiptap/convert/export/', {
      body: { content, format: 'exe' },
      headers,
    });
    expect(badFormat.json()).toMatchObject({ code: 'invalid', errors: [{ param: 'format' }] });
    const badTree = await call(t, 'POST', 'apps/tiptap/convert/export/', {
      body: { content: { type: 'paragraph' }, format: 'html' },
      headers,
    });
    expect(badTree.statusCode).toBe(400);
    expect(badTree.json().code).toBe('invalid_content');
  });
});
