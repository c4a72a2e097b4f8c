import * as z from 'zod';
import type { HttpClient } from '../http/http-client.js';
import type { CallOptions } from './call-options.js';
import { type ListPage, listSchema } from './list.js';
import { parseInput } from './parse-input.js';
import { optionalText, textOrEmpty, wireId } from './wire-fields.js';

/** How serious an activity entry is (spec 000 §3). */
export type ActivitySeverity = 'info' | 'warning' | 'error' | 'system';

/**
 * Spec 000 §3: `error`, `warning` (also spelled `warn`) and `system` are kept; anything else, missing
 * included, is `info`. Case and surrounding spaces do not matter.
 */
export function activitySeverity(value: unknown): ActivitySeverity {
  const severity = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (severity === 'error' || severity === 'system' || severity === 'warning') return severity;
  if (severity === 'warn') return 'warning';
  return 'info';
}

/** Who did it, as far as the server tells. */
export interface ActivityActor {
  first_name: string;
  username: string;
}

/** One entry of an activity feed (spec 000 §3; `docs/http-api.md` "Activity"). Labels were stored at the time. */
export interface Activity {
  id: string;
  actor: ActivityActor | null;
  /** How to name the actor (`Ada`); `null` when the server gave none. */
  actor_label: string | null;
  /** `renamed`, `created`, `finalized`, … */
  verb: string;
  /** A sentence describing it; `''` when there is none. */
  message: string;
  /** `document` or `blueprint` (as the server said), when known. */
  target: string | null;
  object_id: string | null;
  target_label: string | null;
  child_target_label: string | null;
  child_content_type_label: string | null;
  content_type_label: string | null;
  content_app_label: string | null;
  severity: ActivitySeverity;
  /** 1 for what the dashboard shows, 2 for the finer steps a document page adds; `null` if not sent. */
  level: number | null;
  /** ISO 8601. */
  created_at: string;
}

const actorWire = z.object({ first_name: textOrEmpty, username: textOrEmpty });

/** One activity entry as answered, normalised (`severity` per {@link activitySeverity}). */
export const activitySchema: z.ZodType<Activity> = z
  .object({
    id: wireId,
    actor: actorWire.nullish(),
    actor_label: optionalText,
    verb: textOrEmpty,
    message: textOrEmpty,
    target: optionalText,
    object_id: wireId.nullish(),
    target_label: optionalText,
    child_target_label: optionalText,
    child_content_type_label: optionalText,
    content_type_label: optionalText,
    content_app_label: optionalText,
    severity: z.unknown().optional(),
    level: z.number().int().nullish(),
    created_at: z.string(),
  })
  .transform(
    (wire): Activity => ({
      ...wire,
      actor: wire.actor ?? null,
      object_id: wire.object_id ?? null,
      severity: activitySeverity(wire.severity),
      level: wire.level ?? null,
    }),
  );

/** Which activity to read (spec 000 §7): a level, or a range, optionally of one document or blueprint. */
export interface ActivityQuery {
  /** Exactly this level (the dashboard reads 1). */
  level?: number;
  /** At least this level (a document page reads 1 to 2). */
  levelGte?: number;
  /** At most this level. */
  levelLte?: number;
  target?: 'document' | 'blueprint';
  /** The document's or blueprint's uuid. */
  objectId?: string;
  page?: number;
  pageSize?: number;
}

const level = z.number().int('A level is a whole number').nullish();

const querySchema = z.object({
  level,
  levelGte: level,
  levelLte: level,
  target: z.enum(['document', 'blueprint']).nullish(),
  objectId: z.string().nullish(),
  page: z.number().int().min(1).nullish(),
  pageSize: z.number().int().min(1).max(100).nullish(),
});

/** The activity feed's call. */
export interface ActivitiesResource {
  /**
   * `GET activities/activities/`, newest first: `level`, `level__gte`, `level__lte`, `target`, `object_id`,
   * `page`, `page_size` (each left out when `null` or not given).
   */
  list(query?: ActivityQuery, options?: CallOptions): Promise<ListPage<Activity>>;
}

/** The activities resource over a request helper. */
export function createActivitiesResource(http: HttpClient): ActivitiesResource {
  return {
    list: async (query = {}, options = {}) => {
      const checked = parseInput(querySchema, query, 'activity query');
      return http.get('activities/activities/', {
        params: {
          level: checked.level,
          level__gte: checked.levelGte,
          level__lte: checked.levelLte,
          target: checked.target,
          object_id: checked.objectId,
          page: checked.page,
          page_size: checked.pageSize,
        },
        schema: listSchema(activitySchema),
        signal: options.signal,
      });
    },
  };
}
