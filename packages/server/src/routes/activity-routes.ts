import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth/require-user.js';
import { usernameOf } from '../auth/username.js';
import { isUuid } from '../db/uuid.js';
import { parseInput } from '../http/http-error.js';
import { listBody, listPageOf, listPageQuery, queryInteger } from '../http/list-page.js';
import type { ActivityRecord, ActivityTarget } from '../storage/activity-repository.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

/** The levels entries have: 1 for whole-resource events, 2 for section-level ones. */
const LEVEL_MIN = 1;
const LEVEL_MAX = 2;

const activityQuery = listPageQuery.extend({
  level: queryInteger('level', LEVEL_MIN, LEVEL_MAX).optional(),
  level__gte: queryInteger('level__gte', LEVEL_MIN, LEVEL_MAX).optional(),
  level__lte: queryInteger('level__lte', LEVEL_MIN, LEVEL_MAX).optional(),
  target: z.enum(['document', 'blueprint'], { error: 'target must be document or blueprint' }).optional(),
  object_id: z
    .string({ error: 'object_id must be a uuid' })
    .refine(isUuid, { message: 'object_id must be a uuid' })
    .transform((value) => value.toLowerCase())
    .optional(),
});

/** The content type an entry's target reads as (the labels the specified client shows). */
const CONTENT_TYPES: Record<ActivityTarget, { label: string; app: string }> = {
  document: { label: 'document', app: 'documents' },
  blueprint: { label: 'blueprint', app: 'blueprints' },
};

function activityBody(entry: ActivityRecord) {
  return {
    id: entry.id,
    actor: entry.actor
      ? { first_name: entry.actor.firstName, username: usernameOf(entry.actor.email) }
      : null,
    actor_label: entry.actorLabel,
    verb: entry.verb,
    message: entry.message,
    target: entry.target,
    object_id: entry.objectId,
    target_label: entry.targetLabel,
    child_target_label: entry.childTargetLabel,
    child_content_type_label: entry.childContentTypeLabel,
    content_type_label: CONTENT_TYPES[entry.target].label,
    content_app_label: CONTENT_TYPES[entry.target].app,
    severity: entry.severity,
    level: entry.level,
    created_at: entry.createdAt.toISOString(),
  };
}

/**
 * `GET activities/activities/`: the caller's own feed (what happened to their documents and
 * blueprints), newest first, filtered by level, target and object.
 */
export function activityRoutes(app: FastifyInstance, deps: WorkspaceRouteDeps): void {
  const { storage, sessions } = deps;

  app.get('/api/v1/activities/activities/', async (request) => {
    const user = await requireUser(request, sessions);
    const query = parseInput(activityQuery, request.query);
    const page = listPageOf(query);
    const { rows, total } = await storage.activities.list(user.id, {
      ...(query.level !== undefined ? { level: query.level } : {}),
      ...(query.level__gte !== undefined ? { levelGte: query.level__gte } : {}),
      ...(query.level__lte !== undefined ? { levelLte: query.level__lte } : {}),
      ...(query.target !== undefined ? { target: query.target } : {}),
      ...(query.object_id !== undefined ? { objectId: query.object_id } : {}),
      page: page.page,
      pageSize: page.pageSize,
    });
    return listBody(rows.map(activityBody), total, page);
  });
}
