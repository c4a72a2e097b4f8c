import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer } from '../src/mail/mailer.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('outbox mailer', () => {
  it('writes one real RFC 5322 message per e-mail, with text and HTML parts, and reports the file but never its links (they hold keys)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'planwright-outbox-'));
    const outboxDir = join(dir, 'outbox');
    const seen: Record<string, unknown>[] = [];
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Planwright <no-reply@planwright.test>',
      outboxDir,
      now: () => new Date('2026-11-21T10:00:00.000Z'),
      onOutboxMessage: (info) => seen.push(info),
    });
    expect(mailer.transport).toBe('outbox');
    const receipt = await mailer.send({
      to: 'founder@example.com',
      subject: 'Verify your e-mail — Planwright',
      text: 'Open https://plans.example.com/account/verify-email/abc123 to verify. Ünïcödé ✓',
      html: '<p>Open <a href="https://plans.example.com/account/verify-email/abc123">this link</a>. Ünïcödé ✓</p>',
    });
    await mailer.send({ to: 'b@example.com', subject: 'Second', text: 'two', html: '<p>two</p>' });
    mailer.close();

    const files = readdirSync(outboxDir).sort();
    expect(files).toHaveLength(2);
    expect(files.every((name) => /^2026-11-21T10-00-00-000Z-\d+-\d{6}\.eml$/.test(name))).toBe(true);
    expect(receipt.file).toBe(join(outboxDir, files[0] ?? ''));
    expect(statSync(receipt.file ?? '').mode & 0o777).toBe(0o600);

    const raw = readFileSync(receipt.file ?? '');
    expect(raw.toString()).toMatch(/^Content-Type: multipart\/alternative;/m);
    const email = await PostalMime.parse(raw);
    expect(email.from?.address).toBe('no-reply@planwright.test');
    expect(email.to?.[0]?.address).toBe('founder@example.com');
    expect(email.subject).toBe('Verify your e-mail — Planwright');
    expect(email.messageId).toMatch(/^<.+@.+>$/);
    expect(email.text).toContain('Ünïcödé ✓');
    expect(email.html).toContain('href="https://plans.example.com/account/verify-email/abc123"');
    expect(seen[0]).toEqual({
      file: receipt.file,
      to: 'founder@example.com',
      subject: 'Verify your e-mail — Planwright',
    });
    expect(JSON.stringify(seen)).not.toContain('abc123');
  });
});
