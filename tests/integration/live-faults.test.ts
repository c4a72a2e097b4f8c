/**
 * Live plans under faults (issue 21 "Faults"; src/live/SPEC.md LF1–LF2): the server is its own OS process
 * (tests/support/server-process.ts), killed with SIGKILL while two Node clients type into one live plan
 * through the SDK's `LiveDocument`, and restarted over the same data.
 *
 * LF1 Nothing typed is lost to kill -9. Each client types into its own paragraph and both into a shared one,
 *     in seeded random bursts; the server is killed at seeded moments (everything stored, or changes in
 *     flight), the clients type on while it is down, and reconnect by themselves once it is back. After every
 *     restart each client ends saved, and the server (read over REST, which derives first) holds every
 *     character each client typed: its own paragraph exactly, the shared one character for character.
 *     (It found LV7: a plan whose live state was never derived lost what was typed since to its stale
 *     stored content when it was loaded again.)
 * LF2 A client offline while the other types merges on return: the plan converges with everything kept.
 */

import { createServer, type Socket } from 'node:net';
import { type LiveDocument, openLiveDocument, readLiveContent } from '@planwright/sdk/live';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startFaultProxy } from '../support/fault-proxy.js';
import {
  allStored as allStoredReplicas,
  sortedCharacters,
  storedParagraphs as storedParagraphsOf,
  typeIntoParagraph,
  until as untilSnapshot,
} from '../support/live-replicas.js';
import { type SdkAccount, signUpWithSdk } from '../support/sdk-accounts.js';
import { seededRandom, seedFrom } from '../support/seeded-random.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

const SEED = seedFrom('LIVE_CRASH_SEED');
const KILLS = Number(process.env.LIVE_CRASH_KILLS ?? 20);
const random = seededRandom(SEED);
const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

let server: ServerProcess;
let owner: SdkAccount;
const opened: LiveDocument[] = [];

beforeAll(async () => {
  console.log(`live-faults seed: ${SEED} (replay with LIVE_CRASH_SEED=${SEED})`);
  server = await startServerProcess({ env: { LIVE_DOCUMENTS: 'on', LIVE_DERIVE_DEBOUNCE_MS: '100' } });
  owner = await signUpWithSdk(server, 'live-faults@example.com');
}, 120_000);

afterAll(async () => {
  for (const live of opened) live.destroy();
  await server?.close();
});

function open(documentId: string, baseUrl = server.url): LiveDocument {
  const live = openLiveDocument({
    baseUrl,
    documentId,
    token: owner.tokenStore.getToken,
    WebSocket,
    // A restarted server is found within a quarter second, so twenty kills fit in a test.
    reconnect: { delayMs: 50, maxDelayMs: 250 },
  });
  opened.push(live);
  return live;
}

const context = ` (seed ${SEED})`;
const until = (live: LiveDocument, ready: () => boolean, what: string) =>
  untilSnapshot(live, ready, what, { context });
const allStored = (replicas: Record<string, LiveDocument>, when: string, deadlineMs?: number) =>
  allStoredReplicas(replicas, when, { context, ...(deadlineMs ? { deadlineMs } : {}) });
const type = typeIntoParagraph;
const sorted = sortedCharacters;
const storedParagraphs = (documentId: string) => storedParagraphsOf(owner.client, documentId);

async function newPlan(): Promise<string> {
  const blueprints = await owner.client.blueprints.available();
  const blueprint = blueprints.items.find((item) => item.title === 'Business Plan');
  if (!blueprint) throw new Error('no Business Plan blueprint');
  return (await owner.client.documents.create({ blueprint: blueprint.uuid, title: 'Live faults' })).uuid;
}

