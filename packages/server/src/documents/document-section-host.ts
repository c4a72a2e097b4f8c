import { requireUser } from '../auth/require-user.js';
import type { WorkspaceRouteDeps } from '../routes/workspace-route-deps.js';
import type { DocumentRecord } from '../storage/document-repository.js';
import { planSectionHost } from '../structure/plan-section-host.js';
import type { SectionHost } from '../structure/section-host.js';
import { permitted } from './document-access.js';
import { documentDetailView } from './document-view.js';
import { writeDocument } from './write-document.js';

/**
 * Sections and subsections of documents: whoever it is shared with reads (docs/teams.md "Roles"); its owner
 * and editors write; everyone else gets 404.
 */
export function documentSectionHost(deps: WorkspaceRouteDeps): SectionHost {
  const { storage, sessions, live } = deps;
  const sees = async (userId: string, id: string) => Boolean(await storage.documents.findHeadFor(id, userId));
  return planSectionHost<DocumentRecord>(deps, {
    kind: 'document',
    async readable(request, id) {
      const user = await requireUser(request, sessions);
      if (live && (await sees(user.id, id))) await live.beforeRest({ kind: 'document', id });
      return storage.documents.findFor(id, user.id);
    },
    writable: async (tx, user, id) =>
      permitted(await tx.documents.findFor(id, user.id, { forUpdate: true }), 'edit'),
    async write(tx, doc, edit, context) {
      const written = await writeDocument(tx, doc, edit, context);
      return {
        plan: { ...written.document, content: edit.content ?? doc.content },
        sections: written.sections,
      };
    },
    detail: (doc, sections) => documentDetailView(doc, sections),
    ...(live && {
      live: {
        before: async (userId, id) =>
          (await sees(userId, id)) ? live.beforeRest({ kind: 'document', id }, { base: true }) : undefined,
        // People with the plan open get the structure change as a change merged with what they type.
        after: (id, content, base) => live.applyRestWrite({ kind: 'document', id }, content, base),
      },
    }),
  });
}
