import {
  ApiError,
  createHttpClient,
  ERROR_CODES,
  PlanwrightError,
  RevisionConflictError,
} from '@planwright/sdk';
import { describe, expect, it, vi } from 'vitest';
import { reply, useRecordingServer } from './support/recording-server.js';

const server = useRecordingServer();
const http = () => createHttpClient({ baseUrl: server.origin });

describe('H15 revision conflict', () => {
  it('a 412 rejects with RevisionConflictError, an ApiError that is not retryable', async () => {
    server.handle((_req, res) =>
      reply(res, 412, {
        detail: 'This document was changed since you loaded it.',
        code: 'revision_mismatch',
        current_revision: 6,
      }),
    );
    const error = await http()
      .patch('documents/x/', { title: 'y' }, { headers: { 'If-Match': '"4"' } })
      .catch((e: unknown) => e);
    expect(server.last().headers['if-match']).toBe('"4"');
    expect(RevisionConflictError.isInstance(error)).toBe(true);
    expect(ApiError.isInstance(error)).toBe(true);
    expect(PlanwrightError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'RevisionConflictError',
      code: ERROR_CODES.REVISION_CONFLICT,
      status: 412,
      currentRevision: 6,
      isRetryable: false,
      message: 'This document was changed since you loaded it.',
    });
  });

  it('falls back to its own message and a null revision when the body says nothing usable', async () => {
    for (const body of [
      undefined,
      'Precondition Failed',
      { current_revision: 0 },
      { current_revision: 2.5 },
    ]) {
      server.handle((_req, res) => reply(res, 412, body));
      const error = await http()
        .delete('documents/x/')
        .catch((e: unknown) => e);
      expect(error, JSON.stringify(body)).toMatchObject({
        code: 'revision_conflict',
        currentRevision: null,
        message: 'This document was changed since you loaded it.',
      });
    }
  });

  it('is recognised across copies of the SDK through its Symbol.for marker', () => {
    const foreign = {
      [Symbol.for('planwright.error')]: true,
      [Symbol.for('planwright.error.api')]: true,
      [Symbol.for('planwright.error.revision_conflict')]: true,
    };
    expect(RevisionConflictError.isInstance(foreign)).toBe(true);
    expect(RevisionConflictError.isInstance(new ApiError({ status: 412 }))).toBe(false);
    expect(RevisionConflictError.isInstance(new RevisionConflictError({ status: 412 }))).toBe(true);
  });

  it('other statuses stay plain ApiErrors', async () => {
    server.handle((_req, res) => reply(res, 409, { detail: 'conflict' }));
    const error = await http()
      .get('x')
      .catch((e: unknown) => e);
    expect(ApiError.isInstance(error) && !RevisionConflictError.isInstance(error)).toBe(true);
  });
});

describe('H16 response headers', () => {
  it('onHeaders sees the headers of an OK answer before the body is parsed', async () => {
    server.handle((_req, res) => reply(res, 200, { ok: true }, { etag: '"3"' }));
    const onHeaders = vi.fn((headers: Headers) => headers.get('etag'));
    expect(await http().get('x', { onHeaders })).toEqual({ ok: true });
    expect(onHeaders).toHaveBeenCalledTimes(1);
    expect(onHeaders.mock.results[0]?.value).toBe('"3"');
  });

  it('is not called for a failed answer', async () => {
    server.handle((_req, res) => reply(res, 500, 'no', { etag: '"3"' }));
    const onHeaders = vi.fn();
    await expect(http().get('x', { onHeaders })).rejects.toSatisfy(ApiError.isInstance);
    expect(onHeaders).not.toHaveBeenCalled();
  });
});