describe('live plans under faults', () => {
  it(`LF1 ${KILLS} SIGKILLs during typing from two clients lose no character`, async () => {
    const started = Date.now();
    const documentId = await newPlan();
    const ada = open(documentId);
    const bob = open(documentId);
    await until(ada, () => ada.getSnapshot().synced, 'ada synced');
    await until(bob, () => bob.getSnapshot().synced, 'bob synced');
    // Paragraph 0 is Ada's, 1 Bob's, 2 both of theirs.
    const typed = { ada: '', bob: '', shared: '' };
    const burst = (who: 'ada' | 'bob', live: LiveDocument) => {
      const own = Array.from({ length: between(1, 6) }, () => 'abcdefghij'[between(0, 9)]).join('');
      type(live.document, who === 'ada' ? 0 : 1, own);
      typed[who] += own;
      if (random() < 0.5) {
        const shared = who === 'ada' ? 'A' : 'B';
        type(live.document, 2, shared);
        typed.shared += shared;
      }
    };
    for (let kill = 1; kill <= KILLS; kill++) {
      burst('ada', ada);
      burst('bob', bob);
      // Half the kills find everything stored, half find changes in flight.
      if (random() < 0.5) {
        await until(ada, () => ada.getSnapshot().saved, `ada saved before kill ${kill}`);
        await until(bob, () => bob.getSnapshot().saved, `bob saved before kill ${kill}`);
      }
      await server.kill9();
      // Typing goes on while the server is down; the replicas keep it.
      burst('ada', ada);
      burst('bob', bob);
      await server.start();
      await allStored({ ada, bob }, `after kill ${kill}`);
      const stored = await storedParagraphs(documentId);
      // A third replica, fresh from the server's state, has it too.
      const fresh = open(documentId);
      await until(fresh, () => fresh.getSnapshot().synced, `a fresh replica after kill ${kill}`);
      expect(readLiveContent(fresh.document).document).toEqual(readLiveContent(ada.document).document);
      fresh.destroy();
      expect(stored[0], `Ada's paragraph after kill ${kill} (seed ${SEED})`).toBe(typed.ada);
      expect(stored[1], `Bob's paragraph after kill ${kill} (seed ${SEED})`).toBe(typed.bob);
      expect(sorted(stored[2] ?? ''), `the shared paragraph after kill ${kill} (seed ${SEED})`).toBe(
        sorted(typed.shared),
      );
    }
    // Both replicas converged on the server's state.
    expect(readLiveContent(ada.document).document).toEqual(readLiveContent(bob.document).document);
    console.log(`live-faults: ${KILLS} kills in ${Date.now() - started} ms`);
  }, 600_000);

  it('LF2 a client offline while the other types merges on return, everything kept', async () => {
    const documentId = await newPlan();
    const ada = open(documentId);
    await until(ada, () => ada.getSnapshot().synced, 'ada synced');
    // Bob's replica is made while connected, then goes offline (its socket closed) and types there.
    const bob = open(documentId);
    await until(bob, () => bob.getSnapshot().synced, 'bob synced');
    bob.destroy();
    type(bob.document, 1, 'typed offline');
    type(ada.document, 0, 'typed online');
    await ada.whenSaved();
    // Back: a new connection with the same replica sends what the server lacks.
    const back = openLiveDocument({
      baseUrl: server.url,
      documentId,
      token: owner.tokenStore.getToken,
      WebSocket,
      document: bob.document,
    });
    opened.push(back);
    await until(back, () => back.getSnapshot().synced && back.getSnapshot().saved, 'bob back and saved');
    await new Promise<void>((resolve) => {
      const check = () => {
        if (!JSON.stringify(readLiveContent(ada.document).document).includes('typed offline')) return;
        ada.document.off('update', check);
        resolve();
      };
      ada.document.on('update', check);
      check();
    });
    expect(readLiveContent(ada.document).document).toEqual(readLiveContent(back.document).document);
    const stored = await storedParagraphs(documentId);
    expect(stored.slice(0, 2)).toEqual(['typed online', 'typed offline']);
  });

  it('LF3 200 cycles of dropped and stalled connections while both type: every replica converges', async () => {
    const documentId = await newPlan();
    const proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
    try {
      const ada = open(documentId, proxy.url);
      const bob = open(documentId, proxy.url);
      await until(ada, () => ada.getSnapshot().synced, 'ada synced');
      await until(bob, () => bob.getSnapshot().synced, 'bob synced');
      const typed = { ada: '', bob: '', shared: '' };
      let stalled = false;
      for (let cycle = 0; cycle < 200; cycle++) {
        for (const [who, live] of [
          ['ada', ada],
          ['bob', bob],
        ] as const) {
          const own = 'xyz'.repeat(between(0, 2));
          type(live.document, who === 'ada' ? 0 : 1, own);
          typed[who] += own;
          if (random() < 0.3) {
            type(live.document, 2, who === 'ada' ? 'A' : 'B');
            typed.shared += who === 'ada' ? 'A' : 'B';
          }
        }
        const fault = random();
        if (fault < 0.1) {
          // A drop ends a stall (the proxy would hold new connections too).
          proxy.resume();
          proxy.resetAll();
          stalled = false;
          // Typing goes on offline; then both are back (a new connection each, synced again).
          type(ada.document, 0, 'o');
          typed.ada += 'o';
          // Back and stored: what was typed while the link was cut reached the server again.
          await allStored({ ada, bob }, `after the drop of cycle ${cycle}`);
        } else if (fault < 0.2 && !stalled) {
          proxy.stallAll();
          stalled = true;
        } else if (stalled && fault < 0.5) {
          proxy.resume();
          stalled = false;
        }
        // Let the sockets move (a reconnect, a sync) before the next cycle.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      proxy.resume();
      await allStored({ ada, bob }, 'after the faults', 60_000);
      const stored = await storedParagraphs(documentId);
      expect(stored[0], `seed ${SEED}`).toBe(typed.ada);
      expect(stored[1], `seed ${SEED}`).toBe(typed.bob);
      expect(sorted(stored[2] ?? ''), `seed ${SEED}`).toBe(sorted(typed.shared));
      const fresh = open(documentId);
      await until(fresh, () => fresh.getSnapshot().synced, 'a fresh replica');
      // The clients converge with the server once each has the other's last changes.
      await new Promise<void>((resolve) => {
        const same = () =>
          JSON.stringify(readLiveContent(ada.document).document) ===
            JSON.stringify(readLiveContent(fresh.document).document) &&
          JSON.stringify(readLiveContent(bob.document).document) ===
            JSON.stringify(readLiveContent(fresh.document).document);
        const check = () => {
          if (!same()) return;
          ada.document.off('update', check);
          bob.document.off('update', check);
          resolve();
        };
        ada.document.on('update', check);
        bob.document.on('update', check);
        check();
      });
      // The faults really happened: the clients connected again and again.
      expect(proxy.accepted).toBeGreaterThan(10);
      console.log(`live-faults LF3: ${proxy.accepted} connections through the proxy`);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('LF4 closing a live document whose socket never finished connecting throws nothing in Node', async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    if (typeof address !== 'object' || !address) throw new Error('no port');
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const live = openLiveDocument({
        baseUrl: `http://127.0.0.1:${address.port}`,
        documentId: '00000000-0000-4000-8000-000000000000',
        token: () => 'unused',
        WebSocket,
      });
      await new Promise<void>((resolve) => {
        const check = () => {
          if (held.length > 0) resolve();
          else setImmediate(check);
        };
        check();
      });
      expect(live.getSnapshot().status).toBe('connecting');
      live.destroy();
      // The abort's error event is emitted on a later tick.
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('LF5 hostile sockets are closed or refused cleanly, learn nothing, and the server keeps serving', async () => {
    const documentId = await newPlan();
    const ada = open(documentId);
    await until(ada, () => ada.getSnapshot().synced, 'ada synced');
    const secret = 'hostile-sockets-must-not-read-this';
    type(ada.document, 0, secret);
    await ada.whenSaved();
    const socketUrl = `${server.url.replace('http', 'ws')}/ws/collab/`;
    const varString = (text: string | Buffer) => {
      const bytes = typeof text === 'string' ? Buffer.from(text) : text;
      return Buffer.concat([varUint(bytes.length), bytes]);
    };
    const varUint = (value: number) => {
      const out: number[] = [];
      let rest = value;
      while (rest > 0x7f) {
        out.push(0x80 | (rest & 0x7f));
        rest = Math.floor(rest / 128);
      }
      out.push(rest);
      return Buffer.from(out);
    };
    // Hocuspocus's auth message: document name, type 2 (auth), 0 (token), the token.
    const auth = (name: string, token: string | Buffer) =>
      Buffer.concat([varString(name), varUint(2), varUint(0), varString(token)]);
    const token = owner.tokenStore.getToken() ?? '';
    const garbage = (length: number) => Buffer.from(Array.from({ length }, () => between(0, 255)));
    /** Sends `frames` on a raw socket; resolves with how it ended and everything the server sent. */
    const hostile = (frames: Buffer[]) =>
      new Promise<{ closed: number | null; received: Buffer }>((resolve) => {
        const socket = new WebSocket(socketUrl);
        const received: Buffer[] = [];
        let closed: number | null = null;
        socket.on('message', (data: Buffer) => received.push(Buffer.from(data)));
        socket.on('error', () => {});
        socket.on('close', (code) => {
          closed = code;
          resolve({ closed, received: Buffer.concat(received) });
        });
        socket.on('open', () => {
          for (const frame of frames) socket.send(frame);
          // The pong follows the frames' handling, so whatever the server meant to answer has been sent.
          socket.ping();
          socket.once('pong', () => {
            setTimeout(() => {
              if (closed === null) socket.close();
            }, 0);
          });
        });
      });
    const cases: Array<[string, Buffer[]]> = [
      ['random bytes', Array.from({ length: 10 }, () => garbage(between(1, 2048)))],
      ['a name whose length runs past the frame', [Buffer.from([0xff, 0xff, 0xff, 0x0f, 0x61])]],
      ['an empty frame', [Buffer.alloc(0)]],
      ['a name that is no plan', [auth('../etc/passwd', token), auth(`blueprint/${documentId}`, token)]],
      ['the plan with a garbage token', [auth(`document/${documentId}`, garbage(300))]],
      ['the plan with a 512 KiB token', [auth(`document/${documentId}`, 'x'.repeat(512 * 1024))]],
      [
        'a sync message before authenticating',
        [
          Buffer.concat([
            varString(`document/${documentId}`),
            varUint(0),
            varUint(0),
            varString(Buffer.from([0])),
          ]),
        ],
      ],
      ['garbage after the plan name', [Buffer.concat([varString(`document/${documentId}`), garbage(512)])]],
      ['an oversized frame', [Buffer.alloc(20 * 1024 * 1024, 7)]],
    ];
    for (const [what, frames] of cases) {
      const outcome = await hostile(frames);
      expect(outcome.received.includes(Buffer.from(secret)), `${what}: nothing of the plan is sent`).toBe(
        false,
      );
      console.log(`live-faults LF5 ${what}: closed ${outcome.closed}, ${outcome.received.length} bytes back`);
      // Past the frame limit the server closes the socket as too big (1009) before the protocol reads it; a
      // client still writing the frame may see the connection cut (1006) before it reads that close frame.
      if (what === 'an oversized frame') expect([1006, 1009]).toContain(outcome.closed);
      // The server lives on: REST answers and Ada's typing is still stored.
      const health = await fetch(`${server.url}/api/v1/health`);
      expect(health.status, what).toBe(200);
      type(ada.document, 1, 'x');
      await ada.whenSaved();
    }
    expect((await storedParagraphs(documentId))[1]).toBe('x'.repeat(cases.length));
  }, 120_000);
});
