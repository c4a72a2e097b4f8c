import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { resolveChatScope } from '../ai/chat/chat-scope.js';
import { requireUser } from '../auth/require-user.js';
import { notPermitted, permitted } from '../documents/document-access.js';
import { HttpError, parseInput } from '../http/http-error.js';
import { uuidField } from '../http/uuid-param.js';
import type { ChatRecord, ChatTarget } from '../storage/chat-repository.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

/** How many recent chats a list answers by default (spec 001 §9 "Recent chats shown"), and at most. */
const RECENT_CHATS = 10;
const MAX_RECENT_CHATS = 50;

const target = z.enum(['document', 'section', 'subsection']);
const listQuery = z.object({
  target,
  object_id: uuidField,
  document_uuid: uuidField.optional(),
  page_size: z.coerce.number().int().min(1).max(MAX_RECENT_CHATS).default(RECENT_CHATS),
});
const createBody = z.object({
  target,
  object_id: uuidField,
  document_uuid: uuidField.optional(),
});

function chatView(chat: ChatRecord) {
  return {
    id: chat.id,
    uuid: chat.id,
    title: chat.title,
    target: chat.target,
    object_id: chat.objectId,
    document_uuid: chat.documentId,
    created_at: chat.createdAt.toISOString(),
    updated_at: chat.updatedAt.toISOString(),
  };
}

/**
 * `GET chats/` (recent chats about a document, section or subsection, newest first) and `POST chats/`
 * (a new, untitled chat; its first message names it). Only the user's own documents: anything else is 404.
 */
export function chatRoutes(app: FastifyInstance, deps: WorkspaceRouteDeps): void {
  const { storage, sessions, now } = deps;

  /** The document a section or subsection uuid belongs to, among the user's (uuids repeat across documents). */
  async function documentOf(
    ownerId: string,
    kind: ChatTarget,
    objectId: string,
    given?: string,
  ): Promise<string> {
    if (kind === 'document') return objectId;
    if (given) return given;
    const holders = await storage.documents.editableHolding(ownerId, kind, objectId);
    if (holders.length === 0) throw new HttpError(404, 'not_found', `No such ${kind}.`);
    if (holders.length > 1) {
      throw new HttpError(400, 'invalid', `This ${kind} is in several of your documents: name one.`, [
        { param: 'document_uuid', code: 'required', message: `Name the document this ${kind} belongs to.` },
      ]);
    }
    return holders[0] as string;
  }

  app.get('/api/v1/chats/', async (request) => {
    const user = await requireUser(request, sessions);
    const query = parseInput(listQuery, request.query);
    // A named document must be one the user may chat about: nobody else's chats are listed, not even as empty.
    const named = query.target === 'document' ? query.object_id : query.document_uuid;
    if (named) {
      const document = await storage.documents.findHeadFor(named, user.id);
      if (!document) throw new HttpError(404, 'not_found', 'No such document.');
      permitted(document, 'edit');
    }
    const chats = await storage.chats.listRecent(
      { ownerId: user.id, target: query.target, objectId: query.object_id, documentId: query.document_uuid },
      query.page_size,
    );
    return {
      data: chats.map(chatView),
      meta: { pagination: { total: chats.length, page: 1, page_size: query.page_size } },
    };
  });

  app.post('/api/v1/chats/', async (request, reply) => {
    const user = await requireUser(request, sessions);
    const body = parseInput(createBody, request.body ?? {});
    const documentId = await documentOf(user.id, body.target, body.object_id, body.document_uuid);
    const resolution = await resolveChatScope(storage, user.id, {
      documentId,
      sectionUuid: body.target === 'section' ? body.object_id : null,
      subsectionUuid: body.target === 'subsection' ? body.object_id : null,
    });
    if (resolution.kind === 'not_permitted') throw notPermitted('edit');
    if (resolution.kind !== 'ok') {
      throw new HttpError(404, 'not_found', `No such ${resolution.what}.`);
    }
    const { scope } = resolution;
    const chat = await storage.chats.create(
      {
        ownerId: user.id,
        documentId: scope.document.id,
        target: scope.target,
        objectId: scope.objectId,
        sectionUuid: scope.sectionUuid,
      },
      now(),
    );
    return reply.status(201).send(chatView(chat));
  });
}
