import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { serverUrlSchema } from '../config/server-url.js';
import { UsageError } from '../errors/cli-error.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { identifierSchema } from '../options/workspace-options.js';
import {
  OUTPUT_EXTENSIONS_HELP,
  OUTPUT_FORMATS_HELP,
  resolveOutputFormat,
} from '../transfer/output-format.js';

const exportInput = (z: Zod) =>
  z.object({
    server: serverUrlSchema(z).optional(),
    json: z.boolean().default(false),
    uuid: identifierSchema(z, 'document').optional(),
    format: z.string().optional(),
    output: z.string().min(1, 'expected a file name, or - for standard output').optional(),
    all: z.boolean().default(false),
    outDir: z.string().trim().min(1, 'expected a folder').optional(),
    force: z.boolean().default(false),
  });

/**
 * `planwright export <uuid>` and `planwright export --all`: documents as files, converted by the server
 * (`GET documents/{uuid}/export`). The work is in `src/transfer/export-documents.ts`, loaded only when
 * the command runs.
 */
export function registerExportCommand(program: Command, io: CliIo): void {
  program
    .command('export')
    .description('export a document (or --all of them) as Markdown, .docx, PDF, HTML or JSON')
    .argument('[uuid]', "the document's uuid (not with --all)")
    .option(
      '--format <format>',
      `the file format: ${OUTPUT_FORMATS_HELP} (default: the -o file's extension, else md); it must agree with -o`,
    )
    .option(
      '-o, --output <file>',
      `write to this file, named ${OUTPUT_EXTENSIONS_HELP} (its extension says the format); default: standard output`,
    )
    .option('--all', 'export every document into --out-dir')
    .option('--out-dir <dir>', 'the folder for --all (created when missing)')
    .option('--force', 'replace files that exist already')
    .action(async (_uuid: string | undefined, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, exportInput);
      const hint = 'Run `planwright export --help` for usage.';
      if (input.all) {
        if (input.uuid !== undefined)
          throw new UsageError('<uuid> and --all do not go together', { suggestion: hint });
        if (input.output !== undefined)
          throw new UsageError('--output is for one document; --all writes into --out-dir', {
            suggestion: hint,
          });
        if (input.outDir === undefined)
          throw new UsageError('--all needs --out-dir <dir>', { suggestion: hint });
      } else {
        if (input.uuid === undefined)
          throw new UsageError("<uuid>: expected the document's uuid, or --all", { suggestion: hint });
        if (input.outDir !== undefined)
          throw new UsageError('--out-dir goes with --all; for one document use --output <file>', {
            suggestion: hint,
          });
      }
      const format = await resolveOutputFormat(input, { command: 'planwright export', stdoutDefault: 'md' });
      const transfer = await import('../transfer/export-documents.js');
      if (input.all && input.outDir !== undefined) {
        await transfer.exportAllDocuments(io, { ...input, format, outDir: input.outDir });
      } else if (input.uuid !== undefined) {
        await transfer.exportOneDocument(io, { ...input, format, uuid: input.uuid });
      }
    });
}
