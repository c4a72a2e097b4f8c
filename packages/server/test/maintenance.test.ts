import { describe, expect, it } from 'vitest';
import { hashSecret } from '../src/auth/secrets.js';
import { runMaintenance } from '../src/lifecycle/maintenance.js';
import { createTestApp } from './support/test-app.js';

const HOUR = 60 * 60 * 1000;

describe('maintenance sweep', () => {
  it('removes expired sessions, long-expired keys and old rate-limit events, and keeps the rest', async () => {
    const t = await createTestApp();
    try {
      const now = new Date('2026-11-21T12:00:00Z');
      const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR);
      const user = await t.storage.users.create({
        email: 'a@example.com',
        passwordHash: null,
        emailVerified: true,
        createdAt: at(2000),
      });
      const session = (name: string, createdHoursAgo: number, seenHoursAgo: number) =>
        t.storage.sessions.create({
          tokenHash: hashSecret(name),
          client: 'app',
          userId: user.id,
          authenticated: true,
          createdAt: at(createdHoursAgo),
          lastSeenAt: at(seenHoursAgo),
        });
      await session('fresh', 1, 0);
      await session('idle', 400, 340); // idle past 336 h
      await session('old', 800, 1); // older than 720 h
      const key = (name: string, expiredHoursAgo: number) =>
        t.storage.accountKeys.create({
          keyHash: hashSecret(name),
          purpose: 'verify_email',
          userId: user.id,
          email: user.email,
          createdAt: at(expiredHoursAgo + 72),
          expiresAt: at(expiredHoursAgo),
        });
      await key('recent', 24);
      await key('ancient', 24 * 8);
      await t.storage.rateLimits.record('login:ip:1', at(2));
      await t.storage.rateLimits.record('login:ip:1', new Date(now.getTime() - 60_000));

      const removed = await runMaintenance({
        storage: t.storage,
        sessions: t.config.sessions,
        now: () => now,
        log: t.app.log,
      });
      expect(removed).toEqual({ sessions: 2, keys: 1, rateLimitEvents: 1 });
      expect(await t.storage.sessions.findByTokenHash(hashSecret('fresh'))).toBeDefined();
      expect(await t.storage.accountKeys.find('verify_email', hashSecret('recent'))).toBeDefined();
      expect(await t.storage.rateLimits.count('login:ip:1', 5 * 60_000, now)).toBe(1);
    } finally {
      await t.close();
    }
  });
});
