import { readFileSync } from 'node:fs';
import { type ImportStreamEvent, importStreamEventSchema } from '@planwright/sdk';
import { conversionBudget } from '@planwright/sdk/formats';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { corpusPath } from '../../../../tests/support/corpus-path.mjs';
import type { ConversionJob, ConversionOutput } from '../../src/formats/conversion-job.js';
import { ConversionPool, type PoolTimers, type RunOptions } from '../../src/formats/conversion-pool.js';
import { IMPORT_PROGRESS_INTERVAL_MS } from '../../src/formats/import-progress-stream.js';
import { createSignedInUser, type SignedInUser } from '../support/signed-in-user.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, createDocument } from '../support/workspace-calls.js';

/** The progress stream's heartbeat timers, fired by the test: no test waits a real second. */
function manualTimers() {
  const pending = new Map<number, () => void>();
  let next = 1;
  const timers: PoolTimers = {
    setTimeout: (callback) => {
      const id = next++;
      pending.set(id, callback);
      return id;
    },
    clearTimeout: (handle) => {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    fireAll() {
      const due = [...pending.values()];
      pending.clear();
      for (const callback of due) callback();
    },
    get pending() {
      return pending.size;
    },
  };
}

/**
 * The real pool, whose answers can be held back: the file is converted in a worker for real, but the
 * route hears of it only when the test opens the gate, so "converting" lasts exactly as long as the test
 * wants. Nothing else about the pool is changed.
 */
class GatedPool extends ConversionPool {
  #gates: Array<() => void> = [];
  #held = 0;
  holding = false;

  override run<J extends ConversionJob>(job: J, options: RunOptions): Promise<ConversionOutput<J>> {
    const answer = super.run(job, options);
    if (!this.holding) return answer;
    this.#held += 1;
    const gate = new Promise<void>((open) => this.#gates.push(open));
    return answer.then(
      async (output) => {
        await gate;
        return output;
      },
      async (error: unknown) => {
        await gate;
        throw error;
      },
    );
  }

  get held(): number {
    return this.#held;
  }

  open(): void {
    for (const open of this.#gates.splice(0)) open();
  }
}

let t: TestApp;
let base: string;
let clock = new Date('2026-11-28T10:00:00.000Z');
const now = () => clock;
const tick = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const heartbeat = manualTimers();
const pool = new GatedPool({ size: 1, timeoutMs: 10_000 });
let ada: SignedInUser;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  t = await createTestApp({}, { now, conversions: pool, timers: heartbeat.timers });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  ada = await createSignedInUser(t, { email: 'ada@example.com', firstName: 'Ada' }, now);
});
afterEach(() => {
  pool.holding = false;
  pool.open();
  expect(unhandled).toEqual([]);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await t?.close();
  await pool.close();
});

const NDJSON = 'application/x-ndjson';

function importRequest(
  uuid: string,
  file: { name: string; bytes: Uint8Array | string },
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<Response> {
  const form = new FormData();
  form.set('file', new Blob([file.bytes] as ConstructorParameters<typeof Blob>[0]), file.name);
  form.set('mode', 'replace');
  return fetch(`${base}/api/v1/documents/${uuid}/import/`, {
    method: 'POST',
    headers: { ...ada.headers, ...headers },
    body: form,
    ...(signal ? { signal } : {}),
  });
}

/** Reads the stream one event at a time, each checked against the SDK's schema (the contract). */
function eventReader(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return {
    async next(): Promise<ImportStreamEvent | undefined> {
      for (;;) {
        const newline = buffered.indexOf('\n');
        if (newline !== -1) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          return importStreamEventSchema.parse(JSON.parse(line));
        }
        const chunk = await reader.read();
        if (chunk.done) {
          expect(buffered).toBe('');
          return undefined;
        }
        buffered += decoder.decode(chunk.value, { stream: true });
      }
    },
    async rest(): Promise<ImportStreamEvent[]> {
      const events: ImportStreamEvent[] = [];
      for (let event = await this.next(); event; event = await this.next()) events.push(event);
      return events;
    },
    cancel: () => reader.cancel(),
  };
}

/** The conversion budget of a file this size: what the converting events must say as their limit. */
function smallFileLimitMs(text: string): number {
  const { timeoutMs, maxTimeoutMs, memoryMb, maxMemoryMb } = t.config.conversion;
  return conversionBudget('import', Buffer.byteLength(text), {
    baseMs: timeoutMs,
    maxMs: maxTimeoutMs,
    baseMemoryMb: memoryMb,
    maxMemoryMb,
  }).timeoutMs;
}

const MARKDOWN = '# Market\n\nThe market is large.\n\n## Size\n\nBig.\n';

describe('POST documents/{uuid}/import/ with Accept: application/x-ndjson', () => {
  it('streams queued, converting, saving, then one result: the JSON answer’s body and its ETag', async () => {
    const doc = await createDocument(t, ada);
    const res = await importRequest(doc.uuid, { name: 'plan.md', bytes: MARKDOWN }, { accept: NDJSON });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('etag')).toBeNull();
    const events = await eventReader(res).rest();
    expect(events.map((event) => (event.type === 'progress' ? event.phase : event.type))).toEqual([
      'queued',
      'converting',
      'saving',
      'result',
    ]);
    expect(events[0]).toEqual({
      type: 'progress',
      phase: 'queued',
      ahead: 0,
      waited_ms: 0,
      limit_ms: 30_000,
    });
    expect(events[1]).toEqual({
      type: 'progress',
      phase: 'converting',
      elapsed_ms: 0,
      limit_ms: smallFileLimitMs(MARKDOWN),
    });
    const result = events[3];
    if (result?.type !== 'result') throw new Error('no result');
    expect(result.body.revision).toBe(doc.revision + 1);
    expect(result.etag).toBe(`"${doc.revision + 1}"`);
    expect(result.body.import_report).toMatchObject({ format: 'md' });
    const read = await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada });
    expect(read.json().revision).toBe(doc.revision + 1);
    expect(result.body.content).toEqual(read.json().content);
    expect(heartbeat.pending).toBe(0);
  });

  it('tells the converting phase again every second with the elapsed time, until the answer', async () => {
    const doc = await createDocument(t, ada);
    pool.holding = true;
    const heldBefore = pool.held;
    const res = await importRequest(doc.uuid, { name: 'plan.md', bytes: MARKDOWN }, { accept: NDJSON });
    const events = eventReader(res);
    expect(await events.next()).toMatchObject({ phase: 'queued' });
    expect(await events.next()).toMatchObject({ phase: 'converting', elapsed_ms: 0 });
    expect(pool.held).toBe(heldBefore + 1);
    for (const second of [1, 2, 3]) {
      tick(IMPORT_PROGRESS_INTERVAL_MS);
      heartbeat.fireAll();
      expect(await events.next()).toEqual({
        type: 'progress',
        phase: 'converting',
        elapsed_ms: second * 1000,
        limit_ms: smallFileLimitMs(MARKDOWN),
      });
    }
    pool.open();
    const rest = await events.rest();
    expect(rest.map((event) => event.type)).toEqual(['progress', 'result']);
    expect(rest[0]).toEqual({ type: 'progress', phase: 'saving' });
    expect(heartbeat.pending).toBe(0);
  });

  it('a file refused at conversion time ends with one error event carrying the JSON answer’s status and body', async () => {
    const doc = await createDocument(t, ada);
    const bytes = readFileSync(corpusPath('docx-malformed/poi-bug53475-password-is-pass.docx'));
    const json = await importRequest(doc.uuid, { name: 'locked.docx', bytes }, {});
    expect(json.status).toBe(422);
    const jsonBody = await json.json();
    const res = await importRequest(doc.uuid, { name: 'locked.docx', bytes }, { accept: NDJSON });
    expect(res.status).toBe(200);
    const events = await eventReader(res).rest();
    expect(events.map((event) => event.type)).toEqual(['progress', 'progress', 'error']);
    expect(events.at(-1)).toEqual({ type: 'error', status: 422, body: jsonBody });
    expect(jsonBody).toMatchObject({ code: 'encrypted' });
    const read = await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada });
    expect(read.json().revision).toBe(doc.revision);
  });

  it('a document changed while the file converted ends with the 412 error event and its current_revision', async () => {
    const doc = await createDocument(t, ada);
    pool.holding = true;
    const res = await importRequest(
      doc.uuid,
      { name: 'plan.md', bytes: MARKDOWN },
      { accept: NDJSON, 'if-match': `"${doc.revision}"` },
    );
    const events = eventReader(res);
    await events.next();
    await events.next();
    const renamed = await call(t, 'PATCH', `documents/${doc.uuid}/`, { as: ada, body: { title: 'Renamed' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    pool.open();
    const rest = await events.rest();
    expect(rest.at(-1)).toEqual({
      type: 'error',
      status: 412,
      body: {
        detail: 'This document was changed since you loaded it.',
        code: 'revision_mismatch',
        current_revision: doc.revision + 1,
      },
    });
  });

  it('a client that goes away mid-stream harms nothing: the import is saved, the server goes on', async () => {
    const doc = await createDocument(t, ada);
    pool.holding = true;
    const abort = new AbortController();
    const res = await importRequest(
      doc.uuid,
      { name: 'gone.md', bytes: MARKDOWN },
      { accept: NDJSON },
      abort.signal,
    );
    const events = eventReader(res);
    await events.next();
    await events.next();
    abort.abort();
    await events.cancel().catch(() => {});
    // Heartbeats with no one listening, then the answer: neither may throw.
    tick(1000);
    heartbeat.fireAll();
    pool.holding = false;
    pool.open();
    // Waits for the save the test cannot hear about (the client is gone); no time is asserted.
    await vi.waitFor(
      async () => {
        const read = await call(t, 'GET', `documents/${doc.uuid}/`, { as: ada });
        expect(read.json().revision).toBe(doc.revision + 1);
      },
      { timeout: 20_000, interval: 20 },
    );
    expect(heartbeat.pending).toBe(0);
    const again = await importRequest(doc.uuid, { name: 'plan.md', bytes: MARKDOWN }, {});
    expect(again.status).toBe(200);
  });

  it('refusals found before the upload is read keep their own status and JSON body', async () => {
    const doc = await createDocument(t, ada);
    const accept = { accept: NDJSON };
    const exe = await importRequest(doc.uuid, { name: 'setup.exe', bytes: 'MZ' }, accept);
    expect([
      exe.status,
      exe.headers.get('content-type'),
      ((await exe.json()) as { code: string }).code,
    ]).toEqual([415, 'application/json; charset=utf-8', 'unsupported_format']);
    const stale = await importRequest(
      doc.uuid,
      { name: 'a.md', bytes: '# A' },
      { ...accept, 'if-match': '"99"' },
    );
    expect([stale.status, ((await stale.json()) as { current_revision: number }).current_revision]).toEqual([
      412,
      doc.revision,
    ]);
    const missing = await importRequest(
      '00000000-0000-4000-8000-000000000000',
      { name: 'a.md', bytes: '# A' },
      accept,
    );
    expect(missing.status).toBe(404);
    await missing.body?.cancel();
    const anonymous = await fetch(`${base}/api/v1/documents/${doc.uuid}/import/`, {
      method: 'POST',
      headers: accept,
      body: new FormData(),
    });
    expect(anonymous.status).toBe(401);
    await anonymous.body?.cancel();
  });

  it.each([
    ['no Accept', undefined, 'json'],
    ['application/json', 'application/json', 'json'],
    ['*/*', '*/*', 'json'],
    ['both, JSON first (the client’s order breaks a tie)', 'application/json, application/x-ndjson', 'json'],
    ['both, NDJSON first', 'application/x-ndjson, application/json', 'ndjson'],
    ['NDJSON preferred by q', 'application/json;q=0.5, application/x-ndjson', 'ndjson'],
    ['NDJSON refused (q=0)', 'application/x-ndjson;q=0', 'json'],
    ['a malformed header', 'application/x-ndjson;q=abc,,;;=', 'json'],
    ['garbage', '";,=/*;q=;;x/', 'json'],
  ])('%s (Accept: %s) → %s', async (_name, accept, expected) => {
    const doc = await createDocument(t, ada);
    const res = await importRequest(
      doc.uuid,
      { name: 'plan.md', bytes: MARKDOWN },
      accept === undefined ? {} : { accept },
    );
    expect(res.status).toBe(200);
    if (expected === 'json') {
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('etag')).toBe(`"${doc.revision + 1}"`);
      expect(((await res.json()) as { revision: number }).revision).toBe(doc.revision + 1);
    } else {
      expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
      expect((await eventReader(res).rest()).at(-1)).toMatchObject({ type: 'result' });
    }
  });

  it('is never compressed: each line leaves as it is written', async () => {
    const doc = await createDocument(t, ada);
    const res = await importRequest(
      doc.uuid,
      { name: 'plan.md', bytes: MARKDOWN.repeat(200) },
      { accept: NDJSON, 'accept-encoding': 'br, gzip' },
    );
    expect(res.headers.get('content-encoding')).toBeNull();
    expect((await eventReader(res).rest()).at(-1)).toMatchObject({ type: 'result' });
  });
});

describe('a job the pool refuses outright (full) is answered before any stream', () => {
  let full: TestApp;
  let fullBase: string;
  const refusing = new ConversionPool({ size: 1, timeoutMs: 10_000, maxQueued: 0 });
  beforeAll(async () => {
    full = await createTestApp({}, { now, conversions: refusing, timers: heartbeat.timers });
    fullBase = await full.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await full?.close();
    await refusing.close();
  });

  it('503 busy with Retry-After and its JSON body, as without the header', async () => {
    const bob = await createSignedInUser(full, { email: 'bob@example.com' }, now);
    const doc = await createDocument(full, bob);
    const form = new FormData();
    form.set('file', new Blob([MARKDOWN]), 'plan.md');
    const res = await fetch(`${fullBase}/api/v1/documents/${doc.uuid}/import/`, {
      method: 'POST',
      headers: { ...bob.headers, accept: NDJSON },
      body: form,
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('retry-after')).toBe('10');
    expect(await res.json()).toEqual({
      detail: 'Too many conversions are waiting; try again shortly.',
      code: 'busy',
    });
    expect(heartbeat.pending).toBe(0);
  });
});
