import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { DEFAULT_BLUEPRINT } from '../../src/blueprints/default-blueprint.js';
import { seedDefaultBlueprint } from '../../src/blueprints/seed-default-blueprint.js';
import { loadConfig } from '../../src/config/config.js';
import { blueprints } from '../../src/db/schema.js';
import { createMailer } from '../../src/mail/mailer.js';
import { openStorage, type Storage } from '../../src/storage/storage.js';
import { writeFakeWebApp } from '../support/test-app.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempConfig() {
  const dir = mkdtempSync(join(tmpdir(), 'planwright-seed-test-'));
  dirs.push(dir);
  return loadConfig({
    PLANWRIGHT_DATA_DIR: dir,
    PLANWRIGHT_WEB_DIR: writeFakeWebApp(dir),
    LOG_LEVEL: 'silent',
  });
}

async function defaults(storage: Storage) {
  return storage.blueprints.list(eq(blueprints.isDefault, true), {
    page: 1,
    pageSize: 10,
    ordering: 'title',
  });
}

describe('seedDefaultBlueprint', () => {
  it('seeds once however many start at the same moment: one insert wins, the rest do nothing', async () => {
    const config = tempConfig();
    const storage = await openStorage(config.database);
    try {
      const at = new Date('2026-11-22T08:00:00.000Z');
      const results = await Promise.all([1, 2, 3, 4].map(() => seedDefaultBlueprint(storage, at)));
      expect(results.filter(Boolean)).toEqual([true]);
      const { items, total } = await defaults(storage);
      expect(total).toBe(1);
      expect(items[0]).toMatchObject({
        title: DEFAULT_BLUEPRINT.title,
        ownerId: null,
        status: 'published',
        visibility: 'public',
        publisher: DEFAULT_BLUEPRINT.publisher,
        publishedAt: at,
        isDefault: true,
      });
      const sections = await storage.blueprints.sectionsOf(items[0]?.id ?? '');
      expect(sections.map((s) => s.title)).toEqual(DEFAULT_BLUEPRINT.sections.map((s) => s.title));
      expect(sections[1]?.subsections[0]).toMatchObject({
        developerPrompt: DEFAULT_BLUEPRINT.sections[1]?.subsections[0]?.developerPrompt,
        toolMode: DEFAULT_BLUEPRINT.sections[1]?.subsections[0]?.toolMode,
      });
      expect(await seedDefaultBlueprint(storage, at)).toBe(false);
    } finally {
      await storage.close();
    }
  });

  it('two starts of the server on one database leave one default, the same one', async () => {
    const config = tempConfig();
    const start = async () => {
      const storage = await openStorage(config.database);
      const mailer = createMailer({
        smtpUrl: undefined,
        from: config.mail.from,
        outboxDir: config.mail.outboxDir,
      });
      const app = await buildApp({ config, storage, mailer, logger: false });
      await app.ready();
      const { items, total } = await defaults(storage);
      await app.close();
      await storage.close();
      return { total, id: items[0]?.id };
    };
    const first = await start();
    const second = await start();
    expect(first.total).toBe(1);
    expect(second).toEqual(first);
  });
});
