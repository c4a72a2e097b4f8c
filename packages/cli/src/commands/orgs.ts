import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { UsageError } from '../errors/cli-error.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { createOutput } from '../output.js';

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

/**
 * `planwright orgs list|create`: the organisations the signed-in user belongs to (`docs/http-api.md`
 * "Organisations"). Plans and restricted blueprints are shared with them. `--json` prints the SDK's objects.
 */
export function registerOrgsCommand(program: Command, io: CliIo): void {
  const orgs = program
    .command('orgs')
    .description('list and create your organisations (needs `planwright login`)');

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
}
