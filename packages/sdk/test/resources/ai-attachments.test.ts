import {
  AI_TEXTS,
  ApiError,
  AuthRequiredError,
  createPlanwrightClient,
  InvalidInputError,
  MemoryTokenStore,
  ResponseValidationError,
} from '@planwright/sdk';
import { describe, expect, it } from 'vitest';
import { rejectionOf } from '../support/allauth.js';
import { reply, useRecordingServer } from '../support/recording-server.js';

const answer = { name: 'notes.md', format: 'md', content: '# Notes', characters: 7, truncated: false };
const server = useRecordingServer((_req, res) => reply(res, 200, answer));
const client = () =>
  createPlanwrightClient({ baseUrl: server.origin, tokenStore: new MemoryTokenStore({ token: 'tok' }) });

describe('ai.readAttachment (AI25–AI27)', () => {
  it('AI25: POSTs the file as multipart `file` under its name and resolves to the attachment', async () => {
    const file = new File(['# Notes'], 'notes.md', { type: 'text/markdown' });
    expect(await client().ai.readAttachment(file)).toEqual(answer);
    const request = server.last();
    expect(request).toMatchObject({ method: 'POST', url: '/api/v1/apps/ai/attachments/' });
    expect(String(request.headers['content-type'])).toMatch(/^multipart\/form-data/);
    expect(request.body.toString()).toContain('name="file"; filename="notes.md"');
    expect(request.body.toString()).toContain('# Notes');
  });

  it('AI25: options.name names a Blob; anything else is refused before sending', async () => {
    await client().ai.readAttachment(new Blob(['x']), { name: 'plan.txt' });
    expect(server.last().body.toString()).toContain('filename="plan.txt"');
    const before = server.requests.length;
    const error = await rejectionOf(client().ai.readAttachment('x' as unknown as Blob));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect(server.requests.length).toBe(before);
  });

  it('AI26: a refusal rejects with the server detail; without one "Failed to read the file"; 401 stays auth', async () => {
    const detail = 'Only .md, .txt and .docx files can be attached.';
    server.handle((_req, res) => reply(res, 400, { detail, code: 'unsupported_format' }));
    const refused = await rejectionOf(client().ai.readAttachment(new File(['x'], 'a.pdf')));
    expect(ApiError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ status: 400, message: detail });
    server.handle((_req, res) => reply(res, 413, '', { 'content-type': 'text/plain' }));
    const big = await rejectionOf(client().ai.readAttachment(new File(['x'], 'a.md')));
    expect(big).toMatchObject({ status: 413, message: AI_TEXTS.attachmentFailed });
    server.handle((_req, res) => reply(res, 401, { detail: 'Sign in.' }));
    expect(AuthRequiredError.isInstance(await rejectionOf(client().ai.readAttachment(new Blob(['x']))))).toBe(
      true,
    );
  });

  it('AI27: a malformed answer is a ResponseValidationError', async () => {
    server.handle((_req, res) => reply(res, 200, { ...answer, content: 'x'.repeat(100_001) }));
    const error = await rejectionOf(client().ai.readAttachment(new File(['x'], 'a.md')));
    expect(ResponseValidationError.isInstance(error)).toBe(true);
  });
});
