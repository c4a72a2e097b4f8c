import { randomUUID } from 'node:crypto';
import { contactMessageSchema } from '@planwright/sdk';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServerConfig } from '../config/config.js';
import { parseInput } from '../http/http-error.js';
import { withinRateLimits } from '../http/rate-limited.js';
import { escapeHtml } from '../mail/escape-html.js';
import type { Mailer } from '../mail/mailer.js';
import type { ContactMessageRecord } from '../storage/contact-message-repository.js';
import type { Storage } from '../storage/storage.js';

/** Generous for a 10,000-character message in any script, small enough to refuse abuse early. */
const CONTACT_BODY_LIMIT = 64 * 1024;

export const CONTACT_SUCCESS = 'Thank you for your message! We will get back to you soon.';

const MINUTE = 60_000;
/**
 * Messages one client address may send (docs/security.md "The contact form"): a person writes once or
 * twice, a script posting in a loop is stopped before it floods CONTACT_EMAIL. Both windows stay within the
 * hour for which the maintenance sweep keeps rate-limit events.
 */
export const CONTACT_RATE_LIMITS = {
  perAddress: { limit: 5, windowMs: 10 * MINUTE },
  perAddressHourly: { limit: 20, windowMs: 60 * MINUTE },
} as const;

/** The SDK's fields and sign-up's honeypot `phone_number_x`: no person fills it, a bot does. */
const contactInput = contactMessageSchema.extend({ phone_number_x: z.string().optional() });

/**
 * `POST /api/v1/apps/contact/`: validates with the SDK's schema, counts the message against its address's
 * limits (429 past them), stores it, then e-mails it to CONTACT_EMAIL. A mail failure is logged and the
 * message stays stored (emailed_at stays null). A filled honeypot answers like a sent message and nothing is
 * stored or sent.
 */
export function contactRoutes(
  app: FastifyInstance,
  deps: { config: ServerConfig; storage: Storage; mailer: Mailer; now: () => Date },
): void {
  app.post('/api/v1/apps/contact/', { bodyLimit: CONTACT_BODY_LIMIT }, async (request, reply) => {
    const input = parseInput(contactInput, request.body);
    // Counted after validation (a typo costs nothing) and before the honeypot, so a bot meets the same limit.
    const allowed = await withinRateLimits(
      deps.storage,
      reply,
      [
        [`contact:ip:${request.ip}`, CONTACT_RATE_LIMITS.perAddress],
        [`contact-hour:ip:${request.ip}`, CONTACT_RATE_LIMITS.perAddressHourly],
      ],
      deps.now(),
      'Too many messages from your address. Please wait a while and try again.',
    );
    if (!allowed) return reply;
    if (input.phone_number_x) {
      request.log.info('contact honeypot filled: answered like a sent message, nothing stored or sent');
      return reply.status(201).send({ id: randomUUID(), detail: CONTACT_SUCCESS });
    }
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
