import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
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

/**
 * `planwright blueprints list|show`: your blueprints, and (with `--available`) every one you may make a
 * document from, marketplace ones included. Their titles are other people's text: everything from the
 * server is made safe for the terminal before printing.
 */
export function registerBlueprintsCommand(program: Command, io: CliIo): void {
  const blueprints = program
    .command('blueprints')
    .description(
      'list and show blueprints, the templates documents are made from (needs `planwright login`)',
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
}
