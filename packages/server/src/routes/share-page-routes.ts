import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DocumentJson } from '@planwright/sdk/model';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PasswordHasher } from '../auth/password/index.js';
import { hashSecret } from '../auth/secrets.js';
import type { ConversionPool } from '../formats/conversion-pool.js';
import { conversionRunOptions } from '../formats/conversion-run-options.js';
import { sendFile } from '../formats/file-answers.js';
import { HttpError } from '../http/http-error.js';
import { withinRateLimits } from '../http/rate-limited.js';
import { SHARE_PAGE_POLICY } from '../http/security-headers.js';
import { finalizedContent } from '../sharing/finalized-content.js';
import { noticePage, passwordPage, readerPage, shownDay } from '../sharing/share-page.js';
import { loadReaderAssets, READER_ASSET_PREFIX, type ReaderAsset } from '../sharing/share-reader-assets.js';
import type { ShareLinkByToken } from '../storage/share-link-repository.js';
import { actorLabelOf } from '../structure/activity-entries.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

/** A share link's token: 256 random bits, base64url (`newSecret`). Anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The limits of the reader pages (docs/versions.md "Share links", docs/security.md): unknown tokens per address
 * (a guesser is stopped long before a guess could matter), wrong passwords per link and address and per link,
 * downloads per address, reading reports per address.
 */
export const SHARE_PAGE_LIMITS = {
  misses: { limit: 30, windowMs: 15 * 60_000 },
  passwordPerAddress: { limit: 10, windowMs: 15 * 60_000 },
  passwordPerLink: { limit: 100, windowMs: 60 * 60_000 },
  downloads: { limit: 20, windowMs: 60 * 60_000 },
  reports: { limit: 240, windowMs: 10 * 60_000 },
} as const;

/** What one reading report may add, per section (the page reports every 15 s), and what a view may add up to. */
const REPORT_MAX_MS = 5 * 60_000;
const VIEW_SECTION_CAP_MS = 4 * 60 * 60_000;
/** A page left open longer than this reports nothing more. */
const VIEW_REPORTS_FOR_MS = 24 * 60 * 60_000;

const VISITOR_COOKIE = 'pw_reader';
const UNLOCK_COOKIE = 'pw_unlock';
const VISITOR = /^[A-Za-z0-9_-]{22}$/;
const YEAR_SECONDS = 365 * 24 * 60 * 60;
const UNLOCK_SECONDS = 12 * 60 * 60;

const passwordForm = z.object({ password: z.string().max(1024).default('') }).catch({ password: '' });

const UUID = z.uuid().transform((id) => id.toLowerCase());
const readingReport = z.object({
  view: UUID,
  sections: z
    .record(
      UUID,
      z
        .number()
        .int()
        .min(0)
        .max(24 * 60 * 60_000),
    )
    .refine((sections) => Object.keys(sections).length <= 500, 'At most 500 sections per report'),
});

type TokenParams = { token: string };

/** What the reader pages need beyond the workspace's. */
export interface SharePageRouteDeps extends WorkspaceRouteDeps {
  conversions: ConversionPool;
  passwordHasher: PasswordHasher;
}

/** Whether the reader asked not to be tracked (Do Not Track, or Global Privacy Control). */
function asksNotToBeTracked(request: FastifyRequest): boolean {
  return request.headers.dnt === '1' || request.headers['sec-gpc'] === '1';
}

/** The proof, kept in a cookie for the link's path, that its password was given: only the server can make it. */
function unlockProof(link: ShareLinkByToken): string {
  return createHmac('sha256', link.passwordHash ?? '')
    .update(`${link.id}:${link.tokenHash}`)
    .digest('base64url');
}

