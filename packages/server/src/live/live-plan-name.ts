import { uuidParam } from '../http/uuid-param.js';
import type { LivePlan } from '../storage/live-state-repository.js';

/**
 * The name a live document goes by on the sync socket: `document/{uuid}`. Blueprints join when the plan
 * store serves both kinds (issue 21 item 7); until then only documents are live.
 */
export function livePlanName(plan: LivePlan): string {
  return `${plan.kind}/${plan.id}`;
}

/** The plan a sync-socket document name names, or null when it names none (or not a uuid). */
export function parseLivePlanName(name: string): LivePlan | null {
  const match = /^document\/([^/]+)$/.exec(name);
  const id = match ? uuidParam(match[1]) : undefined;
  return id ? { kind: 'document', id } : null;
}
