import { contactMessageSchema } from '@planwright/sdk';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config/config.js';
import { parseInput } from '../http/http-error.js';
import { escapeHtml } from '../mail/escape-html.js';
import type { Mailer } from '../mail/mailer.js';
import type { ContactMessageRecord } from '../storage/contact-message-repository.js';
import type { Storage } from '../storage/storage.js';

/** Generous for a 10,000-character message in any script, small enough to refuse abuse early. */
const CONTACT_BODY_LIMIT = 64 * 1024;

export const CONTACT_SUCCESS = 'Thank you for your message! We will get back to you soon.';

/**
 * `POST /api/v1/apps/contact/`: validates with the SDK's schema, stores the message, then e-mails it to
 * CONTACT_EMAIL. A mail failure is logged and the message stays stored (emailed_at stays null).
 */
export function contactRoutes(
  app: FastifyInstance,
  deps: { config: ServerConfig; storage: Storage; mailer: Mailer; now: () => Date },
): void {
  app.post('/api/v1/apps/contact/', { bodyLimit: CONTACT_BODY_LIMIT }, async (request, reply) => {
    const input = parseInput(contactMessageSchema, request.body);
    const record = await deps.storage.contactMessages.create({
      firstName: input.first_name,
      lastName: input.last_name,
      email: input.email,
      phone: input.phone ?? '',
      message: input.message,
    });
    try {
      await deps.mailer.send(contactEmail(record, deps.config.contactEmail));
      await deps.storage.contactMessages.markEmailed(record.id, deps.now());
    } catch (error) {
      request.log.error(
        { err: error, contactMessageId: record.id },
        'contact message stored but not e-mailed',
      );
    }
    return reply.status(201).send({ id: record.id, detail: CONTACT_SUCCESS });
  });
}

function contactEmail(record: ContactMessageRecord, to: string) {
  const name = `${record.firstName} ${record.lastName}`;
  const lines = [
    `From: ${name} <${record.email}>`,
    ...(record.phone ? [`Phone: ${record.phone}`] : []),
    '',
    record.message,
  ];
  return {
    to,
    replyTo: record.email,
    // Header values are single-line; nodemailer encodes what remains.
    subject: `Contact form: ${name}`.replace(/[\r\n]+/g, ' ').slice(0, 200),
    text: lines.join('\n'),
    html:
      `<p><strong>From:</strong> ${escapeHtml(name)} &lt;${escapeHtml(record.email)}&gt;</p>` +
      (record.phone ? `<p><strong>Phone:</strong> ${escapeHtml(record.phone)}</p>` : '') +
      `<p style="white-space:pre-wrap">${escapeHtml(record.message)}</p>`,
  };
}
