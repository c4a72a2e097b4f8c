import type { FastifyInstance } from 'fastify';

export interface GracefulShutdownOptions {
  /** How long in-flight requests may take before the process exits anyway. */
  timeoutMs: number;
  signals?: NodeJS.Signals[];
  /** Ends the process; injected by tests. */
  exit?: (code: number) => void;
}

/**
 * On SIGTERM or SIGINT: stop accepting connections, let requests in flight finish, close the database,
 * then exit 0. A second signal, or the time-out, exits at once with 1.
 * Returns a function that runs the same shutdown (for tests) and removes the signal listeners.
 */
export function installGracefulShutdown(app: FastifyInstance, options: GracefulShutdownOptions) {
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let closing: Promise<void> | undefined;

  const shutdown = (reason: string): Promise<void> => {
    if (closing) {
      app.log.warn({ reason }, 'second shutdown request: exiting now');
      exit(1);
      return closing;
    }
    app.log.info({ reason }, 'shutting down: finishing requests in flight');
    const timer = setTimeout(() => {
      app.log.error({ timeoutMs: options.timeoutMs }, 'shutdown timed out: exiting now');
      exit(1);
    }, options.timeoutMs);
    timer.unref();
    closing = app.close().then(
      () => {
        clearTimeout(timer);
        app.log.info('shutdown complete');
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(timer);
        app.log.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
    return closing;
  };

  const onSignal = (signal: NodeJS.Signals) => void shutdown(signal);
  for (const signal of signals) process.on(signal, onSignal);
  return {
    shutdown,
    dispose: () => {
      for (const signal of signals) process.off(signal, onSignal);
    },
  };
}
