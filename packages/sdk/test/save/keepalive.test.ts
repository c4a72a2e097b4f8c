import { createHttpClient, createPlanwrightClient } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';

const DOC_UUID = '6f1c2b0e-1111-4222-8333-944455556666';

/** A fetch that records what it was given and answers a document. */
function spyingFetch() {
  const inits: RequestInit[] = [];
  const fetch: typeof globalThis.fetch = async (_input, init) => {
    inits.push(init ?? {});
    return new Response(
      JSON.stringify({
        uuid: DOC_UUID,
        title: 'Plan',
        sections: [],
        revision: 5,
        created_at: '2026-01-01T00:00:00Z',
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    );
  };
  return { fetch, inits };
}

describe('H17 keepalive (S22)', () => {
  it('H17: passes keepalive: true to fetch only when asked', async () => {
    const { fetch, inits } = spyingFetch();
    const http = createHttpClient({ baseUrl: 'http://plans.test', fetch });
    await http.patch('documents/x/', { title: 'a' }, { keepalive: true });
    await http.patch('documents/x/', { title: 'a' });
    await http.patch('documents/x/', { title: 'a' }, { keepalive: false });
    expect(inits[0]?.keepalive).toBe(true);
    expect(inits[1]).not.toHaveProperty('keepalive');
    expect(inits[2]).not.toHaveProperty('keepalive');
  });

  it('H17: a body over 64 KiB goes without keepalive, since browsers would refuse it', async () => {
    const { fetch, inits } = spyingFetch();
    const http = createHttpClient({ baseUrl: 'http://plans.test', fetch });
    // 64 KiB of JSON exactly fits; one byte more does not. "é" is two UTF-8 bytes.
    const fits = 'x'.repeat(64 * 1024 - '{"t":""}'.length);
    await http.patch('documents/x/', { t: fits }, { keepalive: true });
    await http.patch('documents/x/', { t: `${fits}x` }, { keepalive: true });
    await http.patch('documents/x/', { t: 'é'.repeat(40 * 1024) }, { keepalive: true });
    await http.post('documents/x/', new Uint8Array(64 * 1024 + 1), { keepalive: true });
    await http.post('documents/x/', new Blob(['tiny']), { keepalive: true });
    expect(inits.map((init) => init.keepalive === true)).toEqual([true, false, false, false, true]);
  });

  it('H17: documents.update passes keepalive through with If-Match', async () => {
    const { fetch, inits } = spyingFetch();
    const client = createPlanwrightClient({ baseUrl: 'http://plans.test', fetch });
    const answer = await client.documents.update(
      DOC_UUID,
      { title: 'Plan' },
      { ifMatch: 4, keepalive: true },
    );
    expect(answer.revision).toBe(5);
    expect(inits[0]?.keepalive).toBe(true);
    expect(new Headers(inits[0]?.headers).get('if-match')).toBe('"4"');
    await client.documents.update(DOC_UUID, { title: 'Plan' }, { ifMatch: 4 });
    expect(inits[1]).not.toHaveProperty('keepalive');
  });
});
