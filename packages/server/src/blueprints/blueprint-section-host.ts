import type { DocumentJson } from '@planwright/sdk/model';
import { optionalUser } from '../auth/optional-user.js';
import { requireUser } from '../auth/require-user.js';
import type { WorkspaceRouteDeps } from '../routes/workspace-route-deps.js';
import type { BlueprintRecord } from '../storage/blueprint-repository.js';
import { notFound } from '../structure/not-found.js';
import { assertRevision, readIfMatch } from '../structure/revision.js';
import type { SectionHost, SectionParent } from '../structure/section-host.js';
import type { SectionRow } from '../structure/section-rows.js';
import { retryStaleWrites } from '../structure/stale-write.js';
import { canChangeBlueprint, canReadBlueprint } from './blueprint-access.js';
import { blueprintView } from './blueprint-view.js';
import { blueprintViewerOf } from './blueprint-viewer.js';
import { writeBlueprint } from './write-blueprint.js';

function asParent(bp: BlueprintRecord, sections: SectionRow[]): SectionParent {
  return { id: bp.id, revision: bp.revision, content: bp.content as DocumentJson, sections };
}

/**
 * Sections and subsections of blueprints: whoever may read the blueprint (anonymous visitors
 * included) may read them; only the owner may change them; everyone else gets 404.
 */
export function blueprintSectionHost(deps: WorkspaceRouteDeps): SectionHost {
  const { storage, sessions, now } = deps;
  return {
    kind: 'blueprint',
    async read(request, id) {
      const user = await optionalUser(request, sessions);
      const bp = await storage.blueprints.findById(id);
      if (!bp || !canReadBlueprint(bp, await blueprintViewerOf(storage, user))) throw notFound('blueprint');
      return asParent(bp, await storage.blueprints.sectionsOf(bp.id));
    },
    async write(request, id, change) {
      const user = await requireUser(request, sessions);
      const precondition = readIfMatch(request);
      return retryStaleWrites(() =>
        storage.transaction(async (tx) => {
          const bp = await tx.blueprints.findById(id, { lock: 'update' });
          if (!bp || !canChangeBlueprint(bp, { userId: user.id, organizationIds: [] }))
            throw notFound('blueprint');
          assertRevision(precondition, bp.revision, 'blueprint');
          const sections = await tx.blueprints.sectionsOf(bp.id);
          const { edit, result } = change(asParent(bp, sections));
          const written = await writeBlueprint(tx, bp, edit, {
            actor: user,
            now: now(),
            ownerOrganizationIds: [],
            sections,
          });
          return {
            parent: asParent(written.blueprint, written.sections),
            result,
            detail: blueprintView(written.blueprint, written.sections, user.id),
          };
        }),
      );
    },
  };
}
