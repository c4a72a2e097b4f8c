/**
 * An instance killed mid-typing (issue 21 "Two instances on PostgreSQL + Redis … one instance killed";
 * src/live/SPEC.md LR7): two server processes on one PostgreSQL and one Redis, Ada reaching instance A through
 * a load balancer (tests/support/tcp-proxy.ts), Bob on instance B, both typing in seeded bursts. A is killed
 * with SIGKILL with changes in flight and the balancer sends Ada's reconnection to B; typing goes on. Both
 * end saved, and B, a fresh replica and A once restarted hold every character each of them typed.
 */

import { type LiveDocument, openLiveDocument, readLiveContent } from '@planwright/sdk/live';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  allStored,
  sortedCharacters,
  storedParagraphs,
  typeIntoParagraph,
  until,
} from '../support/live-replicas.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { type SdkAccount, signUpWithSdk } from '../support/sdk-accounts.js';
import { seededRandom, seedFrom } from '../support/seeded-random.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

const SEED = seedFrom('LIVE_SCALE_KILL_SEED');
const random = seededRandom(SEED);
const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const context = ` (seed ${SEED}, replay with LIVE_SCALE_KILL_SEED=${SEED})`;

let postgres: TestPostgres;
let redis: TestRedis;
let a: ServerProcess;
let b: ServerProcess;
let balancer: TcpProxy;
let owner: SdkAccount;
const opened: LiveDocument[] = [];

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  const env = {
    DATABASE_URL: await postgres.createDatabase(),
    REDIS_URL: redis.url,
    LIVE_DOCUMENTS: 'on',
    LIVE_DERIVE_DEBOUNCE_MS: '100',
  };
  a = await startServerProcess({ env });
  b = await startServerProcess({ env });
  const port = (server: ServerProcess) => Number(new URL(server.url).port);
  balancer = await startTcpProxy([
    { host: '127.0.0.1', port: port(a) },
    { host: '127.0.0.1', port: port(b) },
  ]);
  // Until A fails, the balancer sends everyone who comes through it to A.
  balancer.drop(1);
  owner = await signUpWithSdk(b, 'live-scale-kill@example.com');
}, 600_000);

afterAll(async () => {
  for (const live of opened) live.destroy();
  await balancer?.close();
  await Promise.allSettled([a?.close(), b?.close()]);
  await Promise.allSettled([redis?.stop(), postgres?.stop()]);
});

function open(baseUrl: string, documentId: string): LiveDocument {
  const live = openLiveDocument({
    baseUrl,
    documentId,
    token: owner.tokenStore.getToken,
    WebSocket,
    reconnect: { delayMs: 50, maxDelayMs: 250 },
  });
  opened.push(live);
  return live;
}

describe('live plans across instances when one is killed', () => {
  it('LR7 instance A killed mid-typing: its people reconnect to B, and every character either typed is kept', async () => {
    console.log(`live-scale-out-kill seed: ${SEED}`);
    const blueprints = await owner.client.blueprints.available();
    const blueprint = blueprints.items.find((item) => item.title === 'Business Plan');
    if (!blueprint) throw new Error('no Business Plan blueprint');
    const { uuid } = await owner.client.documents.create({
      blueprint: blueprint.uuid,
      title: 'Two instances',
    });
    const ada = open(balancer.url, uuid);
    const bob = open(b.url, uuid);
    await until(ada, () => ada.getSnapshot().synced, 'ada synced', { context });
    await until(bob, () => bob.getSnapshot().synced, 'bob synced', { context });
    expect(balancer.accepted).toEqual([1, 0]);

    // Paragraph 0 is Ada's, 1 Bob's, 2 both of theirs.
    const typed = { ada: '', bob: '', shared: '' };
    const burst = (who: 'ada' | 'bob', live: LiveDocument) => {
      const own = Array.from({ length: between(1, 6) }, () => 'abcdefghij'[between(0, 9)]).join('');
      typeIntoParagraph(live.document, who === 'ada' ? 0 : 1, own);
      typed[who] += own;
      if (random() < 0.5) {
        const mark = who === 'ada' ? 'A' : 'B';
        typeIntoParagraph(live.document, 2, mark);
        typed.shared += mark;
      }
    };
    // Checked on every change either replica takes in.
    const converged = (when: string) =>
      new Promise<void>((resolve, reject) => {
        const same = () =>
          JSON.stringify(readLiveContent(ada.document).document) ===
          JSON.stringify(readLiveContent(bob.document).document);
        const timer = setTimeout(() => {
          stop();
          reject(new Error(`ada and bob did not converge ${when}${context}`));
        }, 30_000);
        const check = () => {
          if (!same()) return;
          stop();
          resolve();
        };
        const stop = () => {
          clearTimeout(timer);
          ada.document.off('update', check);
          bob.document.off('update', check);
        };
        ada.document.on('update', check);
        bob.document.on('update', check);
        check();
      });
    for (let round = 0; round < 20; round++) {
      burst('ada', ada);
      burst('bob', bob);
      // On two instances, each sees the other's typing through Redis.
      if (round % 5 === 4) {
        await allStored({ ada, bob }, `in round ${round}`, { context });
        await converged(`in round ${round}`);
      }
    }
    // Killed with Ada's last bursts in flight; the balancer sees A fail and sends new connections to B.
    burst('ada', ada);
    burst('bob', bob);
    await a.kill9();
    balancer.drop(0);
    balancer.restore(1);
    for (let round = 0; round < 20; round++) {
      burst('ada', ada);
      burst('bob', bob);
    }
    await allStored({ ada, bob }, 'after A was killed', { context });
    expect(balancer.accepted[1]).toBeGreaterThan(0);

    const check = (stored: string[], where: string) => {
      expect(stored[0], `Ada's paragraph on ${where}${context}`).toBe(typed.ada);
      expect(stored[1], `Bob's paragraph on ${where}${context}`).toBe(typed.bob);
      expect(sortedCharacters(stored[2] ?? ''), `the shared paragraph on ${where}${context}`).toBe(
        sortedCharacters(typed.shared),
      );
    };
    await converged('after A was killed');
    // The owner's client talks to B (signed up there).
    check(await storedParagraphs(owner.client, uuid), 'instance B');
    const fresh = open(b.url, uuid);
    await until(fresh, () => fresh.getSnapshot().synced, 'a fresh replica on B', { context });
    expect(readLiveContent(fresh.document).document).toEqual(readLiveContent(bob.document).document);

    // A back: it loads the plan from the shared log and has everything too.
    await a.start();
    const onA = open(a.url, uuid);
    await until(onA, () => onA.getSnapshot().synced, 'a replica on the restarted A', { context });
    expect(readLiveContent(onA.document).document).toEqual(readLiveContent(bob.document).document);
  }, 300_000);
});
