import { shareLinkInputSchema } from '@planwright/sdk';
import type { DocumentJson } from '@planwright/sdk/model';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PasswordHasher } from '../auth/password/index.js';
import { requireUser } from '../auth/require-user.js';
import { hashSecret, newSecret } from '../auth/secrets.js';
import { usernameOf } from '../auth/username.js';
import { permitted } from '../documents/document-access.js';
import { HttpError, parseInput } from '../http/http-error.js';
import { uuidParam } from '../http/uuid-param.js';
import type { ShareLinkHead, ShareLinkStats } from '../storage/share-link-repository.js';
import { recordActivity } from '../structure/activity-entries.js';
import { notFound } from '../structure/not-found.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

const createInput = z.object({
  version: z
    .string({ error: 'version must be a version’s id or name, or null for the latest finalized' })
    .trim()
    .min(1)
    .max(200)
    .nullish(),
  label: shareLinkInputSchema.shape.label.unwrap().default(''),
  expires_at: z.iso
    .datetime({ offset: true, error: 'expires_at must be a date and time, like 2026-12-31T23:59:59Z' })
    .nullish(),
  password: shareLinkInputSchema.shape.password,
  allow_download: z.boolean({ error: 'allow_download must be true or false' }).default(false),
});

const findInput = z.object({ url: z.string({ error: 'url must be text' }).max(2048) });

type DocumentParams = { uuid: string };
type LinkParams = DocumentParams & { link: string };

/** Whether a link can be read now, or why not. */
function statusOf(link: ShareLinkHead, at: Date): 'active' | 'expired' | 'revoked' {
  if (link.revokedAt !== null) return 'revoked';
  if (link.expiresAt !== null && link.expiresAt.getTime() <= at.getTime()) return 'expired';
  return 'active';
}

