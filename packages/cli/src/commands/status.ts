import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { resolveServerUrl, serverUrlSchema } from '../config/server-url.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { createOutput, formatFields } from '../output.js';

const statusInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
  });

const sourceText = {
  flag: 'from --server',
  env: 'from PLANWRIGHT_SERVER',
  config: 'from the config file',
  default: 'default',
} as const;

/** `planwright status`: is the server up, which database does it use, which version is it. */
export function registerStatusCommand(program: Command, io: CliIo): void {
  program
    .command('status')
    .description('check that the Planwright server answers, and show its database and version')
    .action(async (_options: unknown, command: Command) => {
      // Loaded here, not at the top: it pulls in zod and the SDK (see program.ts).
      const { callServer } = await import('../server/call-server.js');
      const input = await parseCommandInput(command, statusInput);
      const server = await resolveServerUrl({
        flag: input.server,
        io,
        // The config file's code loads only when the file is read: not with --server or PLANWRIGHT_SERVER.
        readConfiguredServer: async () => {
          const { configFilePath, readConfigFile } = await import('../config/config-file.js');
          return (await readConfigFile(configFilePath(io))).server;
        },
      });

      const health = await callServer(server.url, (client) => client.site.health());

      createOutput(io, { json: input.json }).result(
        { server: server.url, serverSource: server.source, ...health },
        () =>
          formatFields([
            ['Server', `${server.url} (${sourceText[server.source]})`],
            ['Status', health.status],
            ['Database', health.database],
            ['Version', health.version],
          ]),
      );
    });
}
