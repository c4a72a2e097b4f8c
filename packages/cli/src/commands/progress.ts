import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { identifierSchema } from '../options/workspace-options.js';
import { createOutput } from '../output.js';

const progressInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    uuid: identifierSchema(z, 'document'),
  });

/**
 * `planwright progress <uuid>`: how much of a document is finalized, per section (T10, T11). A table per
 * section for people; `--json` prints `{ finalized, total, percent, sections }`.
 */
export function registerProgressCommand(program: Command, io: CliIo): void {
  program
    .command('progress')
    .description('show which subsections of a document are finalized, per section (needs `planwright login`)')
    .argument('<uuid>', "the document's uuid")
    .action(async (_uuid: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, progressInput);
      const [{ openSignedInSession }, { withNotFound }, report, sdk] = await Promise.all([
        import('../session/signed-in-call.js'),
        import('../workspace/not-found.js'),
        import('../chat/progress-report.js'),
        import('@planwright/sdk'),
      ]);
      const session = await openSignedInSession(io, input.server);
      const document = await withNotFound(
        () => session.call((client) => client.documents.get(input.uuid)),
        sdk.DOCUMENT_TEXTS.notFound,
        'Run `planwright documents list` to see your documents.',
      );
      createOutput(io, input).result(report.progressReport(document), () => report.progressLines(document));
    });
}
