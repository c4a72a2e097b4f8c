import { ChatSession, type ChatSessionOptions, type ChatStreamEvent } from '@planwright/sdk';
import { FakeChatServer, ManualClock } from '@planwright/sdk/testing';

export interface HarnessOptions extends Partial<ChatSessionOptions> {
  manualCloseAck?: boolean;
  acceptDelayMs?: number;
}

/** A session wired to a fake server and a simulated clock; `random` is 0.5 so backoff delays are exact. */
export function setup(options: HarnessOptions = {}) {
  const clock = new ManualClock();
  const server = new FakeChatServer({
    clock,
    manualCloseAck: options.manualCloseAck ?? false,
    acceptDelayMs: options.acceptDelayMs ?? 0,
  });
  const logs: string[] = [];
  const auth = { token: 'tok-1' as string | null };
  let n = 0;
  const session = new ChatSession({
    baseUrl: 'http://localhost:8000',
    scope: { documentUuid: 'doc-1', sectionUuid: 'sec-1' },
    getToken: () => auth.token,
    socketFactory: server.factory,
    clock,
    random: () => 0.5,
    createId: () => `id-${++n}`,
    logger: { warn: (m) => logs.push(m), error: (m) => logs.push(m) },
    ...options,
  });
  const events: ChatStreamEvent[] = [];
  session.onStream((event) => events.push(event));
  return { clock, server, session, logs, auth, events };
}

export function frames(server: FakeChatServer, type: string) {
  return server.framesOfType(type);
}
