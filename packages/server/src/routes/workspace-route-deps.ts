import type { SessionService } from '../auth/session-service.js';
import type { ServerConfig } from '../config/config.js';
import type { LiveDocuments } from '../live/live-documents.js';
import type { Storage } from '../storage/storage.js';

/** What the routes of documents, blueprints, sections, organisations, activity and the system prompt use. */
export interface WorkspaceRouteDeps {
  config: ServerConfig;
  storage: Storage;
  sessions: SessionService;
  now: () => Date;
  /** Live plans, when LIVE_DOCUMENTS is on: REST calls make content current first and reach live copies. */
  live?: LiveDocuments | undefined;
}
