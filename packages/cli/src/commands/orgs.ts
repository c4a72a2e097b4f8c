import type { ListPage, Organization, OrganizationRole } from '@planwright/sdk';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { UsageError } from '../errors/cli-error.js';
import { emailAddressSchema } from '../login/email-address.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { isUuid } from '../options/workspace-options.js';
import { createOutput } from '../output.js';

/**
 * The roles someone is invited to an organisation as, as `--role` lists them. The SDK's `ORGANIZATION_ROLES`
 * is the same set (test/orgs-command.test.ts checks); it is not imported here because `--help` must not load
 * the SDK.
 */
export const ORG_INVITE_ROLES = ['member', 'admin'] as const satisfies readonly OrganizationRole[];

const ROLE_LIST = 'member or admin';

const listInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
  });

const createInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    name: z.string().trim().min(1, 'Name is required'),
  });

const inviteInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    org: z.string().trim().min(1, "expected the organisation's id or name"),
    email: emailAddressSchema(z),
    role: z.enum(ORG_INVITE_ROLES, {
      error: (issue) => `"${String(issue.input)}" is not a role: choose ${ROLE_LIST}`,
    }),
  });

/**
 * `planwright orgs list|create|invite`: the organisations the signed-in user belongs to (`docs/http-api.md`
 * "Organisations"). Plans and restricted blueprints are shared with them; their admins invite people by e-mail
 * (docs/teams.md "Invitations"). `--json` prints the SDK's objects.
 */
export function registerOrgsCommand(program: Command, io: CliIo): void {
  const orgs = program
    .command('orgs')
    .description('list, create and invite to your organisations (needs `planwright login`)');

  orgs
    .command('list')
    .description('list the organisations you belong to, with your role in each')
    .action(async (_options: unknown, command: Command) => {
      const input = await parseCommandInput(command, listInput);
      const [{ openSignedInSession }, views] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/organization-views.js'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const page = await session.call((client) => client.organizations.list());
      createOutput(io, input).result(page, () => views.organizationListLines(page));
    });

  orgs
    .command('create')
    .description('create an organisation; you become its admin')
    .argument('<name>', 'its name (trimmed; 1 to 100 characters)')
    .action(async (_name: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, createInput);
      const [{ openSignedInSession }, views, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/organization-views.js'),
        import('@planwright/sdk'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const organization = await session
        .call((client) => client.organizations.create({ name: input.name }))
        .catch((error: unknown) => {
          // The SDK checks the name (length, control characters) before sending: a usage error, as for a title.
          if (!sdk.InvalidInputError.isInstance(error)) throw error;
          throw new UsageError(`<name>: ${error.issues[0]?.message ?? error.message}`, { cause: error });
        });
      createOutput(io, input).result(organization, () => views.createdOrganizationLine(organization));
    });

  orgs
    .command('invite')
    .description('invite someone to an organisation by e-mail, as member or admin (its admins only)')
    .argument('<org>', "the organisation's id, or its name or slug when only one of yours has it")
    .requiredOption('--email <address>', 'the address to send the invitation to (an account is not needed)')
    .option('--role <role>', `what they become: ${ROLE_LIST}`, 'member')
    .addHelpText(
      'after',
      `
They join from the e-mail's link (signing up first if the address has no account), or with
\`planwright invitations accept <link>\` once signed in. Only the organisation's admins invite.

Examples:
  planwright orgs invite Studio --email mentor@uni.example
  planwright orgs invite 0a900000-0000-4000-8000-000000000001 --email partner@example.com --role admin`,
    )
    .action(async (_org: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, inviteInput);
      const [{ openSignedInSession }, { withNotFound }, views] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('../workspace/organization-views.js'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const page = await session.call((client) => client.organizations.list());
      const organization = resolveOrganization(page, input.org, views.organizationChoices);
      // A 404 (an organisation the caller is not an admin of) says so; 409 (already a member, already
      // invited), a 400 on the address (their own) and 429 (too many invitations) are reported as the server
      // words them, as for `planwright share`.
      const invitation = await withNotFound(
        () =>
          session.call((client) =>
            client.organizations.invite(organization.id, { email: input.email, role: input.role }),
          ),
        'Organisation not found.',
        'Only its admins invite people: `planwright orgs list` shows your role in each.',
      );
      createOutput(io, input).result(invitation, () =>
        views.sentOrganizationInvitationLine(invitation, organization),
      );
    });
}

/**
 * The organisation `<org>` means among the caller's (the server's first page of them): the one with that id,
 * else the only one with that name or slug (case-insensitive). A uuid that is none of them is passed on as it is
 * (the server judges it); an unknown name, or one several of them share, is a usage error naming the choices.
 */
function resolveOrganization(
  page: ListPage<Organization>,
  wanted: string,
  choices: (organizations: readonly Organization[]) => string,
): Pick<Organization, 'id' | 'name'> {
  const key = wanted.toLowerCase();
  const byId = page.items.find((organization) => organization.id.toLowerCase() === key);
  if (byId) return byId;
  const named = page.items.filter((organization) =>
    [organization.name, organization.slug].some((text) => text?.trim().toLowerCase() === key),
  );
  const [only] = named;
  if (only && named.length === 1) return only;
  if (named.length === 0 && isUuid(wanted)) return { id: key, name: '' };
  if (named.length > 1) {
    throw new UsageError(
      `<org>: ${named.length} of your organisations are called "${wanted}": choose one by id: ${choices(named)}`,
    );
  }
  if (page.items.length === 0) {
    throw new UsageError('<org>: you belong to no organisations', {
      suggestion: 'Create one with `planwright orgs create <name>`.',
    });
  }
  throw new UsageError(
    `<org>: none of your organisations is called "${wanted}": choose ${choices(page.items)}`,
    {
      suggestion:
        page.total > page.items.length
          ? `Names are matched among your first ${page.items.length} organisations of ${page.total}: pass the id of another.`
          : 'Run `planwright orgs list` to see your organisations.',
    },
  );
}
