import * as z from 'zod';
import type { HttpClient } from '../http/http-client.js';
import type { CallOptions } from './call-options.js';
import { parseInput } from './parse-input.js';
import { pathSegment } from './path-segment.js';
import { CONTROL_CHARACTERS_TEXT, exceedsCharacters } from './text-fields.js';
import { VERSION_KINDS, type VersionKind } from './versions.js';
import { textOrEmpty, wireId } from './wire-fields.js';

/** `docs/versions.md` "Share links": a link's password is 6 to 128 characters. */
export const SHARE_LINK_PASSWORD_MIN_LENGTH = 6;
/** The longest password a share link takes. */
export const SHARE_LINK_PASSWORD_MAX_LENGTH = 128;
/** The longest label a share link takes ("Acme Ventures"). */
export const SHARE_LINK_LABEL_MAX_LENGTH = 100;

/** Whether a link can be read now, or why not. */
export type ShareLinkStatus = 'active' | 'expired' | 'revoked';

/** A share link as its owner sees it: what it shows, its settings, and what its readers did. */
export interface ShareLink {
  id: string;
  /** Who it was made for; `''` when unnamed. */
  label: string;
  /** The first four characters of its token, to tell links apart (the URL is shown once, when made). */
  token_hint: string;
  /** The version it shows; `null` for the plan's latest finalized subsections. */
  version: { id: string; name: string | null; kind: VersionKind; created_at: string } | null;
  expires_at: string | null;
  has_password: boolean;
  allow_download: boolean;
  status: ShareLinkStatus;
  revoked_at: string | null;
  created_by: { username: string; first_name: string; last_name: string } | null;
  created_at: string;
  views: {
    /** Page views, Do Not Track readers aside. */
    total: number;
    /** Distinct readers, told apart by a first-party cookie of the reader page. */
    unique_visitors: number;
    last_viewed_at: string | null;
    /** Time read per section, most read first; `title` is the section's title now (`null` once removed). */
    sections: Array<{ uuid: string; title: string | null; seconds: number }>;
  };
}

/** A link just made: with its URL, which is never answered again. */
export interface CreatedShareLink extends ShareLink {
  url: string;
}

/** What a new link shows and allows. */
export interface ShareLinkInput {
  /** A version's id or name; left out (or `null`) for the plan's latest finalized subsections. */
  version?: string | null;
  label?: string;
  /** When the link stops working (a `Date` or an ISO 8601 date and time); never when left out. */
  expiresAt?: Date | string | null;
  /** A password readers must give first. */
  password?: string | null;
  /** Whether readers may download the plan as PDF and Word. */
  allowDownload?: boolean;
}

const linkFields = {
  id: wireId,
  label: textOrEmpty,
  token_hint: textOrEmpty,
  version: z
    .object({
      id: wireId,
      name: z.string().nullable(),
      kind: z.enum(VERSION_KINDS),
      created_at: z.string(),
    })
    .nullable(),
  expires_at: z.string().nullable(),
  has_password: z.boolean(),
  allow_download: z.boolean(),
  status: z.enum(['active', 'expired', 'revoked']),
  revoked_at: z.string().nullable(),
  created_by: z.object({ username: textOrEmpty, first_name: textOrEmpty, last_name: textOrEmpty }).nullable(),
  created_at: z.string(),
  views: z.object({
    total: z.number().int(),
    unique_visitors: z.number().int(),
    last_viewed_at: z.string().nullable(),
    sections: z.array(z.object({ uuid: z.string(), title: z.string().nullable(), seconds: z.number() })),
  }),
};

/** A share link as answered. */
export const shareLinkSchema: z.ZodType<ShareLink> = z.object(linkFields);
const createdShareLinkSchema: z.ZodType<CreatedShareLink> = z.object({ ...linkFields, url: z.string() });
const shareLinkListSchema = z.object({ data: z.array(shareLinkSchema) }).transform((list) => list.data);

