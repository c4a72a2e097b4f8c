import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

/** One e-mail, always with a text and an HTML part. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
}

/** What happened to a message. */
export interface MailReceipt {
  messageId: string;
  /** The `.eml` file the message was written to, when there is no SMTP server. */
  file?: string;
}

/** Sends e-mail through SMTP, or writes it to the outbox folder when no SMTP server is set. */
export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<MailReceipt>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  /**
   * Told about every message written to the outbox. Never its links: a verification or password-reset link
   * holds a key, and the log is no place for one (the user opens the file).
   */
  onOutboxMessage?: (info: { file: string; to: string; subject: string }) => void;
  /** Clock for file names; injected by tests. */
  now?: () => Date;
}

/** Builds the mailer the configuration asks for. */
export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? createSmtpMailer(options.smtpUrl, options.from) : createOutboxMailer(options);
}

function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    transport: 'smtp',
    async send(message) {
      const info = await transporter.sendMail({ from, ...message });
      return { messageId: String(info.messageId) };
    },
    close: () => transporter.close(),
  };
}

function createOutboxMailer(options: MailerOptions): Mailer {
  // nodemailer composes the real RFC 5322 message (headers, multipart/alternative, encodings).
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const now = options.now ?? (() => new Date());
  let sequence = 0;
  return {
    transport: 'outbox',
    async send(message) {
      const info = await composer.sendMail({ from: options.from, ...message });
      const stamp = now().toISOString().replace(/[:.]/g, '-');
      sequence = (sequence + 1) % 1_000_000;
      const name = `${stamp}-${process.pid}-${String(sequence).padStart(6, '0')}.eml`;
      await mkdir(options.outboxDir, { recursive: true });
      const file = join(options.outboxDir, name);
      // Write then rename, so a reader never sees half a message.
      await writeFile(`${file}.tmp`, info.message as Buffer, { mode: 0o600 });
      await rename(`${file}.tmp`, file);
      options.onOutboxMessage?.({
        file,
        to: message.to,
        subject: message.subject,
      });
      return { messageId: String(info.messageId), file };
    },
    close: () => composer.close(),
  };
}
