import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createDocumentContent } from '@planwright/sdk/model';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionService } from '../../src/auth/session-service.js';
import { migrationsFolder } from '../../src/db/database.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, defaultBlueprintId } from '../support/workspace-calls.js';

/**
 * A data directory made before documents recorded their blueprint's version (migrations up to
 * `0003_documents`, frozen as released) opens with today's server: the pending migrations run, and its
 * documents read, list and save with `blueprint_version: null`.
 */
const clock = new Date('2026-11-22T10:00:00.000Z');
const now = () => clock;
const LAST_OLD_MIGRATION = '0003_documents';

interface Journal {
  entries: Array<{ tag: string }>;
}

let root: string;
let t: TestApp;
let headers: { 'x-session-token': string };
const ids = {
  user: randomUUID(),
  document: randomUUID(),
  section: randomUUID(),
  subsection: randomUUID(),
};

/** The migrations folder as it was up to and including `last`. */
function migrationsUpTo(last: string): string {
  const journal = JSON.parse(
    readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as Journal;
  const end = journal.entries.findIndex((entry) => entry.tag === last);
  if (end < 0) throw new Error(`no migration ${last}`);
  const entries = journal.entries.slice(0, end + 1);
  const folder = join(root, 'old-migrations');
  mkdirSync(join(folder, 'meta'), { recursive: true });
  for (const entry of entries) {
    copyFileSync(join(migrationsFolder, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  }
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  return folder;
}

/** Writes an account and a document into an old database, in the shape its tables had then. */
async function seedOldDataDir(dataDir: string): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir);
  try {
    const db = drizzle({ client });
    await migrate(db, { migrationsFolder: migrationsUpTo(LAST_OLD_MIGRATION) });
    const columns = await client.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_name = 'documents'`,
    );
    // Else this would not be an old data directory.
    expect(columns.rows.map((row) => row.column_name)).not.toContain('blueprint_version');
    const content = createDocumentContent(
      [
        {
          uuid: ids.section,
          title: 'Market',
          subsections: [{ uuid: ids.subsection, title: 'Customers', finalized: true }],
        },
      ],
      { generateId: randomUUID },
    );
    const at = clock.toISOString();
    await db.execute(sql`insert into users (id, email, email_key, email_verified, first_name, created_at)
      values (${ids.user}, 'old.ada@example.com', 'old.ada@example.com', true, 'Ada', ${at})`);
    await db.execute(sql`insert into documents
      (id, owner_id, blueprint_id, title, content, revision, finalized_count, subsection_count, created_at, updated_at)
      values (${ids.document}, ${ids.user}, null, 'Old plan', ${JSON.stringify(content)}::jsonb, 3, 1, 1, ${at}, ${at})`);
    await db.execute(sql`insert into document_sections (document_id, uuid, title, position, user_hint, tool_mode, mcp_url)
      values (${ids.document}, ${ids.section}, 'Market', 1, 'Who buys?', 'mcp', 'https://mcp.example.org/old')`);
    await db.execute(sql`insert into document_subsections (document_id, section_uuid, uuid, title, position, user_hint, finalized)
      values (${ids.document}, ${ids.section}, ${ids.subsection}, 'Customers', 1, 'Name three.', true)`);
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'planwright-old-data-dir-'));
  const dataDir = join(root, 'data');
  await seedOldDataDir(join(dataDir, 'pglite'));
  t = await createTestApp({ PLANWRIGHT_DATA_DIR: dataDir }, { now });
  const user = await t.storage.users.findById(ids.user);
  if (!user) throw new Error('the old account did not survive the migration');
  const sessions = new SessionService(t.storage, t.config.sessions, now);
  const { token } = await sessions.issue(
    { client: 'app', token: undefined, ip: '127.0.0.1', userAgent: 'vitest' },
    { user, authenticated: true, method: 'password' },
  );
  headers = { 'x-session-token': token };
});
afterAll(async () => {
  await t?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('a data directory from before blueprint_version', () => {
  it('migrates: its document reads and lists with blueprint_version null, its rows and settings kept', async () => {
    const res = await call(t, 'GET', `documents/${ids.document}/`, { headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe('"3"');
    expect(res.json()).toMatchObject({
      title: 'Old plan',
      blueprint: null,
      blueprint_version: null,
      revision: 3,
      status: 'completed',
      sections: [
        {
          uuid: ids.section,
          title: 'Market',
          user_hint: 'Who buys?',
          tool_mode: 'mcp',
          mcp_url: 'https://mcp.example.org/old',
          subsections: [
            { uuid: ids.subsection, title: 'Customers', user_hint: 'Name three.', finalized: true },
          ],
        },
      ],
    });
    const listed = (await call(t, 'GET', 'documents/', { headers })).json();
    expect(listed.data).toEqual([expect.objectContaining({ uuid: ids.document, blueprint_version: null })]);
  });

  it('saves the old document, and records the version of documents made now', async () => {
    const saved = await call(t, 'PATCH', `documents/${ids.document}/`, {
      headers: { ...headers, 'if-match': '"3"' },
      body: { title: 'Old plan, renamed' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ title: 'Old plan, renamed', revision: 4, blueprint_version: null });
    const made = await call(t, 'POST', 'documents/', {
      headers,
      body: { blueprint: await defaultBlueprintId(t) },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().blueprint_version).toBe(1);
  });
});
