import {
  ApiError,
  AuthRequiredError,
  createPlanwrightClient,
  dispositionFileName,
  EXPORT_TEXTS,
  MemoryTokenStore,
  PlanwrightError,
  ResponseValidationError,
} from '@planwright/sdk';
import type { DocumentJson } from '@planwright/sdk/model';
import { describe, expect, it } from 'vitest';
import { reply, useRecordingServer } from './support/recording-server.js';
import { contentJson, DOC_UUID, documentJson } from './support/workspace-fixtures.js';

const server = useRecordingServer((_req, res) => reply(res, 200, documentJson()));

function client(
  now = () => Date.parse('2026-11-25T10:00:00Z'),
  tokenStore = new MemoryTokenStore({ token: 'tok' }),
) {
  return createPlanwrightClient({ baseUrl: server.origin, tokenStore, now });
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

describe('documents.exportMarkdown (spec 001 §7)', () => {
  it('GETs documents/{uuid}/export and answers the text', async () => {
    server.handle((_req, res) =>
      reply(res, 200, '# Plan\n', { 'content-type': 'text/markdown; charset=utf-8' }),
    );
    expect(await client().documents.exportMarkdown(DOC_UUID)).toBe('# Plan\n');
    expect(server.last()).toMatchObject({ method: 'GET', url: `/api/v1/documents/${DOC_UUID}/export` });
  });

  it('also reads a `markdown` field, and says so when there is none', async () => {
    server.handle((_req, res) => reply(res, 200, { markdown: '# From JSON' }));
    expect(await client().documents.exportMarkdown(DOC_UUID)).toBe('# From JSON');
    server.handle((_req, res) => reply(res, 200, { other: 1 }));
    const error = await rejectionOf(client().documents.exportMarkdown(DOC_UUID));
    expect(PlanwrightError.isInstance(error) && error.message).toBe(EXPORT_TEXTS.noMarkdown);
  });

  it('refuses a blank uuid before sending anything', async () => {
    const error = await rejectionOf(client().documents.exportMarkdown('  '));
    expect((error as Error).message).toBe('Document UUID is required for MD export');
    expect(server.requests).toHaveLength(0);
  });
});

describe('documents.exportFile', () => {
  it('downloads binary formats as bytes, named by Content-Disposition', async () => {
    const bytes = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00, 0xfe]);
    server.handle((_req, res) =>
      reply(res, 200, bytes, {
        'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'content-disposition': `attachment; filename="Plan _.docx"; filename*=UTF-8''Plan%20%C3%A9.docx`,
      }),
    );
    const file = await client().documents.exportFile(DOC_UUID, 'docx');
    expect(server.last().url).toBe(`/api/v1/documents/${DOC_UUID}/export?format=docx`);
    expect(file.fileName).toBe('Plan é.docx');
    expect(file.format).toBe('docx');
    expect(Buffer.from(file.bytes)).toEqual(bytes);
  });

  it('Markdown goes without a format parameter; a refusal is an ApiError with the server’s line', async () => {
    server.handle((_req, res) => reply(res, 200, '# A', { 'content-type': 'text/markdown' }));
    const file = await client().documents.exportFile(DOC_UUID, 'md');
    expect(server.last().url).toBe(`/api/v1/documents/${DOC_UUID}/export`);
    expect(new TextDecoder().decode(file.bytes)).toBe('# A');
    expect(file.fileName).toBe('Untitled Document.md');
    server.handle((_req, res) => reply(res, 404, { detail: 'Not found.' }));
    const error = await rejectionOf(client().documents.exportFile(DOC_UUID, 'pdf'));
    expect(ApiError.isInstance(error) && error.status).toBe(404);
  });
});

