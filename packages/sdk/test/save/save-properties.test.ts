import { ApiError, NetworkError, RevisionConflictError } from '@planwright/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHarness, settle } from './support/save-harness.js';

type Command =
  | { kind: 'edit' }
  | { kind: 'advance'; ms: number }
  | { kind: 'succeed' }
  | { kind: 'fail'; error: 'network' | 'rejected' | 'conflict' }
  | { kind: 'theirs' }
  | { kind: 'flush'; keepalive: boolean }
  | { kind: 'retryNow' }
  | { kind: 'keepMine' }
  | { kind: 'persistDraft' };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ kind: 'edit' } as const) },
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 3000 }).map((ms) => ({ kind: 'advance', ms }) as const) },
  { weight: 3, arbitrary: fc.constant({ kind: 'succeed' } as const) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom('network', 'rejected', 'conflict')
      .map((error) => ({ kind: 'fail', error }) as const),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'theirs' } as const) },
  { weight: 1, arbitrary: fc.boolean().map((keepalive) => ({ kind: 'flush', keepalive }) as const) },
  { weight: 1, arbitrary: fc.constant({ kind: 'retryNow' } as const) },
  { weight: 1, arbitrary: fc.constant({ kind: 'keepMine' } as const) },
  { weight: 1, arbitrary: fc.constant({ kind: 'persistDraft' } as const) },
);

function errorOf(kind: 'network' | 'rejected' | 'conflict', serverRevision: number): unknown {
  if (kind === 'network') return new NetworkError({ cause: new TypeError('fetch failed') });
  if (kind === 'rejected') return new ApiError({ status: 400, text: 'Invalid content' });
  return new RevisionConflictError({ status: 412, data: { current_revision: serverRevision } });
}

/** Runs the commands against a fake server, checking the invariants of S24 after every step. */
async function run(commands: Command[]): Promise<void> {
  const h = createHarness({ retry: { baseMs: 1000, maxMs: 30_000, maxAttempts: 4 } });
  const server = { text: 'v0', revision: 1 };
  h.load(server.text, server.revision);
  let version = 0;

  const check = () => {
    const snapshot = h.snapshot();
    expect(snapshot.status === 'saved' && snapshot.dirty, 'saved while dirty').toBe(false);
    expect(h.open().length, 'more than one write out').toBeLessThanOrEqual(1);
    expect(snapshot.inFlight).toBe(h.open().length === 1);
  };

  const succeed = async () => {
    const write = h.open()[0];
    if (!write) return;
    server.text = write.content.text;
    server.revision += 1;
    write.resolve({ revision: server.revision });
    await settle();
  };

  for (const step of commands) {
    switch (step.kind) {
      case 'edit':
        version += 1;
        h.type(`v${version}`);
        break;
      case 'advance':
        h.clock.advance(step.ms);
        break;
      case 'succeed':
        await succeed();
        break;
      case 'fail': {
        const write = h.open()[0];
        if (write) {
          write.reject(errorOf(step.error, server.revision));
          await settle();
        }
        break;
      }
      case 'theirs':
        for (const pending of h.fetches.splice(0)) {
          pending.resolve({ content: { text: server.text }, revision: server.revision });
        }
        await settle();
        break;
      case 'flush':
        void h.controller.flush({ keepalive: step.keepalive });
        break;
      case 'retryNow':
        h.controller.retryNow();
        break;
      case 'keepMine':
        void h.controller.resolveConflict('mine');
        break;
      case 'persistDraft':
        h.controller.persistDraft();
        break;
    }
    check();
  }

  // From here on the network is healthy: whatever is still unsaved must be written, unless it was reported.
  for (let round = 0; round < 40 && (h.open().length > 0 || h.clock.pending > 0); round += 1) {
    if (h.open().length > 0) await succeed();
    else h.clock.advance(60_000);
    check();
  }
  expect(h.open()).toHaveLength(0);
  const end = h.snapshot();
  const written = !end.dirty && server.text === h.editor.text;
  const reported = end.dirty && end.status === 'error' && (end.failure !== null || end.conflict !== null);
  expect(written || reported, `neither written nor reported: ${JSON.stringify({ end, server })}`).toBe(true);
  if (written) expect(h.storedDraft()).toBeNull();
  else expect(h.storedDraft()?.content).toBeDefined();
}

describe('S24 invariants (property-based)', () => {
  it('S24: the last edit is always written or reported, one write at a time, never saved while dirty', async () => {
    await fc.assert(fc.asyncProperty(fc.array(command, { maxLength: 40 }), run), { numRuns: 300 });
  });

  it('S24: with a healthy network every edit sequence ends written, with no draft left', async () => {
    const healthy = fc.oneof(
      fc.constant({ kind: 'edit' } as const),
      fc.integer({ min: 0, max: 2500 }).map((ms) => ({ kind: 'advance', ms }) as const),
      fc.constant({ kind: 'succeed' } as const),
      fc.boolean().map((keepalive) => ({ kind: 'flush', keepalive }) as const),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(healthy, { maxLength: 30 }), async (commands) => {
        await run(commands);
      }),
      { numRuns: 150 },
    );
  });
});
