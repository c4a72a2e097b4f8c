/** Somewhere text can be written: `process.stdout`, `process.stderr`, or a buffer in tests. */
export interface TextSink {
  write(text: string): unknown;
  /** True when a person is looking at it; interactive (Ink) screens only render then. */
  readonly isTTY?: boolean;
}

/** Where input comes from: `process.stdin`, or a `Readable` in tests. */
export interface InputSource extends AsyncIterable<string | Uint8Array> {
  /** True when a person is typing into it, so a prompt can ask them. */
  readonly isTTY?: boolean;
}

/**
 * The outside world of one CLI run. `cli.ts` passes the real process streams and environment;
 * tests pass buffers and a made-up environment, so nothing reads `process.env` behind their back.
 */
export interface CliIo {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  /** Standard input; only `login` reads it. Absent means there is none (tests that do not need it). */
  readonly stdin?: InputSource;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Reads an environment variable, treating an empty value as unset (like the server does). */
export function readEnv(io: CliIo, name: string): string | undefined {
  const value = io.env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}
