import type { Mailer, MailMessage } from '../../src/mail/mailer.js';

/** A mailer that keeps what it is given, for tests that read the e-mails a call sends. */
export function capturedMail(): { mailer: Mailer; sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    mailer: {
      transport: 'outbox',
      async send(message) {
        sent.push(message);
        return { messageId: String(sent.length) };
      },
      close() {},
    },
  };
}

/** The token of the last invitation link e-mailed to `to` (plans' and organisations' alike). */
export function lastInvitationToken(sent: readonly MailMessage[], to: string): string {
  const message = sent.filter((mail) => mail.to === to).at(-1);
  const match = message && /\/invitations\/([A-Za-z0-9_-]+)/.exec(message.text);
  if (!match?.[1]) throw new Error(`no invitation link for ${to}`);
  return match[1];
}
