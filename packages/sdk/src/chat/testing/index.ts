/**
 * `@planwright/sdk/testing`: an in-memory socket pair, a fake chat server and a manual clock, for tests of
 * apps built on `ChatSession` that need no network and no real time.
 *
 * @module @planwright/sdk/testing
 */

export type { Clock } from '../../state/clock.js';
export { ManualClock } from './manual-clock.js';
export {
  createSocketPair,
  FakeChatServer,
  type FakeChatServerOptions,
  FakeServerSocket,
  InMemoryClientSocket,
} from './socket-pair.js';
