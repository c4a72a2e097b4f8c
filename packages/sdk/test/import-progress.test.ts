import type { ServerResponse } from 'node:http';
import {
  ApiError,
  createPlanwrightClient,
  type ImportProgress,
  MemoryTokenStore,
  NetworkError,
  ResponseValidationError,
  RevisionConflictError,
} from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { reply, useRecordingServer } from './support/recording-server.js';
import { DOC_UUID, documentJson } from './support/workspace-fixtures.js';

const server = useRecordingServer((_req, res) => reply(res, 200, documentJson()));

const client = () =>
  createPlanwrightClient({ baseUrl: server.origin, tokenStore: new MemoryTokenStore({ token: 'tok' }) });

const FILE = { name: 'plan.docx', bytes: new Uint8Array([1, 2, 3]) };

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

const answerBody = () => ({
  ...documentJson(),
  import_report: {
    format: 'docx',
    notes: [{ code: 'image_dropped', message: '1 image was dropped.', count: 1 }],
  },
});

/** Writes `lines` as an NDJSON answer, split at awkward places (mid-line, mid-character) as a network may. */
function streamLines(response: ServerResponse, lines: unknown[]): void {
  response.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8' });
  const text = Buffer.from(
    lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n'),
  );
  const cuts = [0, 7, 8, 9, 31, 60, 61, text.length];
  for (let i = 0; i + 1 < cuts.length; i++) response.write(text.subarray(cuts[i], cuts[i + 1]));
  response.end();
}

const PROGRESS = [
  { type: 'progress', phase: 'queued', ahead: 2, waited_ms: 0, limit_ms: 30000 },
  { type: 'progress', phase: 'converting', elapsed_ms: 0, limit_ms: 37800 },
  { type: 'progress', phase: 'converting', elapsed_ms: 1000, limit_ms: 37800 },
  { type: 'progress', phase: 'saving' },
];