/** The token of a share link's URL (or the token itself); undefined when `url` holds none. */
export function tokenOfShareUrl(url: string): string | undefined {
  const match = /(?:^|\/s\/)([A-Za-z0-9_-]{43})(?:[/?#].*)?$/.exec(url.trim());
  return match?.[1];
}

/**
 * A document's share links (docs/versions.md "Share links"): who may invite people to it (its owner, and its
 * editors when the owner lets them) makes, lists and turns off read-only links for people without an account.
 * A link's URL is answered once, when it is made: only its hash is kept.
 */
export function shareLinkRoutes(
  app: FastifyInstance,
  deps: WorkspaceRouteDeps & { passwordHasher: PasswordHasher },
): void {
  const { storage, sessions, now, config, passwordHasher } = deps;

  async function documentFor(request: FastifyRequest<{ Params: DocumentParams }>) {
    const user = await requireUser(request, sessions);
    const id = uuidParam(request.params.uuid);
    if (id === undefined) throw notFound('document');
    return { user, doc: permitted(await storage.documents.findHeadFor(id, user.id), 'share') };
  }

  /** Section titles of the plan as it is now, to name the sections readers spent time on. */
  async function sectionTitles(documentId: string): Promise<Map<string, string>> {
    const document = await storage.documents.findById(documentId);
    const titles = new Map<string, string>();
    for (const section of (document?.content as DocumentJson | undefined)?.content ?? []) {
      const title = (section.content[0].content ?? []).map((node) => node.text).join('');
      titles.set(section.attrs.uuid, title);
    }
    return titles;
  }

  function linkBody(link: ShareLinkHead, stats: ShareLinkStats | undefined, titles: Map<string, string>) {
    const author = link.author;
    return {
      id: link.id,
      label: link.label,
      token_hint: link.tokenHint,
      version: link.version && {
        id: link.version.id,
        name: link.version.name,
        kind: link.version.kind,
        created_at: link.version.createdAt.toISOString(),
      },
      expires_at: link.expiresAt?.toISOString() ?? null,
      has_password: link.hasPassword,
      allow_download: link.allowDownload,
      status: statusOf(link, now()),
      revoked_at: link.revokedAt?.toISOString() ?? null,
      created_by: author
        ? { username: usernameOf(author.email), first_name: author.firstName, last_name: author.lastName }
        : null,
      created_at: link.createdAt.toISOString(),
      views: {
        total: stats?.views ?? 0,
        unique_visitors: stats?.visitors ?? 0,
        last_viewed_at: stats?.lastViewedAt?.toISOString() ?? null,
        sections: (stats?.sections ?? []).map((read) => ({
          uuid: read.uuid,
          title: titles.get(read.uuid) ?? null,
          seconds: Math.round(read.milliseconds / 1000),
        })),
      },
    };
  }

  async function answerOne(documentId: string, link: ShareLinkHead) {
    const [stats, titles] = await Promise.all([
      storage.shareLinks.stats([link.id]),
      sectionTitles(documentId),
    ]);
    return linkBody(link, stats.get(link.id), titles);
  }

  const linkNotFound = () => new HttpError(404, 'not_found', 'Share link not found.');

  /** The plan's activity says who opened it to readers without an account, and who stopped it. */
  const recordLinkEvent = (
    doc: { id: string; ownerId: string; title: string },
    user: Parameters<typeof recordActivity>[1]['actor'],
    verb: 'made a share link' | 'turned off a share link',
    label: string,
  ) =>
    recordActivity(
      storage,
      {
        ownerId: doc.ownerId,
        actor: user,
        target: 'document',
        objectId: doc.id,
        targetLabel: doc.title,
        at: now(),
      },
      [
        {
          verb,
          message: `${verb === 'made a share link' ? 'made a read-only link' : 'turned off the read-only link'}${
            label ? ` for ${JSON.stringify(label)}` : ''
          } to the document ${JSON.stringify(doc.title)}`,
          level: 1,
        },
      ],
    );

  /** `GET documents/{uuid}/share-links/`: every link of the document, newest first, with what its readers did. */
  app.get<{ Params: DocumentParams }>('/api/v1/documents/:uuid/share-links/', async (request) => {
    const { doc } = await documentFor(request);
    const links = await storage.shareLinks.list(doc.id);
    const [stats, titles] = await Promise.all([
      storage.shareLinks.stats(links.map((link) => link.id)),
      sectionTitles(doc.id),
    ]);
    return { data: links.map((link) => linkBody(link, stats.get(link.id), titles)) };
  });

  /**
   * `POST documents/{uuid}/share-links/` `{version?, label?, expires_at?, password?, allow_download?}`: a new link
   * (201), with its `url`, answered this once. Without `version` it shows the latest finalized subsections.
   */
  app.post<{ Params: DocumentParams }>('/api/v1/documents/:uuid/share-links/', async (request, reply) => {
    const { user, doc } = await documentFor(request);
    const input = parseInput(createInput, request.body ?? {});
    const at = now();
    const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
    if (expiresAt && expiresAt.getTime() <= at.getTime()) {
      throw new HttpError(
        400,
        'invalid',
        'The link would expire before anyone reads it: choose a later date.',
        [{ message: 'Choose a date in the future', code: 'invalid', param: 'expires_at' }],
      );
    }
    let versionId: string | null = null;
    if (input.version) {
      const version = await storage.documentVersions.find(doc.id, input.version);
      if (!version) {
        throw new HttpError(
          404,
          'not_found',
          'Version not found: it was never kept, or was removed after its retention.',
        );
      }
      versionId = version.id;
    }
    const token = newSecret();
    const link = await storage.shareLinks.create({
      documentId: doc.id,
      versionId,
      label: input.label,
      tokenHash: hashSecret(token),
      tokenHint: token.slice(0, 4),
      passwordHash: input.password ? await passwordHasher.hash(input.password) : null,
      allowDownload: input.allow_download,
      expiresAt,
      createdBy: user.id,
      at,
    });
    await recordLinkEvent(doc, user, 'made a share link', link.label);
    return reply
      .status(201)
      .send({ ...(await answerOne(doc.id, link)), url: `${config.publicUrl}/s/${token}` });
  });

  /** `POST documents/{uuid}/share-links/find/` `{url}`: which of the document's links a URL is. */
  app.post<{ Params: DocumentParams }>('/api/v1/documents/:uuid/share-links/find/', async (request) => {
    const { doc } = await documentFor(request);
    const { url } = parseInput(findInput, request.body ?? {});
    const token = tokenOfShareUrl(url);
    const link = token ? await storage.shareLinks.findByTokenIn(doc.id, hashSecret(token)) : undefined;
    if (!link) throw linkNotFound();
    return answerOne(doc.id, link);
  });

  /** `GET documents/{uuid}/share-links/{id}/`: one link with what its readers did. */
  app.get<{ Params: LinkParams }>('/api/v1/documents/:uuid/share-links/:link/', async (request) => {
    const { doc } = await documentFor(request);
    const id = uuidParam(request.params.link);
    const link = id === undefined ? undefined : await storage.shareLinks.find(doc.id, id);
    if (!link) throw linkNotFound();
    return answerOne(doc.id, link);
  });

  /** `DELETE documents/{uuid}/share-links/{id}/`: turns the link off at once (its page answers 410); 204. */
  app.delete<{ Params: LinkParams }>('/api/v1/documents/:uuid/share-links/:link/', async (request, reply) => {
    const { user, doc } = await documentFor(request);
    const id = uuidParam(request.params.link);
    const link = id === undefined ? undefined : await storage.shareLinks.find(doc.id, id);
    if (!link) throw linkNotFound();
    // Turning off a link that is already off is done already.
    if (await storage.shareLinks.revoke(doc.id, link.id, now()))
      await recordLinkEvent(doc, user, 'turned off a share link', link.label);
    return reply.status(204).send();
  });
}