describe('dispositionFileName', () => {
  it.each([
    ['attachment; filename="a.md"', 'a.md'],
    [`attachment; filename*=UTF-8''%E2%82%AC%20rates.pdf`, '€ rates.pdf'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment; filename="..\\\\evil.docx"', 'evil.docx'],
    ['attachment; filename=".."', undefined],
    [`attachment; filename*=UTF-8''%E0%A4%A.md`, undefined],
    ['inline', undefined],
    [null, undefined],
  ])('%s → %s', (header, name) => {
    expect(dispositionFileName(header)).toBe(name);
  });
});

describe('documents.importFile', () => {
  it('POSTs multipart file and mode, and answers the document and its report', async () => {
    server.handle((_req, res) =>
      reply(res, 200, {
        ...documentJson(),
        import_report: {
          format: 'docx',
          notes: [{ code: 'image_dropped', message: '2 images were dropped.', count: 2 }],
        },
      }),
    );
    const result = await client().documents.importFile(
      DOC_UUID,
      { name: 'plan.docx', bytes: new Uint8Array([1, 2, 3]) },
      { mode: 'replace' },
    );
    const request = server.last();
    expect(request).toMatchObject({ method: 'POST', url: `/api/v1/documents/${DOC_UUID}/import/` });
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = request.body.toString('latin1');
    expect(body).toContain('name="file"; filename="plan.docx"');
    expect(body).toContain('\x01\x02\x03');
    expect(body).toMatch(/name="mode"\r\n\r\nreplace\r\n/);
    expect(result.document.uuid).toBe(DOC_UUID);
    expect(result.document.content).toEqual(contentJson());
    expect(result.report).toEqual({
      format: 'docx',
      notes: [{ code: 'image_dropped', message: '2 images were dropped.', count: 2 }],
    });
  });

  it('sends a Blob under its own name, merge by default; a server without a report gives an empty one', async () => {
    await client().documents.importFile(DOC_UUID, new File(['# A'], 'a.md'));
    const body = server.last().body.toString('utf8');
    expect(body).toContain('filename="a.md"');
    expect(body).toMatch(/name="mode"\r\n\r\nmerge\r\n/);
  });

  it('a refused file is an ApiError carrying the reason; a broken answer a ResponseValidationError', async () => {
    server.handle((_req, res) =>
      reply(res, 422, {
        detail: 'The file is password-protected; remove the password in Word and try again.',
        code: 'encrypted',
      }),
    );
    const error = await rejectionOf(
      client().documents.importFile(DOC_UUID, { name: 'a.docx', bytes: new Uint8Array(1) }),
    );
    expect(ApiError.isInstance(error) && [error.status, error.serverCode, error.detail]).toEqual([
      422,
      'encrypted',
      'The file is password-protected; remove the password in Word and try again.',
    ]);
    server.handle((_req, res) => reply(res, 200, { uuid: 42 }));
    const broken = await rejectionOf(
      client().documents.importFile(DOC_UUID, { name: 'a.md', bytes: new Uint8Array(1) }),
    );
    expect(ResponseValidationError.isInstance(broken)).toBe(true);
  });
});

describe('conversion.exportDocument (spec 001 §7 token flow)', () => {
  const doc = contentJson() as DocumentJson;
  const t0 = Date.parse('2026-11-25T10:00:00Z');

  function conversionServer(options: { refuse?: (token: string) => boolean; expiresIn?: number } = {}) {
    let issued = 0;
    server.handle((req, res) => {
      if (req.url === '/api/v1/apps/tiptap/convert/jwt/') {
        issued += 1;
        reply(res, 200, {
          token: `token-${issued}`,
          expires_at: new Date(t0 + (options.expiresIn ?? 300) * 1000).toISOString(),
        });
        return;
      }
      const token = String(req.headers.authorization).replace('Bearer ', '');
      if (options.refuse?.(token)) {
        reply(res, 401, { detail: 'The conversion token has expired.', code: 'token_expired' });
        return;
      }
      reply(res, 200, Buffer.from('%PDF-1.7'), { 'content-type': 'application/pdf' });
    });
    return () => issued;
  }

  it('gets a token, sends the tree with it as a bearer token (no session token), and names the file', async () => {
    conversionServer();
    const c = client();
    const file = await c.conversion.exportDocument(doc, 'pdf', { title: 'My plan' });
    const [tokenCall, exportCall] = server.requests;
    expect(tokenCall).toMatchObject({ method: 'POST', url: '/api/v1/apps/tiptap/convert/jwt/' });
    expect(JSON.parse(tokenCall?.body.toString() ?? '')).toEqual({ scope: 'convert' });
    expect(tokenCall?.headers['x-session-token']).toBe('tok');
    expect(exportCall).toMatchObject({ method: 'POST', url: '/api/v1/apps/tiptap/convert/export/' });
    expect(exportCall?.headers.authorization).toBe('Bearer token-1');
    expect(exportCall?.headers['x-session-token']).toBeUndefined();
    expect(JSON.parse(exportCall?.body.toString() ?? '')).toEqual({
      content: doc,
      format: 'pdf',
      title: 'My plan',
    });
    expect(file).toMatchObject({ format: 'pdf', fileName: 'My plan.pdf', contentType: 'application/pdf' });
    expect(new TextDecoder().decode(file.bytes)).toBe('%PDF-1.7');
  });

  it('keeps the token until 10 s before it expires, then asks for a new one', async () => {
    const issued = conversionServer();
    let now = t0;
    const c = client(() => now);
    await c.conversion.exportDocument(doc, 'docx');
    now = t0 + 289_000;
    await c.conversion.exportDocument(doc, 'docx');
    expect(issued()).toBe(1);
    now = t0 + 290_000;
    await c.conversion.exportDocument(doc, 'docx');
    expect(issued()).toBe(2);
  });

  it('on a 401 gets one new token and tries once more; a second 401 is the caller’s', async () => {
    const issued = conversionServer({ refuse: (token) => token === 'token-1' });
    const c = client();
    const tokenStore = c.tokenStore;
    const file = await c.conversion.exportDocument(doc, 'html');
    expect(issued()).toBe(2);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/apps/tiptap/convert/jwt/',
      '/api/v1/apps/tiptap/convert/export/',
      '/api/v1/apps/tiptap/convert/jwt/',
      '/api/v1/apps/tiptap/convert/export/',
    ]);
    expect(file.bytes.length).toBeGreaterThan(0);
    // A refused conversion token never signs the user out.
    expect(tokenStore.getToken()).toBe('tok');
    server.reset();
    conversionServer({ refuse: () => true });
    const error = await rejectionOf(client().conversion.exportDocument(doc, 'html'));
    expect(ApiError.isInstance(error) && error.status).toBe(401);
    expect(AuthRequiredError.isInstance(error)).toBe(false);
    expect(server.requests).toHaveLength(4);
  });

  it('"No export token returned by server" when the answer has none; a new session never reuses a token', async () => {
    server.handle((_req, res) => reply(res, 200, { nothing: true }));
    const error = await rejectionOf(client().conversion.exportDocument(doc, 'json'));
    expect((error as Error).message).toBe('No export token returned by server');
    server.reset();
    const issued = conversionServer();
    const store = new MemoryTokenStore({ token: 'first' });
    const c = client(undefined, store);
    await c.conversion.exportDocument(doc, 'json');
    store.setSession({ token: 'second' });
    await c.conversion.exportDocument(doc, 'json');
    expect(issued()).toBe(2);
  });

  it('reads the expiry from the JWT when the answer gives none, and shares one token request', async () => {
    const payload = Buffer.from(JSON.stringify({ exp: t0 / 1000 + 60 })).toString('base64url');
    let issued = 0;
    server.handle((req, res) => {
      if (req.url.endsWith('/jwt/')) {
        issued += 1;
        reply(res, 200, { jwt: `h.${payload}.s` });
      } else reply(res, 200, Buffer.from('x'), { 'content-type': 'application/json' });
    });
    const c = client();
    await Promise.all([c.conversion.exportDocument(doc, 'json'), c.conversion.exportDocument(doc, 'json')]);
    await c.conversion.exportDocument(doc, 'json');
    expect(issued).toBe(1);
  });
});
