import { Writable } from 'node:stream';
import type { CliIo } from '../../src/cli-io.js';
import { run } from '../../src/run.js';

/** A stream that keeps what is written to it, bytes and text alike, like a pipe into a file. */
export class CapturedStream extends Writable {
  readonly chunks: Buffer[] = [];
  readonly isTTY: boolean;

  constructor(isTTY = false) {
    super();
    this.isTTY = isTTY;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(Buffer.from(chunk));
    done();
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  text(): string {
    return this.bytes().toString('utf8');
  }
}

export interface StreamRun {
  exitCode: number;
  stdout: CapturedStream;
  stderr: CapturedStream;
}

/**
 * Runs the CLI in-process with real streams for stdout and stderr, so binary output can be captured and
 * either can pretend to be a terminal.
 */
export async function runWithStreams(
  args: readonly string[],
  env: Record<string, string | undefined>,
  tty: { stdout?: boolean; stderr?: boolean } = {},
): Promise<StreamRun> {
  const stdout = new CapturedStream(tty.stdout ?? false);
  const stderr = new CapturedStream(tty.stderr ?? false);
  const io: CliIo = { stdout, stderr, env };
  const exitCode = await run(args, io);
  return { exitCode, stdout, stderr };
}
