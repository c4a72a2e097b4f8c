import type { Storage } from '../storage/storage.js';
import type { UserRecord } from '../storage/user-repository.js';
import { type BlueprintViewer, canChangeBlueprint } from './blueprint-access.js';

/** The viewer the visibility rules see: the user with their organisations, or null when anonymous. */
export async function blueprintViewerOf(
  storage: Pick<Storage, 'organizations'>,
  user: UserRecord | undefined,
): Promise<BlueprintViewer> {
  if (user === undefined) return null;
  return { userId: user.id, organizationIds: await storage.organizations.organizationIdsOf(user.id) };
}

/** Whether `userId` owns the blueprint `id` (may change it); false when it does not exist. */
export async function ownsBlueprint(
  storage: Pick<Storage, 'blueprints'>,
  userId: string,
  id: string,
): Promise<boolean> {
  const bp = await storage.blueprints.findById(id);
  return bp !== undefined && canChangeBlueprint(bp, { userId, organizationIds: [] });
}
