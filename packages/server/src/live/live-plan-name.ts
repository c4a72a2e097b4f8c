import { uuidParam } from '../http/uuid-param.js';
import type { LivePlan } from '../storage/live-state-repository.js';

/** The name a live plan goes by on the sync socket: `document/{uuid}` or `blueprint/{uuid}`. */
export function livePlanName(plan: LivePlan): string {
  return `${plan.kind}/${plan.id}`;
}

/** The plan a sync-socket document name names, or null when it names none (or not a uuid). */
export function parseLivePlanName(name: string): LivePlan | null {
  const match = /^(document|blueprint)\/([^/]+)$/.exec(name);
  const id = match ? uuidParam(match[2]) : undefined;
  return match && id ? { kind: match[1] as LivePlan['kind'], id } : null;
}
