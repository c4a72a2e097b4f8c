import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CommentAuthor, CommentThread } from '@planwright/sdk';
import { sendJson, startJsonServer, type TestServer } from './http-server.js';
import { documentAnswer, type WorkspaceRequest } from './workspace-server.js';

/** The time every fake record was made at; invitations expire 14 days later. */
export const TEAMS_CREATED = '2026-11-22T10:00:00.000Z';
export const TEAMS_EXPIRES = '2026-12-06T10:00:00.000Z';

/** A person on a fake plan, in the wire's words. */
export interface FakePerson {
  id: string;
  email: string;
  first_name?: string;
  last_name?: string;
}

/** A plan as the signed-in caller sees its sharing. */
export interface FakeSharedPlan {
  uuid: string;
  title: string;
  /** The caller's role: `viewer` and `commenter` may not invite (404 `not_permitted`) nor see invitations. */
  role: 'owner' | 'editor' | 'commenter' | 'viewer';
  members: Array<FakePerson & { role: 'owner' | 'editor' | 'commenter' | 'viewer'; you?: boolean }>;
  organizations?: Array<{ id: string; name: string; role: 'editor' | 'commenter' | 'viewer' }>;
  invitations?: Array<{ id: string; email: string; role: 'editor' | 'commenter' | 'viewer' }>;
  editorsCanShare?: boolean;
  /** Its sections and subsections, answered by `GET documents/{uuid}/`. */
  outline?: FakeOutlineSection[];
  /** Its comment threads as the wire carries them, oldest first. */
  threads?: CommentThread[];
}

/** A section of a fake plan: its title and its subsections. */
export interface FakeOutlineSection {
  title: string;
  subsections: Array<{ uuid: string; title: string }>;
}

/** An invitation waiting for the caller: to a plan (`document`), or else to an organisation. */
export type FakeReceivedInvitation = {
  id: string;
  token: string;
  invited_by: string | null;
  /** Accepting it answers 400 `invitation_expired`. */
  expired?: boolean;
} & (
  | { document: { uuid: string; title: string }; role: 'editor' | 'commenter' | 'viewer' }
  | { organization: { id: string; name: string }; role: 'admin' | 'member' }
);

/** An organisation the caller belongs to, with the caller's role. */
export interface FakeOrganization {
  id: string;
  name: string;
  role: string;
  /** Its slug; by default the name in lower case. */
  slug?: string;
  /** The addresses of its other members: inviting one answers 409 `already_member`. */
  members?: string[];
  /** Its pending invitations (admins invite; a second one to an address answers 409 `already_invited`). */
  invitations?: Array<{ id: string; email: string; role: 'admin' | 'member' }>;
}

export interface FakeTeamsServer extends TestServer {
  readonly seen: WorkspaceRequest[];
  readonly plans: Map<string, FakeSharedPlan>;
  readonly received: FakeReceivedInvitation[];
  readonly organizations: FakeOrganization[];
  readonly tokens: Set<string>;
  /** The organisations list answers this total (more than it sends: a server that pages). */
  organizationsTotal: number | undefined;
  /**
   * `POST documents/{uuid}/invitations/`, `POST organizations/{id}/invitations/` and
   * `POST documents/{uuid}/comments/` answer 429 while true.
   */
  rateLimited: boolean;
  issueToken(): string;
}

/**
 * The members, invitations, organisations and comments calls of `docs/http-api.md` the CLI uses, over in-memory
 * state: 401 without a live token, 404 `not_found` for unknown plans and invitations (and organisations the caller
 * is not an admin of, when inviting), 404 `not_permitted` for a caller who may not invite or comment, 409
 * `already_member` / `already_invited`, 400 `invite_self` for the caller's own address (`ada@example.com`), 429
 * when told to, the invitation refusals of `POST invitations/accept/`, and a new thread's 400s (a subsection not
 * in the plan, a mention of someone not on it). `GET documents/{uuid}/` answers the plan with its outline.
 */
