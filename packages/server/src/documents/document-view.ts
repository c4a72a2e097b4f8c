import type { DocumentHead, DocumentRecord } from '../storage/document-repository.js';
import type { PlanRole } from './document-access.js';

/** A document as one caller sees it: with their role on it when the answer is theirs alone. */
type Viewed<T> = T & { role?: PlanRole };

import type { SectionOutlineRow, SectionRow } from '../structure/section-rows.js';
import { sectionOutlineView, sectionView } from '../structure/section-view.js';

/** Spec 000 §3: `completed` once every subsection is finalized (and there is one), else `in-progress`. */
export function documentStatus(doc: Pick<DocumentHead, 'finalizedCount' | 'subsectionCount'>) {
  return doc.subsectionCount > 0 && doc.finalizedCount >= doc.subsectionCount ? 'completed' : 'in-progress';
}

function progress(doc: DocumentHead) {
  const { finalizedCount: finalized, subsectionCount: total } = doc;
  return { finalized, total, percent: total > 0 ? Math.round((100 * finalized) / total) : 0 };
}

/** What every document answer says besides its tree and sections (`docs/http-api.md` "Documents"). */
function documentFields(doc: Viewed<DocumentHead>) {
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
    blueprint_version: doc.blueprintVersion,
    progress: progress(doc),
    revision: doc.revision,
    created_at: doc.createdAt.toISOString(),
    updated_at: doc.updatedAt.toISOString(),
    ...(doc.role !== undefined && { role: doc.role }),
  };
}

/** A document as lists answer it: no `content`, and its sections as an outline without settings. */
export function documentSummaryView(doc: Viewed<DocumentHead>, outline: readonly SectionOutlineRow[]) {
  return {
    ...documentFields(doc),
    sections: outline.map((section) => sectionOutlineView(section, 'document')),
  };
}

/** A document with its content tree, and its sections with their settings. */
export function documentDetailView(doc: Viewed<DocumentRecord>, sections: readonly SectionRow[]) {
  return {
    ...documentFields(doc),
    content: doc.content,
    sections: sections.map((section) => sectionView(section, 'document')),
  };
}

/**
 * {@link documentDetailView} as a JSON body, with the tree spliced in as the JSON text `contentJson`:
 * a 400 KiB tree costs more to parse and serialise again than all the rest of the answer. The parts
 * are encoded one by one, as joining the (usually ASCII) tree to text that is not, such as a prompt
 * with a dash, would make the whole answer a two-byte string, slower to encode.
 */
export function documentDetailBody(
  doc: Viewed<DocumentHead>,
  contentJson: string,
  sections: readonly SectionRow[],
  extra?: Record<string, unknown>,
): Buffer {
  const fields = JSON.stringify(documentFields(doc));
  const outline = JSON.stringify(sections.map((section) => sectionView(section, 'document')));
  // Extra members (an import's report) follow the outline; an empty object adds nothing.
  const more = extra ? JSON.stringify(extra).slice(1, -1) : '';
  // `fields` is a non-empty object: its closing brace makes way for the last members.
  return Buffer.concat([
    Buffer.from(`${fields.slice(0, -1)},"content":`),
    Buffer.from(contentJson),
    Buffer.from(`,"sections":${outline}${more === '' ? '' : `,${more}`}}`),
  ]);
}
