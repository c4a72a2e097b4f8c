export { type AppDependencies, buildApp } from './app.js';
export { ConfigError, loadConfig, type ServerConfig } from './config/config.js';
export { DataDirLockedError } from './db/data-dir-lock.js';
export {
  type Database,
  type DatabaseLocation,
  type Db,
  migrationsFolder,
  openDatabase,
  POSTGRES_POOL_SIZE,
} from './db/database.js';
export { type RouteEntry, routeTable } from './http/route-table.js';
export { type GracefulShutdownOptions, installGracefulShutdown } from './lifecycle/graceful-shutdown.js';
export {
  createMailer,
  type Mailer,
  type MailerOptions,
  type MailMessage,
  type MailReceipt,
} from './mail/mailer.js';
export { lastKeyFor, type OutboxMessage, readOutbox } from './mail/outbox-reader.js';
export { packagePath, SERVER_VERSION } from './package-paths.js';
export { createServer } from './runtime.js';
export type { ContactMessageRecord, NewContactMessage } from './storage/contact-message-repository.js';
export { createStorage, openStorage, type Storage, type TransactionalStorage } from './storage/storage.js';
