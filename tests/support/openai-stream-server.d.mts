// Declarations of openai-stream-server.mjs: plain JavaScript so every package's tests (each a TypeScript
// project whose rootDir stops at the package) and the .mjs benchmarks can import it.
import type { IncomingHttpHeaders } from 'node:http';

/** One tool call of a scripted answer; `arguments` is streamed in `pieces` parts (JSON text or an object). */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
  /** How many `arguments` deltas the JSON text is cut into (default 4). */
  pieces?: number;
}

/** Token counts the server reports (when the client asked for them with `stream_options.include_usage`). */
export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** What the server answers to one request. */
export type ScriptedAnswer =
  /** A normal answer: text deltas and/or tool calls; `finish_reason` is `tool_calls` when there are calls. */
  | {
      type: 'answer';
      /** Text deltas in order (a string is cut into words). */
      text?: string | string[];
      toolCalls?: ScriptedToolCall[];
      usage?: ScriptedUsage;
      model?: string;
    }
  /** An HTTP error with OpenAI's error body; `retryAfterMs`/`retryAfter` set the matching headers. */
  | {
      type: 'error';
      status: number;
      message?: string;
      errorType?: string;
      code?: string | null;
      retryAfterMs?: number;
      retryAfter?: string;
    }
  /** Streams these text deltas, then destroys the socket without `finish_reason` or `[DONE]`. */
  | { type: 'drop'; text: string[] }
  /** Streams these text deltas (if any), then writes nothing more until the client disconnects. */
  | { type: 'hang'; text?: string[] };

/** A request the server received. */
export interface RecordedOpenAiRequest {
  index: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (`undefined` when it was not JSON). */
  body: unknown;
  /** `performance.now()` when the body was read. */
  receivedAt: number;
  /** True when the client closed the connection before the answer was complete (an abort). */
  clientDisconnected: boolean;
  /** `performance.now()` of that disconnect. */
  clientDisconnectedAt: number | null;
}

/** One SSE chunk about to be written, for {@link OpenAiStreamServerOptions.onChunk}. */
export interface ChunkInfo {
  requestIndex: number;
  chunkIndex: number;
  data: string;
}

export interface OpenAiStreamServerOptions {
  /** What is answered when the queue is empty (default: the text "Hello from the test model."). */
  defaultAnswer?: ScriptedAnswer;
  /** Called (and awaited) before each SSE chunk is written; a benchmark may pace or stamp chunks here. */
  onChunk?: (chunk: ChunkInfo) => void | Promise<void>;
  /** Called with `performance.now()` right after the first byte of an answer's body is written. */
  onFirstByte?: (requestIndex: number, at: number) => void;
}

/**
 * A local server speaking the OpenAI Chat Completions wire format (streaming and not), for tests. It also
 * answers Anthropic's `POST /v1/messages` in Anthropic's SSE format from the same queue.
 */
export interface OpenAiStreamServer {
  /** `http://127.0.0.1:{port}/v1` */
  baseUrl: string;
  /**
   * The server's environment for its `openai-compatible` provider to use this model server: model
   * `test-model`, no retries; `extra` adds or overrides variables.
   */
  providerEnv(extra?: Record<string, string>): Record<string, string>;
  readonly requests: RecordedOpenAiRequest[];
  /** Replaces the queue of answers. */
  script(...answers: ScriptedAnswer[]): void;
  /** Appends answers to the queue. */
  enqueue(...answers: ScriptedAnswer[]): void;
  /** Sets the answer used when the queue is empty. */
  setDefaultAnswer(answer: ScriptedAnswer): void;
  /** Resolves when the server has received `count` requests in total. */
  waitForRequests(count: number): Promise<void>;
  /** Resolves when the client of request `index` disconnected before its answer was complete. */
  waitForClientDisconnect(index: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the server on 127.0.0.1 (a free port). It answers `POST /v1/chat/completions` from a queue of
 * {@link ScriptedAnswer}s in order (then the default answer): with `stream: true` as `text/event-stream`
 * chunks (`chat.completion.chunk`, a final `finish_reason`, a usage chunk when asked, `data: [DONE]`), else
 * one `chat.completion` object. `POST /v1/messages` gets the same answers in Anthropic's Messages format. Other
 * paths answer 404 with OpenAI's error body. Instant unless `onChunk` waits.
 */
export declare function startOpenAiStreamServer(
  options?: OpenAiStreamServerOptions,
): Promise<OpenAiStreamServer>;
