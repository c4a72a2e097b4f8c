import { z } from 'zod';
import { ApiError } from '../errors/api-error.js';
import type { HttpClient } from '../http/http-client.js';
import type { CallOptions } from './call-options.js';
import { type ListPage, listSchema } from './list.js';
import { parseInput } from './parse-input.js';
import { pathSegment } from './path-segment.js';
import { optionalText, textOrEmpty, wireId } from './wire-fields.js';

/** An organisation the caller belongs to (spec 000 §3: id, name, title or slug). */
export interface Organization {
  id: string;
  /** `name`, else `title`, else `slug`, else `''`. */
  name: string;
  title: string | null;
  slug: string | null;
  /** The caller's role in it (`admin`, `member`), when the server said. */
  role: string | null;
}

/** A member of an organisation. */
export interface OrganizationMember {
  user: { username: string; first_name: string; last_name: string };
  role: string | null;
}

/** An organisation with its members (`GET organizations/{id}/`, members only). */
export interface OrganizationDetail extends Organization {
  members: OrganizationMember[];
}

const organizationFields = {
  id: wireId,
  name: z.string().nullish(),
  title: optionalText,
  slug: optionalText,
  role: optionalText,
};

function toOrganization(wire: z.output<z.ZodObject<typeof organizationFields>>): Organization {
  return {
    id: wire.id,
    name: wire.name ?? wire.title ?? wire.slug ?? '',
    title: wire.title,
    slug: wire.slug,
    role: wire.role,
  };
}

/** One organisation as answered, normalised. */
export const organizationSchema: z.ZodType<Organization> = z
  .object(organizationFields)
  .transform(toOrganization);

const memberSchema = z.object({
  user: z.object({ username: textOrEmpty, first_name: textOrEmpty, last_name: textOrEmpty }),
  role: optionalText,
});

/** An organisation with its members, normalised. */
export const organizationDetailSchema: z.ZodType<OrganizationDetail> = z
  .object({ ...organizationFields, members: z.array(memberSchema).nullish() })
  .transform((wire): OrganizationDetail => ({ ...toOrganization(wire), members: wire.members ?? [] }));

const createSchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200),
});
const memberInputSchema = z.object({
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required'),
});

/** The organisation calls (`docs/http-api.md` "Organisations"). */
export interface OrganizationsResource {
  /** The caller's organisations: `GET organizations/`, or `organization/` where that answers 404 (spec 000 §7). */
  list(options?: CallOptions): Promise<ListPage<Organization>>;
  /** `POST organizations/`; the caller becomes its admin. */
  create(input: { name: string }, options?: CallOptions): Promise<Organization>;
  /** `GET organizations/{id}/`, with its members. */
  get(id: string, options?: CallOptions): Promise<OrganizationDetail>;
  /** `POST organizations/{id}/members/` (admins only); the address must belong to an account. */
  addMember(id: string, input: { email: string }, options?: CallOptions): Promise<void>;
  /** `DELETE organizations/{id}/members/{username}/` (admins, or a member removing themselves). */
  removeMember(id: string, username: string, options?: CallOptions): Promise<void>;
}

/** The organisations resource over a request helper. */
export function createOrganizationsResource(http: HttpClient): OrganizationsResource {
  const path = (id: string) => `organizations/${pathSegment(id, 'id')}/`;
  const schema = listSchema(organizationSchema);
  return {
    list: async (options = {}) => {
      try {
        return await http.get('organizations/', { schema, signal: options.signal });
      } catch (error) {
        // Spec 000 §7: servers that only know the singular path answer 404 to the plural one.
        if (!(ApiError.isInstance(error) && error.status === 404)) throw error;
        return http.get('organization/', { schema, signal: options.signal });
      }
    },
    create: async (input, options = {}) => {
      const body = parseInput(createSchema, input, 'organisation');
      return http.post('organizations/', body, { schema: organizationSchema, signal: options.signal });
    },
    get: async (id, options = {}) =>
      http.get(path(id), { schema: organizationDetailSchema, signal: options.signal }),
    addMember: async (id, input, options = {}) => {
      const target = `${path(id)}members/`;
      const body = parseInput(memberInputSchema, input, 'member');
      await http.post(target, body, { signal: options.signal });
    },
    removeMember: async (id, username, options = {}) => {
      await http.delete(`${path(id)}members/${pathSegment(username, 'username')}/`, {
        signal: options.signal,
      });
    },
  };
}
