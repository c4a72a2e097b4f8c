#!/usr/bin/env node
// Child process of document-throughput.mjs: the built Planwright app and a bare Fastify app on two ports,
// both over ONE open database, so the comparison isolates what our route adds (auth, checks, shaping).
// Prints one JSON line with both URLs, then serves until SIGTERM.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const server = await import(join(root, 'packages/server/dist/index.js'));
const { default: Fastify } = await import(join(root, 'node_modules/fastify/fastify.js'));
const { sql } = await import(join(root, 'node_modules/drizzle-orm/index.js'));

const config = server.loadConfig({ ...process.env, PORT: '0', LOG_LEVEL: 'warn' });
const database = await server.openDatabase(config.database);
const storage = server.createStorage(database);
const mailer = server.createMailer({
  smtpUrl: undefined,
  from: config.mail.from,
  outboxDir: config.mail.outboxDir,
});
const app = await server.buildApp({ config, storage, mailer, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });

// The bare routes: one SQL statement each, no session check, no validation, no normalisation.
const bare = Fastify({ logger: false, bodyLimit: 5 * 1024 * 1024 });
bare.get('/documents/:id', async (request, reply) => {
  const { rows } = await database.db.execute(
    sql`select id, title, content, revision from documents where id = ${request.params.id}`,
  );
  const row = rows[0];
  if (!row) return reply.status(404).send({ detail: 'not found' });
  return reply.header('etag', `"${row.revision}"`).send(row);
});
bare.patch('/documents/:id', async (request, reply) => {
  const expected = Number(String(request.headers['if-match'] ?? '').replaceAll('"', ''));
  const { rows } = await database.db.execute(
    sql`update documents set content = ${JSON.stringify(request.body.content)}::jsonb, revision = revision + 1
        where id = ${request.params.id} and revision = ${expected} returning revision`,
  );
  if (!rows[0]) return reply.status(412).send({ detail: 'stale' });
  return reply.header('etag', `"${rows[0].revision}"`).send({ revision: rows[0].revision });
});
await bare.listen({ port: 0, host: '127.0.0.1' });

const urlOf = (instance) => `http://127.0.0.1:${instance.server.address().port}`;
process.stdout.write(`${JSON.stringify({ app: urlOf(app), bare: urlOf(bare) })}\n`);

process.once('SIGTERM', async () => {
  await Promise.all([app.close(), bare.close()]);
  mailer.close();
  await storage.close();
  process.exit(0);
});
