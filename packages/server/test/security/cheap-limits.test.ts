import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ConversionBusyError } from '../../src/formats/conversion-pool.js';
import { conversionFailure } from '../../src/formats/file-answers.js';
import { HttpError } from '../../src/http/http-error.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createDocument } from '../support/workspace-calls.js';

// Issue 20 §10: the cheap checks (session, content type, byte length, UTF-8) come before any costly work.

let t: TestApp;
let base: string;
let ada: SignedInUser;
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

beforeAll(async () => {
  t = await createTestApp({}, { logger: { level: 'info', stream: logStream } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  ada = await createSignedInUser(t, { email: 'ada@example.com' });
});
afterAll(async () => {
  await t?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** How many body bytes had been written when the answer's head arrived. */
  sentBeforeAnswer: number;
}

/**
 * Sends the head of a request announcing `declaredBytes` of body, then only `firstChunk`, and waits for
 * the answer. An answer can only come if the server decided without reading the rest of the body, so a
 * server that reads first makes this test time out rather than pass.
 */
function sendHeadOnly(
  method: string,
  path: string,
  headers: Record<string, string>,
  declaredBytes: number,
  firstChunk: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    const req = httpRequest(`${base}${path}`, {
      method,
      headers: { ...headers, 'content-length': String(declaredBytes) },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          sentBeforeAnswer: sent,
        });
        req.destroy();
      });
    });
    // The server may close the connection once it has answered: that is fine here.
    req.on('error', (error) => {
      if (!(error as { code?: string }).code?.startsWith('ECONNRESET')) reject(error);
    });
    req.write(firstChunk, () => {
      sent += firstChunk.length;
    });
  });
}

async function send(method: string, path: string, headers: Record<string, string>, body: Buffer) {
  const res = await fetch(`${base}${path}`, { method, headers, body });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

const FOUR_POINT_NINE_MB = Math.round(4.9 * 1024 * 1024);
const jsonStart = Buffer.from(`{"description":"${'x'.repeat(64 * 1024)}`);

describe('SEC-L1: the session is checked before a large body is read', () => {
  const routes = [
    ['PATCH', '/api/v1/documents/00000000-0000-4000-8000-000000000000/'],
    ['PUT', '/api/v1/documents/00000000-0000-4000-8000-000000000000/'],
    ['PATCH', '/api/v1/blueprints/00000000-0000-4000-8000-000000000000/'],
    [
      'PUT',
      '/api/v1/documents/00000000-0000-4000-8000-000000000000/sections/00000000-0000-4000-8000-000000000001/content/',
    ],
    ['POST', '/api/v1/apps/ai/transform/'],
  ] as const;
  for (const [method, path] of routes) {
    it(`${method} ${path.replace(/0{8}-[-0-9]+/g, '{uuid}')}: an anonymous 4.9 MB body answers 401 unread`, async () => {
      const answer = await sendHeadOnly(
        method,
        path,
        { 'content-type': 'application/json' },
        FOUR_POINT_NINE_MB,
        jsonStart,
      );
      expect(answer.status, answer.body).toBe(401);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'not_authenticated' });
      expect(answer.sentBeforeAnswer).toBeLessThan(FOUR_POINT_NINE_MB);
      // The connection closes, so the server does not read the rest of the body to keep it.
      expect(answer.headers.connection).toBe('close');
    });
  }

  it('an expired or unknown session token is refused the same way', async () => {
    const answer = await sendHeadOnly(
      'PATCH',
      '/api/v1/documents/00000000-0000-4000-8000-000000000000/',
      { 'content-type': 'application/json', 'x-session-token': 'not-a-session' },
      FOUR_POINT_NINE_MB,
      jsonStart,
    );
    expect(answer.status).toBe(401);
  });

  it('the conversion endpoint checks its bearer token before reading the body', async () => {
    const answer = await sendHeadOnly(
      'POST',
      '/api/v1/apps/tiptap/convert/export/',
      { 'content-type': 'application/json', authorization: 'Bearer forged' },
      FOUR_POINT_NINE_MB,
      Buffer.from('{"format":"pdf","content":'),
    );
    expect(answer.status, answer.body).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'token_invalid' });
  });

  it('a signed-in user’s large valid body is still read and saved', async () => {
    const doc = await createDocument(t, ada);
    const description = 'y'.repeat(5_000);
    const res = await send(
      'PATCH',
      `/api/v1/documents/${doc.uuid}/`,
      { ...ada.headers, 'content-type': 'application/json' },
      Buffer.from(JSON.stringify({ description })),
    );
    expect(res.status).toBe(200);
    expect(res.json.description).toBe(description);
  });
});

