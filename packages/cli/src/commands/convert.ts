import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { parseCommandInput, type Zod } from '../options/parse-command-input.js';
import { OUTPUT_EXTENSIONS_HELP, OUTPUT_FORMATS_HELP } from '../transfer/output-format.js';

const convertInput = (z: Zod) =>
  z.object({
    json: z.boolean().default(false),
    input: z.string().min(1, 'expected a file to convert'),
    output: z.string().min(1, 'expected a file name, or - for standard output'),
    format: z.string().optional(),
    title: z.string().optional(),
    force: z.boolean().default(false),
    timeLimit: z.string().optional(),
    memoryLimit: z.string().optional(),
  });

/**
 * `planwright convert <in> -o <out>`: a file from one format to another on this computer, with no
 * server, config or session. The work is in `src/transfer/convert-file.ts`, loaded only when it runs.
 */
export function registerConvertCommand(program: Command, io: CliIo): void {
  program
    .command('convert')
    .description(
      'convert a file offline: .md, .markdown, .docx, .html, .htm, .json in; .md, .docx, .pdf, .html, .json out',
    )
    .argument('<input>', 'the file to read (its extension says its format)')
    .requiredOption(
      '-o, --output <file>',
      `the file to write, named ${OUTPUT_EXTENSIONS_HELP} (its extension says the format), or - for standard output`,
    )
    .option(
      '--format <format>',
      `the output format: ${OUTPUT_FORMATS_HELP}; needed with -o - or a name without extension, else it must agree with -o`,
    )
    .option(
      '--title <title>',
      "the document's title (title page, HTML <title>; default: the input file's name)",
    )
    .option('--force', 'replace the output file if it exists')
    .option(
      '--time-limit <seconds>',
      'how long the import and the export may each take (default: the server’s limits, 10 s plus 60 s per MB of input, at most 120 s), or none',
    )
    .option(
      '--memory-limit <MB>',
      'how much heap the conversion may use (default: the server’s limit, 256 MB plus 1024 MB per MB of input, at most 1536 MB), or none',
    )
    .action(async (_input: string, _options: unknown, command: Command) => {
      const input = await parseCommandInput(command, convertInput);
      const { convertFile } = await import('../transfer/convert-file.js');
      await convertFile(io, input);
    });
}
