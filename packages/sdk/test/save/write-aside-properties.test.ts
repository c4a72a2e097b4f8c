import { ApiError, NetworkError, RevisionConflictError } from '@planwright/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AsideOutcome,
  createHarness,
  failOnUnhandledRejections,
  type Harness,
  settle,
} from './support/save-harness.js';

type Failure = 'network' | 'rejected';

type Command =
  | { kind: 'edit' }
  | { kind: 'advance'; ms: number }
  | { kind: 'flush'; keepalive: boolean }
  | { kind: 'retryNow' }
  | { kind: 'writeAside' }
  | { kind: 'saveAnswers'; failure: Failure | null }
  | { kind: 'asideAnswers'; failure: Failure | null }
  // Only in the world with other writers:
  | { kind: 'otherWriter' }
  | { kind: 'asideAnswersGarbage' }
  | { kind: 'theirs' }
  | { kind: 'keepMine' }
  | { kind: 'reloadTheirs' };

const failure = fc.constantFrom<Failure | null>(null, null, 'network', 'rejected');

const ownCommands: fc.Arbitrary<Command>[] = [
  fc.constant({ kind: 'edit' } as const),
  fc.integer({ min: 0, max: 3000 }).map((ms) => ({ kind: 'advance', ms }) as const),
  fc.boolean().map((keepalive) => ({ kind: 'flush', keepalive }) as const),
  fc.constant({ kind: 'retryNow' } as const),
  fc.constant({ kind: 'writeAside' } as const),
  failure.map((f) => ({ kind: 'saveAnswers', failure: f }) as const),
  failure.map((f) => ({ kind: 'asideAnswers', failure: f }) as const),
];

const otherCommands: fc.Arbitrary<Command>[] = [
  fc.constant({ kind: 'otherWriter' } as const),
  fc.constant({ kind: 'asideAnswersGarbage' } as const),
  fc.constant({ kind: 'theirs' } as const),
  fc.constant({ kind: 'keepMine' } as const),
  fc.constant({ kind: 'reloadTheirs' } as const),
];

function errorOf(kind: Failure): unknown {
  return kind === 'network'
    ? new NetworkError({ cause: new TypeError('fetch failed') })
    : new ApiError({ status: 400, text: 'Invalid' });
}

/**
 * A server that checks `If-Match` on every write, content or settings, and counts what it refused. Settings
 * writes bump the revision without changing the content, as a section's settings PATCH does.
 */
class FakeServer {
  text = 'v0';
  revision = 1;
  contentConflicts = 0;
  asideConflicts = 0;

  accepts(ifMatch: number | null): boolean {
    return ifMatch === null || ifMatch === this.revision;
  }

  conflict(): RevisionConflictError {
    return new RevisionConflictError({ status: 412, data: { current_revision: this.revision } });
  }
}

/** Runs `commands`, checking after every step that one flight at most is out and no save sends a stale If-Match. */
async function run(
  commands: Command[],
): Promise<{ h: Harness; server: FakeServer; outcomes: AsideOutcome[] }> {
  const h = createHarness({ retry: { baseMs: 1000, maxMs: 30_000, maxAttempts: 4 } });
  const server = new FakeServer();
  h.load(server.text, server.revision);
  const calls: Array<{ outcome: AsideOutcome }> = [];
  let version = 0;
  let lastAdopted = 0;
  let checkedWrites = 0;

  const check = () => {
    expect(h.open().length + h.openAsides().length, 'two flights out').toBeLessThanOrEqual(1);
    expect(h.snapshot().inFlight).toBe(h.open().length === 1);
    for (const write of h.writes.slice(checkedWrites)) {
      expect(write.ifMatch, 'a content save older than an adopted revision').not.toBeNull();
      expect(write.ifMatch ?? 0).toBeGreaterThanOrEqual(lastAdopted);
    }
    checkedWrites = h.writes.length;
  };

  const answerSave = async (fail: Failure | null) => {
    const write = h.open()[0];
    if (!write) return;
    if (fail !== null) {
      write.reject(errorOf(fail));
    } else if (!server.accepts(write.ifMatch)) {
      server.contentConflicts += 1;
      write.reject(server.conflict());
    } else {
      server.text = write.content.text;
      server.revision += 1;
      write.resolve({ revision: server.revision });
    }
    await settle();
  };

  const answerAside = async (fail: Failure | null, garbage = false) => {
    const aside = h.openAsides()[0];
    if (!aside) return;
    if (fail !== null) {
      aside.reject(errorOf(fail));
    } else if (!server.accepts(aside.ifMatch)) {
      server.asideConflicts += 1;
      aside.reject(server.conflict());
    } else {
      server.revision += 1;
      if (garbage) {
        aside.resolve({ revision: String(server.revision), value: 'garbage' });
      } else {
        lastAdopted = server.revision;
        aside.resolve({ revision: server.revision, value: 'ok' });
      }
    }
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
      case 'flush':
        void h.controller.flush({ keepalive: step.keepalive });
        break;
      case 'retryNow':
        h.controller.retryNow();
        break;
      case 'writeAside':
        calls.push(h.writeAside());
        break;
      case 'saveAnswers':
        await answerSave(step.failure);
        break;
      case 'asideAnswers':
        await answerAside(step.failure);
        break;
      case 'asideAnswersGarbage':
        await answerAside(null, true);
        break;
      case 'otherWriter':
        server.text = `other ${server.revision}`;
        server.revision += 1;
        break;
      case 'theirs':
        for (const pending of h.fetches.splice(0)) {
          pending.resolve({ content: { text: server.text }, revision: server.revision });
        }
        await settle();
        break;
      case 'keepMine':
        void h.controller.resolveConflict('mine');
        break;
      case 'reloadTheirs': {
        if (h.snapshot().conflict === null) break;
        h.controller.resolveConflict('theirs');
        h.editor.text = server.text;
        h.controller.loaded({ text: server.text }, server.revision);
        break;
      }
    }
    check();
  }

  // From here on the network is healthy and nobody else writes: everything waiting runs and is answered.
  for (
    let round = 0;
    round < 60 && (h.open().length + h.openAsides().length > 0 || h.clock.pending > 0);
    round++
  ) {
    if (h.open().length > 0) await answerSave(null);
    else if (h.openAsides().length > 0) await answerAside(null);
    else h.clock.advance(60_000);
    check();
  }
  expect(h.open()).toHaveLength(0);
  expect(h.openAsides()).toHaveLength(0);
  return { h, server, outcomes: calls.map((call) => call.outcome) };
}

failOnUnhandledRejections();

describe('S24, S26 writes aside among saves (property-based)', () => {
  it('S26: alone on the server, no write ever meets a 412 and every edit and write aside ends written', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(...ownCommands), { maxLength: 40 }), async (commands) => {
        const { h, server, outcomes } = await run(commands);
        expect(server.contentConflicts, 'a content save met a 412 the controller caused').toBe(0);
        expect(server.asideConflicts, 'a write aside met a 412 the controller caused').toBe(0);
        const end = h.snapshot();
        const reported = end.dirty && end.status === 'error' && end.failure !== null;
        expect((!end.dirty && server.text === h.editor.text) || reported).toBe(true);
        expect(end.conflict).toBeNull();
        expect(outcomes.every((outcome) => outcome.state !== 'pending')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('S24, S26: with other writers and garbage answers, one flight at a time and no If-Match older than an adopted revision', async () => {
    const command = fc.oneof(...ownCommands, ...otherCommands);
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 50 }), async (commands) => {
        const { outcomes } = await run(commands);
        expect(outcomes.every((outcome) => outcome.state !== 'pending')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