describe('documents.importFile with onProgress', () => {
  it('asks for the stream, tells each phase in order, and resolves to the result as the JSON path would', async () => {
    const body = answerBody();
    server.handle((_req, res) => streamLines(res, [...PROGRESS, { type: 'result', etag: '"2"', body }, '']));
    const seen: ImportProgress[] = [];
    const result = await client().documents.importFile(DOC_UUID, FILE, {
      mode: 'replace',
      onProgress: (progress) => seen.push(progress),
    });
    expect(server.last().headers.accept).toBe('application/x-ndjson, application/json;q=0.5');
    expect(server.last().body.toString('latin1')).toMatch(/name="mode"\r\n\r\nreplace\r\n/);
    expect(seen).toEqual([
      { phase: 'uploading' },
      { phase: 'queued', ahead: 2, waitedMs: 0, limitMs: 30000 },
      { phase: 'converting', elapsedMs: 0, limitMs: 37800 },
      { phase: 'converting', elapsedMs: 1000, limitMs: 37800 },
      { phase: 'saving' },
    ]);
    server.handle((_req, res) => reply(res, 200, body));
    const plain = await client().documents.importFile(DOC_UUID, FILE, { mode: 'replace' });
    expect(server.last().headers.accept).not.toContain('ndjson');
    expect(result).toEqual(plain);
  });

  it('reads lines however the network cuts them: a result in 5-byte pieces, characters split in two', async () => {
    const body = { ...answerBody(), title: 'Plan é € 😀 — 2027' };
    const text = Buffer.from(
      [...PROGRESS, { type: 'result', etag: '"2"', body }].map((line) => JSON.stringify(line)).join('\n'),
    );
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (let at = 0; at < text.length; at += 5) res.write(text.subarray(at, at + 5));
      res.end();
    });
    const seen: ImportProgress[] = [];
    const result = await client().documents.importFile(DOC_UUID, FILE, { onProgress: (p) => seen.push(p) });
    expect(result.document.title).toBe('Plan é € 😀 — 2027');
    expect(seen).toHaveLength(1 + PROGRESS.length);
  });

  it('an error event rejects with the same ApiError the JSON answer gives (412: RevisionConflictError)', async () => {
    const refusal = {
      detail: 'The file is password-protected; remove the password in Word and try again.',
      code: 'encrypted',
    };
    server.handle((_req, res) => reply(res, 422, refusal));
    const plain = await rejectionOf(client().documents.importFile(DOC_UUID, FILE));
    server.handle((_req, res) =>
      streamLines(res, [PROGRESS[0], { type: 'error', status: 422, body: refusal }]),
    );
    const streamed = await rejectionOf(
      client().documents.importFile(DOC_UUID, FILE, { onProgress: () => {} }),
    );
    expect(ApiError.isInstance(streamed)).toBe(true);
    const fields = (error: unknown) => {
      const e = error as ApiError;
      return [e.constructor.name, e.status, e.serverCode, e.detail, e.message, e.data, e.code, e.isRetryable];
    };
    expect(fields(streamed)).toEqual(fields(plain));
    const conflict = {
      detail: 'This document was changed since you loaded it.',
      code: 'revision_mismatch',
      current_revision: 7,
    };
    server.handle((_req, res) => streamLines(res, [{ type: 'error', status: 412, body: conflict }]));
    const stale = await rejectionOf(client().documents.importFile(DOC_UUID, FILE, { onProgress: () => {} }));
    expect(RevisionConflictError.isInstance(stale) && stale.currentRevision).toBe(7);
  });

  it('a refusal before the stream (415, 413) rejects as without onProgress', async () => {
    server.handle((_req, res) =>
      reply(res, 415, { detail: 'Unsupported file type.', code: 'unsupported_format' }),
    );
    const seen: ImportProgress[] = [];
    const error = await rejectionOf(
      client().documents.importFile(DOC_UUID, FILE, { onProgress: (p) => seen.push(p) }),
    );
    expect(ApiError.isInstance(error) && [error.status, error.serverCode]).toEqual([
      415,
      'unsupported_format',
    ]);
    expect(seen).toEqual([{ phase: 'uploading' }]);
  });

  it('a server that answers plain JSON still resolves (it ignored Accept)', async () => {
    server.handle((_req, res) => reply(res, 200, answerBody()));
    const seen: ImportProgress[] = [];
    const result = await client().documents.importFile(DOC_UUID, FILE, { onProgress: (p) => seen.push(p) });
    expect(result.report.notes).toHaveLength(1);
    expect(seen).toEqual([{ phase: 'uploading' }]);
  });

  it('skips events and phases it does not know; a listener that throws does not stop the import', async () => {
    server.handle((_req, res) =>
      streamLines(res, [
        { type: 'progress', phase: 'virus_scan', elapsed_ms: 5 },
        { type: 'hint', text: 'from a newer server' },
        ...PROGRESS,
        { type: 'result', etag: '"2"', body: answerBody() },
      ]),
    );
    let calls = 0;
    const result = await client().documents.importFile(DOC_UUID, FILE, {
      onProgress: () => {
        calls += 1;
        throw new Error('listener bug');
      },
    });
    expect(calls).toBe(1 + PROGRESS.length);
    expect(result.document.uuid).toBe(DOC_UUID);
  });

  it.each([
    ['a line that is not JSON', ['{"type":"progress",']],
    [
      'a known event with wrong fields',
      [{ type: 'progress', phase: 'converting', elapsed_ms: -1, limit_ms: 'soon' }],
    ],
    ['a result whose body is not a document', [{ type: 'result', etag: '"2"', body: { uuid: 42 } }]],
    ['an error event without a detail', [{ type: 'error', status: 422, body: { code: 'x' } }]],
  ])('%s is a ResponseValidationError', async (_name, lines) => {
    server.handle((_req, res) => streamLines(res, lines));
    const error = await rejectionOf(client().documents.importFile(DOC_UUID, FILE, { onProgress: () => {} }));
    expect(ResponseValidationError.isInstance(error)).toBe(true);
  });

  it('a stream that ends before its last event is a NetworkError: the import’s fate is unknown', async () => {
    server.handle((_req, res) => streamLines(res, PROGRESS));
    const error = await rejectionOf(client().documents.importFile(DOC_UUID, FILE, { onProgress: () => {} }));
    expect(NetworkError.isInstance(error) && error.message).toMatch(/ended before its result/);
  });
});