function unlocked(request: FastifyRequest, link: ShareLinkByToken): boolean {
  if (link.passwordHash === null) return true;
  const given = Buffer.from(request.cookies[UNLOCK_COOKIE] ?? '', 'utf8');
  const expected = Buffer.from(unlockProof(link), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The reader pages of share links, for people without an account (docs/versions.md "Share links"): `/s/{token}`
 * shows the plan (or asks for its password), `/s/{token}/download/{pdf|docx}` when the link allows it, and
 * `/s/{token}/read` takes the page's reading reports. Each request looks the link up afresh, so a revoked or
 * expired link answers 410 at once on every instance. The pages never set nor read the session cookie.
 */
export function sharePageRoutes(app: FastifyInstance, deps: SharePageRouteDeps): void {
  const { storage, now, live, config, conversions, passwordHasher } = deps;
  const assets = loadReaderAssets();
  const secure = config.publicUrl.startsWith('https:');
  const publicUrl = config.publicUrl;

  const files = new Map<string, ReaderAsset>([assets.css, assets.js].map((asset) => [asset.path, asset]));
  /** `GET /s/_/reader.<hash>.css|js`: the reader page's own files, named after their content. */
  app.get<{ Params: { file: string } }>(`${READER_ASSET_PREFIX}:file`, async (request, reply) => {
    const asset = files.get(`${READER_ASSET_PREFIX}${request.params.file}`);
    if (!asset) throw new HttpError(404, 'not_found', 'Not found.');
    return reply
      .type(asset.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(asset.body);
  });

  /** An HTML answer of the reader pages, with their headers: nothing cached, nothing indexed, nothing else run. */
  function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('content-security-policy', SHARE_PAGE_POLICY)
      .header('referrer-policy', 'no-referrer')
      .header('x-robots-tag', 'noindex, nofollow, noarchive')
      .header('cache-control', 'no-store')
      .send(html);
  }

  const notice = (reply: FastifyReply, status: number, heading: string, message: string) =>
    sendPage(reply, status, noticePage(assets, { heading, message, publicUrl }));

  const missBucket = (request: FastifyRequest) => `share-miss:ip:${request.ip}`;

  /**
   * The link the request names when it may be read now; otherwise the answer is sent (429 after too many unknown
   * tokens from the address, 404 unknown, 410 revoked or expired) and undefined is returned.
   */
  async function linkFor(
    request: FastifyRequest<{ Params: TokenParams }>,
    reply: FastifyReply,
    answer: 'page' | 'json',
  ): Promise<ShareLinkByToken | undefined> {
    const at = now();
    const refuse = (status: number, code: string, heading: string, message: string) => {
      if (answer === 'json') void reply.status(status).send({ detail: message, code });
      else void notice(reply, status, heading, message);
      return undefined;
    };
    const misses = await storage.rateLimits.count(missBucket(request), SHARE_PAGE_LIMITS.misses.windowMs, at);
    if (misses >= SHARE_PAGE_LIMITS.misses.limit) {
      void reply.header('retry-after', String(Math.ceil(SHARE_PAGE_LIMITS.misses.windowMs / 1000)));
      return refuse(
        429,
        'rate_limited',
        'Too many tries',
        'Too many links that do not exist were asked for from your network. Try again in 15 minutes.',
      );
    }
    const token = request.params.token;
    const link = TOKEN.test(token) ? await storage.shareLinks.findByToken(hashSecret(token)) : undefined;
    if (!link) {
      await storage.rateLimits.record(missBucket(request), at);
      return refuse(
        404,
        'not_found',
        'This link does not exist',
        'Check that you copied the whole link, or ask the person who sent it for a new one.',
      );
    }
    if (link.revokedAt !== null) {
      return refuse(
        410,
        'gone',
        'This link has been turned off',
        'Its owner no longer shares the plan through it. Ask the person who sent it for a new one.',
      );
    }
    if (link.expiresAt !== null && link.expiresAt.getTime() <= at.getTime()) {
      return refuse(
        410,
        'gone',
        'This link has expired',
        `It could be read until ${shownDay(link.expiresAt)}. Ask the person who sent it for a new one.`,
      );
    }
    return link;
  }

  /** What the link shows: its version, or the plan's finalized subsections as they are now. */
  async function sharedContent(
    link: ShareLinkByToken,
  ): Promise<{ title: string; content: DocumentJson; edition: string } | undefined> {
    if (link.versionId !== null) {
      const version = await storage.documentVersions.find(link.documentId, link.versionId);
      if (!version) return undefined;
      const when = shownDay(version.createdAt);
      return {
        title: version.title,
        content: version.content as DocumentJson,
        edition: version.name !== null ? `Version “${version.name}” of ${when}` : `As it was on ${when}`,
      };
    }
    // What people typed until now is in it (derived first), as in an export.
    if (live) await live.beforeRest({ kind: 'document', id: link.documentId });
    const document = await storage.documents.findById(link.documentId);
    if (!document) return undefined;
    return {
      title: document.title,
      content: finalizedContent(document.content as DocumentJson),
      edition: `Finalized sections as of ${shownDay(now())}`,
    };
  }

  const gone = (reply: FastifyReply) =>
    notice(reply, 410, 'This plan is no longer shared', 'Ask the person who sent the link for a new one.');

  /** The reader's first-party visitor id, made (and kept for a year) on their first tracked view. */
  function visitorOf(request: FastifyRequest, reply: FastifyReply): string {
    const given = request.cookies[VISITOR_COOKIE];
    const visitor =
      given !== undefined && VISITOR.test(given) ? given : randomBytes(16).toString('base64url');
    void reply.setCookie(VISITOR_COOKIE, visitor, {
      path: '/s/',
      httpOnly: true,
      sameSite: 'lax',
      secure,
      maxAge: YEAR_SECONDS,
    });
    return visitor;
  }

  /** `GET /s/{token}`: the plan to read, the password form, or why not. */
  app.get<{ Params: TokenParams }>('/s/:token', async (request, reply) => {
    const link = await linkFor(request, reply, 'page');
    if (!link) return reply;
    const linkPath = `/s/${request.params.token}`;
    if (!unlocked(request, link)) return sendPage(reply, 200, passwordPage(assets, { linkPath, publicUrl }));
    const shared = await sharedContent(link);
    if (!shared) return gone(reply);
    const owner = await storage.users.findById(link.documentOwnerId);
    // A HEAD (a link preview, a checker) is not a reading.
    const tracked = request.method === 'GET' && !asksNotToBeTracked(request);
    const viewId = tracked
      ? await storage.shareLinks.recordView(link.id, hashSecret(visitorOf(request, reply)), now())
      : null;
    return sendPage(
      reply,
      200,
      readerPage(assets, {
        title: shared.title,
        author: owner ? actorLabelOf(owner) : null,
        edition: shared.edition,
        content: shared.content,
        linkPath,
        viewId,
        downloads: link.allowDownload,
        publicUrl,
      }),
    );
  });

  /** `POST /s/{token}` `password=…` (the form): a cookie for this link's path when right, then the plan. */
  app.post<{ Params: TokenParams }>('/s/:token', async (request, reply) => {
    const link = await linkFor(request, reply, 'page');
    if (!link) return reply;
    const linkPath = `/s/${request.params.token}`;
    if (link.passwordHash === null) return reply.status(303).header('location', linkPath).send();
    const at = now();
    const byAddress = `share-password:${link.id}:ip:${request.ip}`;
    const byLink = `share-password:${link.id}`;
    const [tries, linkTries] = await Promise.all([
      storage.rateLimits.count(byAddress, SHARE_PAGE_LIMITS.passwordPerAddress.windowMs, at),
      storage.rateLimits.count(byLink, SHARE_PAGE_LIMITS.passwordPerLink.windowMs, at),
    ]);
    if (
      tries >= SHARE_PAGE_LIMITS.passwordPerAddress.limit ||
      linkTries >= SHARE_PAGE_LIMITS.passwordPerLink.limit
    ) {
      void reply.header(
        'retry-after',
        String(Math.ceil(SHARE_PAGE_LIMITS.passwordPerAddress.windowMs / 1000)),
      );
      return notice(
        reply,
        429,
        'Too many tries',
        'Too many wrong passwords were tried. Try again in 15 minutes.',
      );
    }
    const { password } = passwordForm.parse(request.body ?? {});
    const verdict = await passwordHasher.verify(password, link.passwordHash);
    if (!verdict.ok) {
      await Promise.all([storage.rateLimits.record(byAddress, at), storage.rateLimits.record(byLink, at)]);
      return sendPage(
        reply,
        401,
        passwordPage(assets, {
          linkPath,
          publicUrl,
          error: 'That password is not right. Check it and try again.',
        }),
      );
    }
    void reply.setCookie(UNLOCK_COOKIE, unlockProof(link), {
      path: linkPath,
      httpOnly: true,
      sameSite: 'lax',
      secure,
      maxAge: UNLOCK_SECONDS,
    });
    return reply.status(303).header('location', linkPath).send();
  });

  /** `GET /s/{token}/download/{pdf|docx}`: what the page shows, as a file, when the link allows downloads. */
  app.get<{ Params: TokenParams & { format: string } }>(
    '/s/:token/download/:format',
    async (request, reply) => {
      const link = await linkFor(request, reply, 'page');
      if (!link) return reply;
      const format = request.params.format;
      if (format !== 'pdf' && format !== 'docx') {
        return notice(reply, 404, 'No such download', 'This plan can be downloaded as PDF or Word (.docx).');
      }
      if (!unlocked(request, link))
        return reply.status(303).header('location', `/s/${request.params.token}`).send();
      if (!link.allowDownload) {
        return notice(
          reply,
          403,
          'Downloads are turned off',
          'The owner of this plan shares it to read online only.',
        );
      }
      const limited = await storage.rateLimits.hit(
        `share-download:ip:${request.ip}`,
        SHARE_PAGE_LIMITS.downloads,
        now(),
      );
      if (!limited.allowed) {
        void reply.header('retry-after', String(limited.retryAfterSeconds));
        return notice(reply, 429, 'Too many downloads', 'Try again in an hour, or read the plan online.');
      }
      const shared = await sharedContent(link);
      if (!shared) return gone(reply);
      const contentJson = JSON.stringify(shared.content);
      try {
        const bytes = await conversions.run(
          { kind: 'export', format, contentJson, title: shared.title },
          conversionRunOptions(config.conversion, `share:${link.id}`, 'export', contentJson.length),
        );
        return sendFile(reply, format, shared.title, bytes);
      } catch (error) {
        request.log.warn({ err: error }, 'a share link download failed');
        return notice(
          reply,
          503,
          'The download is not ready',
          'The file could not be made just now. Try again in a minute.',
        );
      }
    },
  );

  /** `POST /s/{token}/read` `{view, sections}`: milliseconds read per section since the page's last report. */
  app.post<{ Params: TokenParams }>('/s/:token/read', async (request, reply) => {
    const link = await linkFor(request, reply, 'json');
    if (!link) return reply;
    if (
      !(await withinRateLimits(
        storage,
        reply,
        [[`share-read:ip:${request.ip}`, SHARE_PAGE_LIMITS.reports]],
        now(),
        'Too many reading reports.',
      ))
    )
      return reply;
    const parsed = readingReport.safeParse(request.body);
    if (!parsed.success) {
      return reply
        .status(400)
        .send({ detail: 'A reading report is {view, sections: {uuid: ms}}.', code: 'invalid' });
    }
    if (asksNotToBeTracked(request)) return reply.status(204).send();
    const read = new Map(
      Object.entries(parsed.data.sections)
        .filter(([, ms]) => ms > 0)
        .map(([uuid, ms]) => [uuid, Math.min(ms, REPORT_MAX_MS)] as const),
    );
    const counted = await storage.shareLinks.addReading(link.id, parsed.data.view, read, {
      capMs: VIEW_SECTION_CAP_MS,
      since: new Date(now().getTime() - VIEW_REPORTS_FOR_MS),
    });
    if (!counted)
      return reply.status(404).send({ detail: 'This view is not counted any more.', code: 'not_found' });
    return reply.status(204).send();
  });
}
