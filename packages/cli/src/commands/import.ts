import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { identifierSchema } from '../options/workspace-options.js';

const importInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    uuid: identifierSchema(z, 'document'),
    file: z.string().min(1, 'expected a .md, .markdown or .docx file'),
    replace: z.boolean().default(false),
  });

/**
 * `planwright import <uuid> <file> [--replace]`: a .md/.markdown or .docx file into a document, converted
 * by the server, which takes no other kind (`DOCUMENT_IMPORT_FORMATS`; a .txt is refused there too). The work is in `src/transfer/import-document.ts`, loaded only when the command runs.
 */
export function registerImportCommand(program: Command, io: CliIo): void {
  program
    .command('import')
    .description(
      'import a .md, .markdown or .docx file into a document (new sections are added; --replace swaps the content)',
    )
    .argument('<uuid>', "the document's uuid")
    .argument('<file>', 'a Markdown (.md, .markdown) or Word (.docx) file; other extensions are refused')
    .option('--replace', "replace the document's content instead of adding to it")
    .action(async (_uuid: string, _file: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, importInput);
      const { importIntoDocument } = await import('../transfer/import-document.js');
      await importIntoDocument(io, { ...input, mode: input.replace ? 'replace' : 'merge' });
    });
}
