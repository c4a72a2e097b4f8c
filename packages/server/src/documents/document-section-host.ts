import type { DocumentJson } from '@planwright/sdk/model';
import { requireUser } from '../auth/require-user.js';
import type { WorkspaceRouteDeps } from '../routes/workspace-route-deps.js';
import type { DocumentRecord } from '../storage/document-repository.js';
import { notFound } from '../structure/not-found.js';
import { assertRevision, readIfMatch } from '../structure/revision.js';
import type { SectionHost, SectionParent } from '../structure/section-host.js';
import type { SectionRow } from '../structure/section-rows.js';
import { retryStaleWrites } from '../structure/stale-write.js';
import { documentDetailView } from './document-view.js';
import { writeDocument } from './write-document.js';

function asParent(doc: DocumentRecord, sections: SectionRow[]): SectionParent {
  // Every stored tree went through normalisation on its way in.
  return { id: doc.id, revision: doc.revision, content: doc.content as DocumentJson, sections };
}

/** Sections and subsections of documents: the owner reads and writes; everyone else gets 404. */
export function documentSectionHost(deps: WorkspaceRouteDeps): SectionHost {
  const { storage, sessions, now, live } = deps;
  return {
    kind: 'document',
    async read(request, id) {
      const user = await requireUser(request, sessions);
      if (live && (await storage.documents.findOwnedHead(id, user.id))) await live.beforeRest(id);
      const doc = await storage.documents.findOwned(id, user.id);
      if (!doc) throw notFound('document');
      return asParent(doc, await storage.documents.sectionsOf(doc.id));
    },
    async write(request, id, change) {
      const user = await requireUser(request, sessions);
      const precondition = readIfMatch(request);
      const base =
        live && (await storage.documents.findOwnedHead(id, user.id)) ? await live.beforeRest(id) : undefined;
      const outcome = await retryStaleWrites(() =>
        storage.transaction(async (tx) => {
          const doc = await tx.documents.findOwned(id, user.id, { forUpdate: true });
          if (!doc) throw notFound('document');
          assertRevision(precondition, doc.revision, 'document');
          const sections = await tx.documents.sectionsOf(doc.id);
          const { edit, result } = change(asParent(doc, sections));
          const written = await writeDocument(tx, doc, edit, { actor: user, now: now(), sections });
          const after = { ...written.document, content: edit.content ?? doc.content };
          return {
            parent: asParent(after, written.sections),
            result,
            detail: documentDetailView(after, written.sections),
            content: edit.content,
          };
        }),
      );
      // People with the plan open get the structure change as a change merged with what they type.
      if (live && outcome.content) await live.applyRestWrite(id, outcome.content, base);
      const { content: _content, ...answer } = outcome;
      return answer;
    },
  };
}
