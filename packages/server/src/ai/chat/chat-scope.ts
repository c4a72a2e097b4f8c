import type { ChatFrameContext } from '@planwright/sdk';
import { mayDo } from '../../documents/document-access.js';
import type { ChatTarget } from '../../storage/chat-repository.js';
import type { DocumentHead } from '../../storage/document-repository.js';
import type { Storage } from '../../storage/storage.js';

/** What one chat is about: the user's document and, within it, a section or a subsection. */
export interface ChatScope {
  document: DocumentHead;
  target: ChatTarget;
  /** The document's id, or the section's or subsection's uuid. */
  objectId: string;
  sectionUuid: string | null;
  subsectionUuid: string | null;
}

/** The ids a socket path or a request names. */
export interface ChatScopeIds {
  documentId: string;
  sectionUuid?: string | null;
  subsectionUuid?: string | null;
}

export type ChatScopeResolution =
  | { kind: 'ok'; scope: ChatScope }
  | { kind: 'not_found'; what: 'document' | 'section' | 'subsection' }
  /** The document is theirs to see, but their role does not let them chat about it (docs/teams.md). */
  | { kind: 'not_permitted' };

/**
 * Checks that the document is the user's and holds the section and subsection named. A subsection is
 * looked up in the whole document: it may have moved to another section since the client built its path.
 */
export async function resolveChatScope(
  storage: Storage,
  ownerId: string,
  ids: ChatScopeIds,
): Promise<ChatScopeResolution> {
  const document = await storage.documents.findHeadFor(ids.documentId, ownerId);
  // Someone else's document is answered exactly like a missing one (4404, as HTTP's 404): a close code
  // must not tell a caller that a uuid exists. Chatting is for its owner and editors (docs/teams.md).
  if (!document) return { kind: 'not_found', what: 'document' };
  if (!mayDo(document, 'edit')) return { kind: 'not_permitted' };
  const sectionUuid = ids.sectionUuid ?? null;
  const subsectionUuid = ids.subsectionUuid ?? null;
  if (!sectionUuid && !subsectionUuid) {
    return {
      kind: 'ok',
      scope: { document, target: 'document', objectId: document.id, sectionUuid: null, subsectionUuid: null },
    };
  }
  const sections = await storage.documents.sectionsOf(document.id);
  if (subsectionUuid) {
    const holder = sections.find((section) => section.subsections.some((sub) => sub.uuid === subsectionUuid));
    if (!holder) return { kind: 'not_found', what: 'subsection' };
    return {
      kind: 'ok',
      scope: {
        document,
        target: 'subsection',
        objectId: subsectionUuid,
        sectionUuid: holder.uuid,
        subsectionUuid,
      },
    };
  }
  if (!sections.some((section) => section.uuid === sectionUuid))
    return { kind: 'not_found', what: 'section' };
  return {
    kind: 'ok',
    scope: {
      document,
      target: 'section',
      objectId: sectionUuid as string,
      sectionUuid,
      subsectionUuid: null,
    },
  };
}

/**
 * Whether a `message` frame's `context` (the scope the client wrote it in, C13) names this socket's scope: a
 * message typed about one plan, section or chat must never be answered in another (a stale tab, a client that
 * switched scope while the frame travelled). Absent fields say nothing; ids compare without regard to case.
 */
export function contextFitsScope(
  context: ChatFrameContext | undefined,
  ids: ChatScopeIds & { chatId: string | null },
  chatId: string | null,
): boolean {
  if (!context) return true;
  const same = (a: string | null | undefined, b: string | null | undefined) =>
    (a ?? null)?.toLowerCase() === (b ?? null)?.toLowerCase();
  if (context.document_uuid !== undefined && !same(context.document_uuid, ids.documentId)) return false;
  if (context.subsection_uuid !== undefined && !same(context.subsection_uuid, ids.subsectionUuid))
    return false;
  // A subsection may have moved to another section since the client built its path (CH3): its section is not checked.
  if (
    !ids.subsectionUuid &&
    context.section_uuid !== undefined &&
    !same(context.section_uuid, ids.sectionUuid)
  )
    return false;
  if (context.chat_id && chatId && !same(context.chat_id, chatId)) return false;
  return true;
}