export async function startFakeTeamsServer(
  initial: { plans?: FakeSharedPlan[]; received?: FakeReceivedInvitation[] } = {},
): Promise<FakeTeamsServer> {
  const plans = new Map((initial.plans ?? []).map((plan) => [plan.uuid, plan]));
  const received = [...(initial.received ?? [])];
  const organizations: FakeOrganization[] = [];
  const tokens = new Set<string>();
  const seen: WorkspaceRequest[] = [];

  // Each names what it is to, the other `null`, as the server answers.
  const accepted = (invitation: FakeReceivedInvitation) => ({
    document: 'document' in invitation ? invitation.document : null,
    organization: 'organization' in invitation ? invitation.organization : null,
    role: invitation.role,
  });

  const handle = (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? '';
    const token = header(request, 'x-session-token');
    seen.push({ method, url: request.url ?? '', token, ifMatch: undefined, body });
    if (token === undefined || !tokens.has(token)) {
      return sendJson(response, 401, {
        detail: 'Authentication credentials were not provided.',
        code: 'not_authenticated',
      });
    }
    const path = url.pathname;
    const notFound = (what: string) =>
      sendJson(response, 404, { detail: `${what} not found.`, code: 'not_found' });
    const invalid = (param: string, code: string, message: string) =>
      sendJson(response, 400, {
        detail: `Invalid input: ${param}`,
        code: 'invalid',
        errors: [{ param, code, message }],
      });

    const documentMatch = /^\/api\/v1\/documents\/([^/]+)\/$/.exec(path);
    if (documentMatch && method === 'GET') {
      const plan = plans.get(decodeURIComponent(documentMatch[1] ?? ''));
      if (!plan) return notFound('Document');
      return sendJson(response, 200, planAnswer(plan));
    }

    const commentsMatch = /^\/api\/v1\/documents\/([^/]+)\/comments\/$/.exec(path);
    if (commentsMatch) {
      const plan = plans.get(decodeURIComponent(commentsMatch[1] ?? ''));
      if (!plan) return notFound('Document');
      const threads = plan.threads ?? [];
      if (method === 'GET') {
        const status = url.searchParams.get('status') ?? 'all';
        return sendJson(response, 200, {
          data: threads.filter((thread) => status === 'all' || thread.status === status),
        });
      }
      if (method === 'POST') {
        if (plan.role === 'viewer') {
          return sendJson(response, 404, {
            detail: 'Viewers of this document cannot comment on it.',
            code: 'not_permitted',
          });
        }
        const { subsection = '', body: text = '' } = (body ?? {}) as { subsection?: string; body?: string };
        const subsections = (plan.outline ?? []).flatMap((section) => section.subsections);
        if (!subsections.some((candidate) => candidate.uuid === subsection)) {
          return invalid('subsection', 'not_found', 'Not a subsection of this document');
        }
        const usernames = plan.members.map((member) => usernameOf(member.email));
        const unknown = [...text.matchAll(/(^|\s)@([\w.+-]+)/gu)]
          .map((match) => (match[2] ?? '').replace(/\.+$/, ''))
          .filter((name) => !usernames.includes(name.toLowerCase()));
        if (unknown.length > 0) {
          return invalid(
            'body',
            'unknown_mention',
            `${unknown.map((name) => `@${name}`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not on this plan: mention someone it is shared with.`,
          );
        }
        if (fake.rateLimited) {
          response.setHeader('retry-after', '3600');
          return sendJson(response, 429, {
            detail: 'Too many mentions sent. Please wait a while and try again.',
            code: 'rate_limited',
          });
        }
        const you = plan.members.find((member) => member.you === true);
        const author = you ? authorOf(you) : null;
        const thread: CommentThread = {
          id: randomUUID(),
          subsection_uuid: subsection,
          anchor: null,
          quote: '',
          status: 'open',
          created_by: author,
          created_at: TEAMS_CREATED,
          updated_at: TEAMS_CREATED,
          resolved_at: null,
          resolved_by: null,
          messages: [
            {
              id: randomUUID(),
              author,
              body: text,
              created_at: TEAMS_CREATED,
              edited_at: null,
              deleted: false,
            },
          ],
        };
        plan.threads = [...threads, thread];
        return sendJson(response, 201, thread);
      }
    }

    const planMatch = /^\/api\/v1\/documents\/([^/]+)\/(members|invitations)\/$/.exec(path);
    if (planMatch) {
      const plan = plans.get(decodeURIComponent(planMatch[1] ?? ''));
      if (!plan) return notFound('Document');
      const mayInvite = plan.role === 'owner' || (plan.role === 'editor' && plan.editorsCanShare === true);
      if (planMatch[2] === 'members' && method === 'GET') {
        return sendJson(response, 200, {
          data: plan.members.map((member) => ({
            user: {
              id: member.id,
              username: member.email.split('@')[0],
              first_name: member.first_name ?? '',
              last_name: member.last_name ?? '',
              ...(mayInvite ? { email: member.email } : {}),
            },
            role: member.role,
            joined_at: TEAMS_CREATED,
            is_you: member.you === true,
          })),
          organizations: (plan.organizations ?? []).map((grant) => ({
            organization: { id: grant.id, name: grant.name },
            role: grant.role,
            granted_at: TEAMS_CREATED,
          })),
          invitations: mayInvite ? (plan.invitations ?? []).map(sentInvitation) : null,
          editors_can_share: plan.editorsCanShare === true,
          role: plan.role,
        });
      }
      if (planMatch[2] === 'invitations' && method === 'POST') {
        if (!mayInvite) {
          return sendJson(response, 404, {
            detail: 'Only the owner can invite people to this document.',
            code: 'not_permitted',
          });
        }
        const { email = '', role = 'viewer' } = (body ?? {}) as {
          email?: string;
          role?: 'editor' | 'commenter' | 'viewer';
        };
        const member = plan.members.find((person) => person.email.toLowerCase() === email.toLowerCase());
        if (member) {
          return sendJson(response, 409, {
            detail: `${email} is already on this document (${member.role}). Change their role instead.`,
            code: 'already_member',
          });
        }
        return invite(response, plan, { email, role }, 'document', fake.rateLimited);
      }
    }

    if (path === '/api/v1/invitations/' && method === 'GET') {
      return sendJson(response, 200, {
        data: received.map((invitation) => ({
          id: invitation.id,
          ...accepted(invitation),
          invited_by: invitation.invited_by,
          created_at: TEAMS_CREATED,
          expires_at: TEAMS_EXPIRES,
        })),
      });
    }
    const acceptLink = (invitation: FakeReceivedInvitation | undefined) => {
      if (!invitation) {
        return sendJson(response, 400, {
          detail:
            'This invitation is no longer valid: it was revoked or the link was replaced by a newer one.',
          code: 'invitation_invalid',
        });
      }
      if (invitation.expired) {
        return sendJson(response, 400, {
          detail: 'This invitation has expired. Ask for a new one.',
          code: 'invitation_expired',
        });
      }
      received.splice(received.indexOf(invitation), 1);
      return sendJson(response, 200, accepted(invitation));
    };
    if (path === '/api/v1/invitations/accept/' && method === 'POST') {
      const { token: sent } = (body ?? {}) as { token?: string };
      return acceptLink(received.find((invitation) => invitation.token === sent));
    }
    const acceptMatch = /^\/api\/v1\/invitations\/([^/]+)\/accept\/$/.exec(path);
    if (acceptMatch && method === 'POST') {
      const invitation = received.find((item) => item.id === decodeURIComponent(acceptMatch[1] ?? ''));
      if (!invitation) return notFound('Invitation');
      return acceptLink(invitation);
    }

    if (path === '/api/v1/organizations/' && method === 'GET') {
      return sendJson(response, 200, {
        data: organizations.map(organizationBody),
        meta: {
          pagination: { total: fake.organizationsTotal ?? organizations.length, page: 1, page_size: 20 },
        },
      });
    }
    if (path === '/api/v1/organizations/' && method === 'POST') {
      const { name = '' } = (body ?? {}) as { name?: string };
      const organization = { id: randomUUID(), name, role: 'admin' };
      organizations.push(organization);
      return sendJson(response, 201, {
        ...organizationBody(organization),
        members: [
          { user: { id: 'u-ada', username: 'ada', first_name: 'Ada', last_name: '' }, role: 'admin' },
        ],
        invitations: [],
      });
    }
    const orgInvitationsMatch = /^\/api\/v1\/organizations\/([^/]+)\/invitations\/$/.exec(path);
    if (orgInvitationsMatch && method === 'POST') {
      const organization = organizations.find(
        (candidate) => candidate.id === decodeURIComponent(orgInvitationsMatch[1] ?? ''),
      );
      // Members who are not admins are told it does not exist, as the server does.
      if (organization?.role !== 'admin') return notFound('Organization');
      const { email = '', role = 'member' } = (body ?? {}) as { email?: string; role?: 'admin' | 'member' };
      const sameAddress = (other: string) => other.toLowerCase() === email.toLowerCase();
      if (sameAddress('ada@example.com')) {
        return invalid(
          'email',
          'invite_self',
          'You already belong to this organization: invite someone else.',
        );
      }
      if ((organization.members ?? []).some(sameAddress)) {
        return sendJson(response, 409, {
          detail: `${email} already belongs to this organization.`,
          code: 'already_member',
        });
      }
      return invite(response, organization, { email, role }, 'organization', fake.rateLimited);
    }
    sendJson(response, 404, { detail: 'Not found.', code: 'not_found' });
  };

  const server = await startJsonServer(handle);
  const fake: FakeTeamsServer = {
    ...server,
    seen,
    plans,
    received,
    organizations,
    tokens,
    organizationsTotal: undefined,
    rateLimited: false,
    issueToken() {
      const token = `token-${randomUUID()}`;
      tokens.add(token);
      return token;
    },
  };
  return fake;
}

