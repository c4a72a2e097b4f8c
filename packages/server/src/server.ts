#!/usr/bin/env node
import { loadConfig } from './config/config.js';
import { installGracefulShutdown } from './lifecycle/graceful-shutdown.js';
import { createServer } from './runtime.js';

/** What a person starting the server reads first: the address to open, and where e-mails go. */
function startupBanner(url: string, outboxDir: string | undefined): string {
  const lines = [
    `  Planwright is running at ${url}`,
    '  Open it in your browser to sign up and write a plan.',
  ];
  if (outboxDir) {
    lines.push(
      '',
      `  E-mails are not sent (SMTP_URL is not set): they are written to ${outboxDir}`,
      '  (one .eml file each; the log names the file, and the link to confirm an account or reset a password is in it).',
    );
  }
  return `\n${lines.join('\n')}\n\n`;
}

// The only file that listens. Configuration errors print one clear message and exit 1.
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`planwright-server: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const app = await createServer(config);
  installGracefulShutdown(app, { timeoutMs: config.shutdownTimeoutMs });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = config.publicUrl.replace(/:\d+$/, `:${port}`);
  // Without SMTP, sign-up and password e-mails land in the outbox; the log names each file, never its key-bearing link.
  const mail = config.mail.smtpUrl ? undefined : config.mail.outboxDir;
  app.log.info(
    { url, database: config.database.kind, ...(mail ? { outbox: mail } : {}) },
    `Planwright is running at ${url}`,
  );
  if (process.stdout.isTTY || process.env.PLANWRIGHT_PRINT_URL !== '0') {
    process.stdout.write(startupBanner(url, mail));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`planwright-server: could not start: ${(error as Error).message ?? String(error)}\n`);
  process.exit(1);
});
