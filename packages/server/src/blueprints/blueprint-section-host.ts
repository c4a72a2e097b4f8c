import { optionalUser } from '../auth/optional-user.js';
import type { WorkspaceRouteDeps } from '../routes/workspace-route-deps.js';
import type { BlueprintRecord } from '../storage/blueprint-repository.js';
import { planSectionHost } from '../structure/plan-section-host.js';
import type { SectionHost } from '../structure/section-host.js';
import { canChangeBlueprint, canReadBlueprint } from './blueprint-access.js';
import { blueprintView } from './blueprint-view.js';
import { blueprintViewerOf, ownsBlueprint } from './blueprint-viewer.js';
import { writeBlueprint } from './write-blueprint.js';

/**
 * Sections and subsections of blueprints: whoever may read the blueprint (anonymous visitors
 * included) may read them; only the owner may change them; everyone else gets 404.
 */
export function blueprintSectionHost(deps: WorkspaceRouteDeps): SectionHost {
  const { storage, sessions, live } = deps;
  return planSectionHost<BlueprintRecord>(deps, {
    kind: 'blueprint',
    async readable(request, id) {
      const user = await optionalUser(request, sessions);
      const bp = await storage.blueprints.findById(id);
      if (!bp || !canReadBlueprint(bp, await blueprintViewerOf(storage, user))) return undefined;
      if (!live) return bp;
      await live.beforeRest({ kind: 'blueprint', id });
      return storage.blueprints.findById(id);
    },
    async writable(tx, user, id) {
      const bp = await tx.blueprints.findById(id, { lock: 'update' });
      return bp && canChangeBlueprint(bp, { userId: user.id, organizationIds: [] }) ? bp : undefined;
    },
    async write(tx, bp, edit, context) {
      const written = await writeBlueprint(tx, bp, edit, { ...context, ownerOrganizationIds: [] });
      return { plan: written.blueprint, sections: written.sections };
    },
    detail: (bp, sections, userId) => blueprintView(bp, sections, userId),
    ...(live && {
      live: {
        before: async (userId, id) =>
          (await ownsBlueprint(storage, userId, id))
            ? live.beforeRest({ kind: 'blueprint', id }, { base: true })
            : undefined,
        // People with the blueprint open get the structure change merged with what they type.
        after: (id, content, base) => live.applyRestWrite({ kind: 'blueprint', id }, content, base),
      },
    }),
  });
}
