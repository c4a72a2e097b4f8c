import type { OutgoingChatFrame } from './chat-frames.js';
import type { FrameSink } from './chat-turn.js';

/**
 * One answer streaming on this instance, and every socket it streams to (CH18). The socket that asked is the
 * first; a socket that reconnects to the same chat while the answer streams joins it: it gets the text so far
 * (the latest cumulative `ai` frame) and every frame after, so the answer keeps streaming across a reconnect.
 */
export class LiveChatTurn {
  private readonly sinks = new Set<FrameSink>();
  private latestText: Extract<OutgoingChatFrame, { type: 'ai' }> | null = null;

  constructor(
    /** Aborts the answer: a `stop` from any joined socket stops it (CH11). */
    readonly controller: AbortController,
  ) {}

  /** Sends a frame of the answer to every socket on it. */
  readonly send: FrameSink = (frame) => {
    if (frame.type === 'ai') this.latestText = frame;
    for (const sink of [...this.sinks]) sink(frame);
  };

  /** Streams the answer to `sink` from now on, starting with the text so far; answers the function that stops it. */
  join(sink: FrameSink): () => void {
    this.sinks.add(sink);
    if (this.latestText) sink(this.latestText);
    return () => {
      this.sinks.delete(sink);
    };
  }
}

/**
 * The answers streaming on this instance, by chat (CH18). Memory only, by design: an answer lives in the process
 * that makes it; when that process dies, its lease in the database runs out and another instance answers (CH19).
 */
export class LiveChatTurns {
  private readonly turns = new Map<string, LiveChatTurn>();

  /** Registers the answer now streaming in `chatId`; `end()` forgets it. */
  begin(chatId: string, controller: AbortController): { turn: LiveChatTurn; end(): void } {
    const turn = new LiveChatTurn(controller);
    this.turns.set(chatId, turn);
    return {
      turn,
      end: () => {
        if (this.turns.get(chatId) === turn) this.turns.delete(chatId);
      },
    };
  }

  /** The answer streaming in `chatId` on this instance, if any. */
  of(chatId: string): LiveChatTurn | undefined {
    return this.turns.get(chatId);
  }
}