describe('SEC-L2: an upload’s type is judged before it is read', () => {
  it('a 19 MB .exe import answers 415 before its bytes are sent', async () => {
    const doc = await createDocument(t, ada);
    const boundary = '----planwright-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="setup.exe"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\nMZ${'\u0000'.repeat(64 * 1024)}`,
    );
    const answer = await sendHeadOnly(
      'POST',
      `/api/v1/documents/${doc.uuid}/import/`,
      { ...ada.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      19 * 1024 * 1024,
      head,
    );
    expect(answer.status, answer.body).toBe(415);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'unsupported_format' });
    expect(answer.headers.connection).toBe('close');
    expect(answer.sentBeforeAnswer).toBeLessThan(19 * 1024 * 1024);
  });

  it('an anonymous upload answers 401 before it is read', async () => {
    const boundary = '----planwright-test-boundary';
    const answer = await sendHeadOnly(
      'POST',
      '/api/v1/documents/00000000-0000-4000-8000-000000000000/import/',
      { 'content-type': `multipart/form-data; boundary=${boundary}` },
      19 * 1024 * 1024,
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="plan.md"\r\n\r\n#`,
      ),
    );
    expect(answer.status).toBe(401);
  });
});

describe('SEC-L3: JSON bodies must be valid UTF-8', () => {
  it('invalid UTF-8 answers 400 invalid_utf8 and stores nothing', async () => {
    const doc = await createDocument(t, ada);
    const body = Buffer.concat([
      Buffer.from('{"description":"caf'),
      Buffer.from([0xc3, 0x28]), // a lead byte followed by a byte that cannot continue it
      Buffer.from('"}'),
    ]);
    const res = await send(
      'PATCH',
      `/api/v1/documents/${doc.uuid}/`,
      { ...ada.headers, 'content-type': 'application/json' },
      body,
    );
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code: 'invalid_utf8', detail: 'The body is not valid UTF-8 text.' });
    const stored = await fetch(`${base}/api/v1/documents/${doc.uuid}/`, { headers: ada.headers });
    expect(((await stored.json()) as { description: string }).description).toBe('');
  });

  for (const [name, bytes] of [
    ['a lone continuation byte', [0x80]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a truncated 4-byte sequence', [0xf0, 0x9f, 0x98]],
  ] as const) {
    it(`refuses ${name}`, async () => {
      const doc = await createDocument(t, ada);
      const body = Buffer.concat([Buffer.from('{"title":"a'), Buffer.from(bytes), Buffer.from('"}')]);
      const res = await send(
        'PATCH',
        `/api/v1/documents/${doc.uuid}/`,
        { ...ada.headers, 'content-type': 'application/json' },
        body,
      );
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('invalid_utf8');
    });
  }

  it('valid multi-byte text and a byte-order mark are still accepted', async () => {
    const doc = await createDocument(t, ada);
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(JSON.stringify({ title: 'Café 🚀 計画' })),
    ]);
    const res = await send(
      'PATCH',
      `/api/v1/documents/${doc.uuid}/`,
      { ...ada.headers, 'content-type': 'application/json' },
      body,
    );
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.title).toBe('Café 🚀 計画');
  });
});

describe('SEC-L4: text limits count characters only when the length leaves it open', () => {
  const patchDescription = async (description: string) => {
    const doc = await createDocument(t, ada);
    return send(
      'PATCH',
      `/api/v1/documents/${doc.uuid}/`,
      { ...ada.headers, 'content-type': 'application/json' },
      Buffer.from(JSON.stringify({ description })),
    );
  };

  it('a 4.9 MB description is refused as too long', async () => {
    const res = await patchDescription('x'.repeat(FOUR_POINT_NINE_MB - 100));
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([
      { param: 'description', code: 'invalid', message: 'Description must be at most 5,000 characters' },
    ]);
  });

  it('5,000 emoji (10,000 UTF-16 units) fit; 5,001 do not', async () => {
    expect((await patchDescription('🚀'.repeat(5_000))).status).toBe(200);
    expect((await patchDescription('🚀'.repeat(5_001))).status).toBe(400);
  });
});

describe('SEC-L6: conversion limits over HTTP', () => {
  it('too many of a user’s own conversions answer 429 with Retry-After; a full queue 503', () => {
    const own = conversionFailure(new ConversionBusyError('owner_limit', 'You have 4…', 10));
    expect(own instanceof HttpError && [own.statusCode, own.code, own.headers]).toEqual([
      429,
      'too_many_conversions',
      { 'retry-after': '10' },
    ]);
    const full = conversionFailure(new ConversionBusyError('queue_timeout', 'waited', 10));
    expect(full instanceof HttpError && [full.statusCode, full.headers]).toEqual([
      503,
      { 'retry-after': '10' },
    ]);
  });
});

describe('SEC-L5: socket protocol errors', () => {
  it('a frame over the size limit is logged once at warn, with its code and no stack', async () => {
    const doc = await createDocument(t, ada);
    const url = `${base.replace('http', 'ws')}/ws/document/${doc.uuid}/chat/`;
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.on('error', () => {});
    ws.send('x'.repeat(2 * 1024 * 1024 + 1));
    const code = await closed;
    expect(code).toBe(1009); // "message too big"
    const entries = logLines
      .map(
        (line) => JSON.parse(line) as { level: number; msg: string; err?: { code?: string; stack?: string } },
      )
      .filter((entry) => entry.msg === 'websocket client error');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ level: 40, err: { code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' } });
    expect(entries[0]?.err?.stack ?? '').toBe('');
    expect(logLines.some((line) => line.includes('"level":50'))).toBe(false);
  });
});
