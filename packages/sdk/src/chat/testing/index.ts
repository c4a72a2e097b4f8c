export { ManualClock } from './manual-clock.js';
export {
  createSocketPair,
  FakeChatServer,
  type FakeChatServerOptions,
  FakeServerSocket,
  InMemoryClientSocket,
} from './socket-pair.js';