/** The document JSON of a fake plan: its outline's titles and uuids, the caller's role. */
function planAnswer(plan: FakeSharedPlan) {
  const outline = plan.outline ?? [];
  const answer = documentAnswer({
    uuid: plan.uuid,
    title: plan.title,
    outline: outline.map((section) => section.subsections.map(() => false)),
  });
  return {
    ...answer,
    role: plan.role,
    sections: answer.sections.map((section, index) => ({
      ...section,
      title: outline[index]?.title ?? section.title,
      subsections: section.subsections.map((subsection, subIndex) => ({
        ...subsection,
        ...outline[index]?.subsections[subIndex],
      })),
    })),
  };
}

/** The username of an address, as the server derives it: its local part. */
function usernameOf(email: string): string {
  return (email.split('@')[0] ?? '').toLowerCase();
}

/** A person as comments name them. */
export function authorOf(person: FakePerson): CommentAuthor {
  return {
    id: person.id,
    username: usernameOf(person.email),
    first_name: person.first_name ?? '',
    last_name: person.last_name ?? '',
  };
}

/**
 * The end of an invitation as the real server answers it for plans and organisations alike
 * (`sharing/invitation-sender.ts`): 409 for an address already invited, 429 when limited, else 201.
 */
function invite<Role extends string>(
  response: ServerResponse,
  target: { invitations?: Array<{ id: string; email: string; role: Role }> },
  input: { email: string; role: Role },
  what: 'document' | 'organization',
  rateLimited: boolean,
) {
  const { email } = input;
  if ((target.invitations ?? []).some((sent) => sent.email.toLowerCase() === email.toLowerCase())) {
    return sendJson(response, 409, {
      detail: `${email} already has a pending invitation to this ${what}. Resend it instead.`,
      code: 'already_invited',
    });
  }
  if (rateLimited) {
    response.setHeader('retry-after', '3600');
    return sendJson(response, 429, {
      detail: 'Too many invitations sent. Please wait a while and try again.',
      code: 'rate_limited',
    });
  }
  const invitation = { id: randomUUID(), ...input };
  target.invitations = [...(target.invitations ?? []), invitation];
  return sendJson(response, 201, sentInvitation(invitation));
}

function sentInvitation(invitation: { id: string; email: string; role: string }) {
  return {
    ...invitation,
    created_at: TEAMS_CREATED,
    sent_at: TEAMS_CREATED,
    expires_at: TEAMS_EXPIRES,
  };
}

function organizationBody(organization: FakeOrganization) {
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug ?? organization.name.toLowerCase(),
    title: organization.name,
    role: organization.role,
    created_at: TEAMS_CREATED,
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}
