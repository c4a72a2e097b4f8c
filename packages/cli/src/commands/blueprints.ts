import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { UsageError } from '../errors/cli-error.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { identifierSchema, positiveIntegerSchema } from '../options/workspace-options.js';
import { createOutput } from '../output.js';

const listInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    available: z.boolean().default(false),
    page: positiveIntegerSchema(z).optional(),
    pageSize: positiveIntegerSchema(z, 100).optional(),
  });

const showInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    uuid: identifierSchema(z, 'blueprint'),
  });

const createInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    title: z.string().optional(),
  });

const VISIBILITIES = ['public', 'restricted', 'private', 'unlisted'] as const;

const publishInput = (z: Zod) =>
  z
    .object({
      server: serverUrlSchema(z).optional(),
      json: z.boolean().default(false),
      uuid: identifierSchema(z, 'blueprint'),
      visibility: z
        .enum(VISIBILITIES, { error: 'must be public, restricted, private or unlisted' })
        .optional(),
      org: z.array(identifierSchema(z, 'organisation')).default([]),
      version: positiveIntegerSchema(z).optional(),
    })
    .refine((input) => input.org.length === 0 || input.visibility === 'restricted', {
      message: 'only goes with --visibility restricted',
      path: ['org'],
    });

/** Commander's way to let `--org` be given more than once. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

const BLUEPRINT_LIST_HINT = 'Run `planwright blueprints list` to see your blueprints.';

/**
 * `planwright blueprints list|show|create|publish|unpublish`: your blueprints, and (with `--available`) every one you may make a
 * document from, marketplace ones included. Their titles are other people's text: everything from the
 * server is made safe for the terminal before printing.
 */
export function registerBlueprintsCommand(program: Command, io: CliIo): void {
  const blueprints = program
    .command('blueprints')
    .description(
      'list, show, create and publish blueprints, the templates documents are made from (needs `planwright login`)',
    );

  blueprints
    .command('list')
    .description('list your blueprints, or with --available all you can make a document from')
    .option(
      '--available',
      'the blueprints you can make a document from: yours and the published ones you may see',
    )
    .option('--page <n>', 'the page to show (1, 2, …)')
    .option('--page-size <n>', 'blueprints per page, 1 to 100 (the server default is 20)')
    .action(async (_options: unknown, command: Command) => {
      const input = await parseCommandInput(command, listInput);
      const [{ openSignedInSession }, views] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/blueprint-views.js'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const query = { page: input.page, pageSize: input.pageSize };
      const page = await session.call((client) =>
        input.available ? client.blueprints.available(query) : client.blueprints.list(query),
      );
      createOutput(io, input).result(page, () =>
        views.blueprintListLines(page, {
          page: input.page ?? 1,
          pageSize: input.pageSize,
          available: input.available,
        }),
      );
    });

  blueprints
    .command('show')
    .description("show a blueprint's fields, system prompt and outline")
    .argument('<uuid>', "the blueprint's uuid")
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, showInput);
      const [{ openSignedInSession }, { withNotFound }, views, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('../workspace/blueprint-views.js'),
        import('@planwright/sdk'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const blueprint = await withNotFound(
        () => session.call((client) => client.blueprints.get(input.uuid)),
        sdk.BLUEPRINT_TEXTS.notFound,
        'Run `planwright blueprints list --available` to see the blueprints you can use.',
      );
      createOutput(io, input).result(blueprint, () => views.blueprintDetailLines(blueprint));
    });

  blueprints
    .command('create')
    .description('make a new blueprint: a private draft with one section and one subsection')
    .option('--title <title>', 'its title (default: "Untitled Blueprint")')
    .action(async (_options: unknown, command: Command) => {
      const input = await parseCommandInput(command, createInput);
      const [{ openSignedInSession }, { terminalText }, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../display/terminal-text.js'),
        import('@planwright/sdk'),
      ]);
      let title: string | undefined;
      if (input.title !== undefined) {
        const problem = sdk.validateBlueprintTitle(input.title);
        if (problem !== undefined) throw new UsageError(`--title: ${problem}`);
        title = input.title.trim();
      }
      const session = await openSignedInSession(io, input.server);
      const blueprint = await session.call((client) =>
        client.blueprints.create(title === undefined ? {} : { title }),
      );
      const uuid = terminalText(blueprint.uuid);
      createOutput(io, input).result(blueprint, () => [
        `Created "${terminalText(sdk.blueprintTitle(blueprint))}" (${uuid}).`,
        `It is a private draft: write it in the web editor at /dashboard/blueprints/${uuid}/edit, then \`planwright blueprints publish ${uuid}\`.`,
      ]);
    });

  blueprints
    .command('publish')
    .description(
      'publish a blueprint so others can make documents from it; publishing a published one makes a new version',
    )
    .argument('<uuid>', "the blueprint's uuid")
    .option(
      '--visibility <visibility>',
      'public, restricted (to --org), private (only you) or unlisted (by link)',
    )
    .option(
      '--org <id>',
      'an organisation a restricted blueprint is shared with (repeat for more)',
      collect,
      [],
    )
    .option('--version <n>', 'the version to publish (default: the next one; a draft keeps its own)')
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, publishInput);
      const [{ openSignedInSession }, { withNotFound }, { terminalText }, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('../display/terminal-text.js'),
        import('@planwright/sdk'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const blueprint = await withNotFound(
        () =>
          session.call((client) =>
            client.blueprints.publish(input.uuid, {
              ...(input.visibility === undefined ? {} : { visibility: input.visibility }),
              ...(input.org.length === 0 ? {} : { allowed_orgs: input.org }),
              ...(input.version === undefined ? {} : { version: input.version }),
            }),
          ),
        sdk.BLUEPRINT_TEXTS.notFound,
        BLUEPRINT_LIST_HINT,
      );
      const shared =
        blueprint.visibility === 'restricted'
          ? `restricted to ${blueprint.allowed_orgs.length} organisation${blueprint.allowed_orgs.length === 1 ? '' : 's'}`
          : blueprint.visibility;
      createOutput(io, input).result(
        blueprint,
        () =>
          `Published "${terminalText(sdk.blueprintTitle(blueprint))}" version ${blueprint.version} (${shared}).`,
      );
    });

  blueprints
    .command('unpublish')
    .description('make a published blueprint a draft again (documents made from it keep working)')
    .argument('<uuid>', "the blueprint's uuid")
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, showInput);
      const [{ openSignedInSession }, { withNotFound }, { terminalText }, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('../display/terminal-text.js'),
        import('@planwright/sdk'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const blueprint = await withNotFound(
        () => session.call((client) => client.blueprints.unpublish(input.uuid)),
        sdk.BLUEPRINT_TEXTS.notFound,
        BLUEPRINT_LIST_HINT,
      );
      createOutput(io, input).result(
        blueprint,
        () => `Unpublished "${terminalText(sdk.blueprintTitle(blueprint))}"; it is a draft again.`,
      );
    });
}
