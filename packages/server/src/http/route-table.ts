import type { FastifyInstance } from 'fastify';

/** One registered route: a method and its URL pattern as registered (`/api/v1/documents/:uuid/`). */
export interface RouteEntry {
  method: string;
  url: string;
  /** Whether the route also takes WebSocket upgrades. */
  websocket: boolean;
}

const tables = new WeakMap<FastifyInstance, RouteEntry[]>();

/**
 * Records every route registered on `app` from now on (plugins' routes included), so the security suite
 * can check that each one has an entry in its authorisation matrix. Call before any route is added.
 */
export function recordRoutes(app: FastifyInstance): void {
  const entries: RouteEntry[] = [];
  tables.set(app, entries);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      entries.push({
        method,
        url: route.url,
        websocket: Boolean((route as { websocket?: boolean }).websocket),
      });
    }
  });
}

/** The routes recorded on `app` by {@link recordRoutes}: every method and URL, HEAD twins of GETs included. */
export function routeTable(app: FastifyInstance): readonly RouteEntry[] {
  const entries = tables.get(app);
  if (!entries) throw new Error('routeTable: recordRoutes was not called on this app');
  return entries;
}
