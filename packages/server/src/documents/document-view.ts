import type { DocumentRecord } from '../storage/document-repository.js';
import type { SectionRow } from '../structure/section-rows.js';
import { sectionView } from '../structure/section-view.js';

/** Spec 000 §3: `completed` once every subsection is finalized (and there is one), else `in-progress`. */
export function documentStatus(doc: Pick<DocumentRecord, 'finalizedCount' | 'subsectionCount'>) {
  return doc.subsectionCount > 0 && doc.finalizedCount >= doc.subsectionCount ? 'completed' : 'in-progress';
}

function progress(doc: DocumentRecord) {
  const { finalizedCount: finalized, subsectionCount: total } = doc;
  return { finalized, total, percent: total > 0 ? Math.round((100 * finalized) / total) : 0 };
}

/** A document as lists answer it: everything but `content` (`docs/http-api.md` "Documents"). */
export function documentSummaryView(doc: DocumentRecord, sections: readonly SectionRow[]) {
  return {
    uuid: doc.id,
    id: doc.id,
    title: doc.title,
    name: doc.title,
    description: doc.description,
    status: documentStatus(doc),
    blueprint:
      doc.blueprintId !== null && doc.blueprintTitle !== null
        ? { uuid: doc.blueprintId, title: doc.blueprintTitle }
        : null,
    progress: progress(doc),
    revision: doc.revision,
    sections: sections.map((section) => sectionView(section, 'document')),
    created_at: doc.createdAt.toISOString(),
    updated_at: doc.updatedAt.toISOString(),
  };
}

/** A document with its content tree. */
export function documentDetailView(doc: DocumentRecord, sections: readonly SectionRow[]) {
  const { sections: outline, ...summary } = documentSummaryView(doc, sections);
  // The contract's order: content before sections.
  return { ...summary, content: doc.content, sections: outline };
}
