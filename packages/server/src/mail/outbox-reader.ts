import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime from 'postal-mime';

// Reads what the outbox mailer wrote: for development (which link did that sign-up get?) and for
// tests that follow e-mailed links end to end.

/** One e-mail from the outbox folder, parsed. */
export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
}

// Outbox files never change once written (the mailer renames them into place), so each is parsed once.
const parsed = new Map<string, Promise<OutboxMessage>>();

async function parseMessage(file: string): Promise<OutboxMessage> {
  const email = await PostalMime.parse(readFileSync(file));
  const text = email.text ?? '';
  return {
    to: email.to?.[0]?.address ?? '',
    subject: email.subject ?? '',
    text,
    html: email.html ?? '',
    links: [...new Set(text.match(/https?:\/\/[^\s"'<>]+/g) ?? [])],
  };
}

/** Every message in the outbox, oldest first (file names start with the time). */
export async function readOutbox(outboxDir: string): Promise<OutboxMessage[]> {
  let names: string[];
  try {
    names = readdirSync(outboxDir)
      .filter((name) => name.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return Promise.all(
    names.map((name) => {
      const file = join(outboxDir, name);
      let message = parsed.get(file);
      if (!message) {
        message = parseMessage(file);
        parsed.set(file, message);
      }
      return message;
    }),
  );
}

/** The key at the end of the newest link to `path` sent to `to`. */
export async function lastKeyFor(outboxDir: string, to: string, path: string): Promise<string> {
  const messages = (await readOutbox(outboxDir)).filter((message) => message.to === to);
  for (const message of messages.reverse()) {
    const link = message.links.find((candidate) => new URL(candidate).pathname.startsWith(path));
    if (link) return decodeURIComponent(new URL(link).pathname.slice(path.length));
  }
  throw new Error(`no ${path} link for ${to} in the outbox`);
}
