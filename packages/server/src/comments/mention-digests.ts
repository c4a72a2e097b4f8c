import type { FastifyBaseLogger } from 'fastify';
import { withLink } from '../auth/account-emails.js';
import { usernameOf } from '../auth/username.js';
import type { Mailer, MailMessage } from '../mail/mailer.js';
import type { MentionRecord } from '../storage/comment-repository.js';
import type { Storage } from '../storage/storage.js';

/** At most one mention e-mail per person per plan in this window; the next holds every mention since. */
export const MENTION_DIGEST_WINDOW_MS = 10 * 60_000;

/** How often waiting digests are looked for. */
export const MENTION_DIGEST_INTERVAL_MS = 60_000;

function authorName(mention: MentionRecord): string {
  const name = `${mention.authorFirstName ?? ''} ${mention.authorLastName ?? ''}`.trim();
  return name || (mention.authorEmail ? usernameOf(mention.authorEmail) : 'Someone');
}

/** The e-mail of a digest: who mentioned the reader where, each message quoted, and a link to the first thread. */
export function mentionEmail(input: {
  to: string;
  title: string;
  mentions: readonly MentionRecord[];
  url: (threadId: string) => string;
}): MailMessage {
  const [first] = input.mentions;
  const authors = [...new Set(input.mentions.map(authorName))];
  const subject =
    input.mentions.length === 1
      ? `${authors[0]} mentioned you in “${input.title}”`
      : `${input.mentions.length} mentions of you in “${input.title}”`;
  const lines = input.mentions.map((mention) => `${authorName(mention)}: “${mention.body}”`);
  return withLink(
    input.to,
    subject,
    [
      ...lines,
      'Reply in the plan’s comments. You get at most one of these e-mails per plan every 10 minutes.',
    ],
    { label: 'Open the comment', url: input.url(first?.threadId ?? '') },
  );
}

/**
 * Mention e-mails (docs/teams.md "Comments"): a person mentioned on a plan gets an e-mail at once if they had none
 * for that plan in the last 10 minutes; otherwise the mention waits for the digest sent when the window ends
 * (looked for every minute, and whenever they are mentioned again). Failures to send are logged; the mentions
 * stay taken (the comment itself is in the plan either way).
 */
export class MentionDigests {
  constructor(
    private readonly deps: {
      storage: Storage;
      mailer: Mailer;
      publicUrl: string;
      now: () => Date;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Sends each of `userIds` their digest for the plan, if it is due. */
  async deliver(userIds: readonly string[], documentId: string): Promise<void> {
    for (const userId of userIds) await this.#send(userId, documentId);
  }

  /** Sends every digest that is due (the minute's sweep). */
  async flushDue(): Promise<number> {
    const due = await this.deps.storage.comments.dueDigests(this.deps.now(), MENTION_DIGEST_WINDOW_MS);
    for (const { userId, documentId } of due) await this.#send(userId, documentId);
    return due.length;
  }

  async #send(userId: string, documentId: string): Promise<void> {
    const { storage, mailer, publicUrl, now, log } = this.deps;
    try {
      const mentions = await storage.comments.takeDigest(userId, documentId, now(), MENTION_DIGEST_WINDOW_MS);
      if (mentions.length === 0) return;
      const [user, title] = await Promise.all([
        storage.users.findById(userId),
        storage.comments.documentTitle(documentId),
      ]);
      if (!user || title === undefined) return;
      await mailer.send(
        mentionEmail({
          to: user.email,
          title,
          mentions,
          url: (threadId) =>
            `${publicUrl}/dashboard/documents/${documentId}/edit?comment=${encodeURIComponent(threadId)}`,
        }),
      );
    } catch (error) {
      log.error({ err: error }, 'mention e-mail could not be sent');
    }
  }
}
