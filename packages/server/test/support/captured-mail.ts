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
