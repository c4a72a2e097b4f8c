import { readFileSync } from 'node:fs';
import {
  ApiError,
  AuthRequiredError,
  createPlanwrightClient,
  type ImportProgress,
  MemoryTokenStore,
  type PlanwrightClient,
} from '@planwright/sdk';
import { importDocument } from '@planwright/sdk/formats/node';
import { outlineOf } from '@planwright/sdk/model';
import { lastKeyFor } from '@planwright/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from '../support/corpus.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Import, export and the conversion token flow of the SDK against the real server over real HTTP
 * (docs/http-api.md "Import and export"). The server's and the SDK's clocks are set apart to make a
 * token the SDK still trusts expired on the server.
 */
const PASSWORD = 'a-sturdy-harbour-passphrase';
let serverSkew = 0;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: () => new Date(Date.now() + serverSkew) });
});
afterAll(async () => {
  await server?.close();
});

let counter = 0;
async function signUp(now?: () => number): Promise<PlanwrightClient> {
  const email = `files-${++counter}@example.com`;
  const client = createPlanwrightClient({
    baseUrl: server.url,
    tokenStore: new MemoryTokenStore(),
    ...(now ? { now } : {}),
  });
  expect((await client.auth.signup({ email, password: PASSWORD, terms_agreement: true })).kind).toBe(
    'pending',
  );
  const key = await lastKeyFor(server.outboxDir, email, '/account/verify-email/');
  expect((await client.auth.verifyEmail(key)).kind).toBe('authenticated');
  return client;
}

describe('import and export through the SDK', () => {
  it('imports a .docx (merge, then replace) and exports every format', async () => {
    const client = await signUp();
    const doc = await client.documents.create({ title: 'Imported plan' });
    const bytes = new Uint8Array(readFileSync(corpusPath('docx/pandoc-headers.docx')));
    const expected = await importDocument(bytes, 'docx');
    const expectedTitles = outlineOf(expected.document).sections.map((section) => section.title);

    const merged = await client.documents.importFile(doc.uuid, { name: 'headers.docx', bytes });
    expect(merged.report.format).toBe('docx');
    expect(merged.document.revision).toBe((doc.revision ?? 0) + 1);
    const mergedTitles = merged.document.sections.map((section) => section.title);
    expect(mergedTitles.slice(0, doc.sections.length)).toEqual(doc.sections.map((section) => section.title));
    expect(mergedTitles.slice(doc.sections.length)).toEqual(
      expectedTitles.map((title) => `(Imported) ${title}`),
    );

    const replaced = await client.documents.importFile(doc.uuid, new File([bytes], 'headers.docx'), {
      mode: 'replace',
    });
    expect(replaced.document.sections.map((section) => section.title)).toEqual(expectedTitles);
    expect(await client.documents.get(doc.uuid)).toMatchObject({ revision: replaced.document.revision });

    const markdown = await client.documents.exportMarkdown(doc.uuid);
    for (const title of expectedTitles) expect(markdown).toContain(`# ${title}`);
    for (const format of ['docx', 'pdf', 'html', 'json'] as const) {
      const file = await client.documents.exportFile(doc.uuid, format);
      expect(file.fileName).toBe(`Imported plan.${format}`);
      expect(file.bytes.length).toBeGreaterThan(0);
    }
  });

  it('a refused file is an ApiError with the reason, and the document is unchanged', async () => {
    const client = await signUp();
    const doc = await client.documents.create();
    const bytes = new Uint8Array(
      readFileSync(corpusPath('docx-malformed/poi-bug53475-password-is-pass.docx')),
    );
    const error = await client.documents
      .importFile(doc.uuid, { name: 'locked.docx', bytes })
      .catch((e: unknown) => e);
    expect(ApiError.isInstance(error) && [error.status, error.serverCode]).toEqual([422, 'encrypted']);
    expect(AuthRequiredError.isInstance(error)).toBe(false);
    expect((await client.documents.get(doc.uuid)).revision).toBe(doc.revision);
  });
});

describe('importFile with onProgress against the real server (the progress stream)', () => {
  it('tells the phases in order and resolves to what the JSON answer gives; a refusal is the same ApiError', async () => {
    const client = await signUp();
    const doc = await client.documents.create({ title: 'Streamed' });
    const bytes = new Uint8Array(readFileSync(corpusPath('docx/pandoc-headers.docx')));
    const phases: ImportProgress[] = [];
    const streamed = await client.documents.importFile(
      doc.uuid,
      { name: 'headers.docx', bytes },
      { mode: 'replace', onProgress: (progress) => phases.push(progress) },
    );
    const order = phases.map((progress) => progress.phase).filter((phase, i, all) => phase !== all[i - 1]);
    expect(order).toEqual(['uploading', 'queued', 'converting', 'saving']);
    const converting = phases.find((progress) => progress.phase === 'converting');
    expect(converting && 'limitMs' in converting && converting.limitMs).toBeGreaterThanOrEqual(10_000);
    const stored = await client.documents.get(doc.uuid);
    expect(streamed.document.revision).toBe(stored.revision);
    expect(streamed.document.content).toEqual(stored.content);
    expect(streamed.report.format).toBe('docx');

    const locked = new Uint8Array(
      readFileSync(corpusPath('docx-malformed/poi-bug53475-password-is-pass.docx')),
    );
    const plain = await client.documents
      .importFile(doc.uuid, { name: 'locked.docx', bytes: locked })
      .catch((e: unknown) => e);
    const viaStream = await client.documents
      .importFile(doc.uuid, { name: 'locked.docx', bytes: locked }, { onProgress: () => {} })
      .catch((e: unknown) => e);
    const fields = (error: unknown) =>
      ApiError.isInstance(error) ? [error.status, error.serverCode, error.detail, error.message] : error;
    expect(fields(viaStream)).toEqual(fields(plain));
    expect(fields(viaStream)).toEqual([422, 'encrypted', expect.any(String), expect.any(String)]);
  });
});

describe('the conversion token flow (spec 001 §7)', () => {
  it('an expired token gets one refresh and the export succeeds', async () => {
    const sdkNow = Date.now();
    const client = await signUp(() => sdkNow);
    const doc = await client.documents.create({ title: 'Token flow' });
    const content = doc.content;
    if (!content) throw new Error('no content');
    const first = await client.conversion.exportDocument(content, 'docx', { title: 'Token flow' });
    expect(first.fileName).toBe('Token flow.docx');
    // The server moves six minutes on; the SDK's clock does not, so it still trusts its cached token.
    serverSkew += 6 * 60_000;
    const tokenCalls: string[] = [];
    const spying = createPlanwrightClient({
      baseUrl: server.url,
      tokenStore: client.tokenStore,
      now: () => sdkNow,
      fetch: async (input, init) => {
        tokenCalls.push(String(input).replace(server.url, ''));
        return fetch(input, init);
      },
    });
    await spying.conversion.exportDocument(content, 'pdf');
    tokenCalls.length = 0;
    serverSkew += 6 * 60_000;
    const second = await spying.conversion.exportDocument(content, 'pdf', { title: 'Token flow' });
    expect(new TextDecoder().decode(second.bytes.subarray(0, 4))).toBe('%PDF');
    expect(tokenCalls).toEqual([
      '/api/v1/apps/tiptap/convert/export/',
      '/api/v1/apps/tiptap/convert/jwt/',
      '/api/v1/apps/tiptap/convert/export/',
    ]);
    expect(client.tokenStore.getToken()).not.toBeNull();
  });
});