/** A share link's settings as sent: a password of 6 to 128 characters, a label of at most 100, a future date. */
export const shareLinkInputSchema = z.object({
  version: z.string().trim().min(1, 'Name a version (its id or name)').nullish(),
  label: z
    .string({ error: 'Label must be text' })
    .trim()
    .refine((label) => !exceedsCharacters(label, SHARE_LINK_LABEL_MAX_LENGTH), {
      message: `Label must be at most ${SHARE_LINK_LABEL_MAX_LENGTH} characters`,
    })
    .refine((label) => !/[\p{Cc}\p{Cs}]/u.test(label), CONTROL_CHARACTERS_TEXT)
    .optional(),
  expiresAt: z
    .union([z.date(), z.iso.datetime({ offset: true })], {
      error: 'expiresAt must be a date, or a date and time like 2026-12-31T23:59:59Z',
    })
    .transform((value) => (typeof value === 'string' ? new Date(value) : value))
    .refine((date) => !Number.isNaN(date.getTime()), 'expiresAt must be a real date')
    .nullish(),
  password: z
    .string({ error: 'Password must be text' })
    .min(
      SHARE_LINK_PASSWORD_MIN_LENGTH,
      `A link password must be at least ${SHARE_LINK_PASSWORD_MIN_LENGTH} characters`,
    )
    .max(
      SHARE_LINK_PASSWORD_MAX_LENGTH,
      `A link password must be at most ${SHARE_LINK_PASSWORD_MAX_LENGTH} characters`,
    )
    .nullish(),
  allowDownload: z.boolean({ error: 'allowDownload must be true or false' }).optional(),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A document's read-only links for people without an account (docs/versions.md "Share links"). Those who may
 * invite people to the document (its owner; editors when the owner lets them) make, list and turn them off;
 * anyone else gets 404 `not_permitted`.
 */
export interface ShareLinksResource {
  /** `GET documents/{uuid}/share-links/`: every link, newest first, with its views and reading time. */
  list(documentUuid: string, options?: CallOptions): Promise<ShareLink[]>;
  /**
   * `POST documents/{uuid}/share-links/`: a new link, with its `url`: keep it, it is answered only now (the
   * server keeps its hash). Without `version` the link shows the latest finalized subsections.
   */
  create(documentUuid: string, input?: ShareLinkInput, options?: CallOptions): Promise<CreatedShareLink>;
  /** One link by its id, or by its URL (`https://…/s/{token}`). 404 when it is not this document's. */
  get(documentUuid: string, idOrUrl: string, options?: CallOptions): Promise<ShareLink>;
  /**
   * Turns a link off at once, by its id or its URL: its page answers 410 Gone on every instance from the next
   * request. Turning off a link already off succeeds. Answers the link as it is now.
   */
  revoke(documentUuid: string, idOrUrl: string, options?: CallOptions): Promise<ShareLink>;
}

/** The share links resource over a request helper. */
export function createShareLinksResource(http: HttpClient): ShareLinksResource {
  const linksPath = (uuid: string) => `documents/${pathSegment(uuid, 'uuid')}/share-links/`;
  const byId = (uuid: string, id: string) => `${linksPath(uuid)}${pathSegment(id, 'link')}/`;
  const get = async (uuid: string, idOrUrl: string, options: CallOptions) =>
    UUID.test(idOrUrl.trim())
      ? http.get(byId(uuid, idOrUrl.trim()), { schema: shareLinkSchema, signal: options.signal })
      : http.post(
          `${linksPath(uuid)}find/`,
          { url: idOrUrl },
          { schema: shareLinkSchema, signal: options.signal },
        );
  return {
    list: async (uuid, options = {}) =>
      http.get(linksPath(uuid), { schema: shareLinkListSchema, signal: options.signal }),
    create: async (uuid, input = {}, options = {}) => {
      const parsed = parseInput(shareLinkInputSchema, input, 'share link');
      return http.post(
        linksPath(uuid),
        {
          version: parsed.version ?? null,
          ...(parsed.label !== undefined && { label: parsed.label }),
          expires_at: parsed.expiresAt ? parsed.expiresAt.toISOString() : null,
          password: parsed.password ?? null,
          allow_download: parsed.allowDownload ?? false,
        },
        { schema: createdShareLinkSchema, signal: options.signal },
      );
    },
    get: (uuid, idOrUrl, options = {}) => get(uuid, idOrUrl, options),
    revoke: async (uuid, idOrUrl, options = {}) => {
      const link = await get(uuid, idOrUrl, options);
      await http.delete(byId(uuid, link.id), { signal: options.signal });
      return get(uuid, link.id, options);
    },
  };
}
