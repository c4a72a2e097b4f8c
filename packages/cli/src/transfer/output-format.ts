import { basename, extname } from 'node:path';
import type { ExportFormat } from '@planwright/sdk/formats';
import { UsageError } from '../errors/cli-error.js';
import { STDOUT_PATH } from './transfer-files.js';

/**
 * The output file names `export -o` and `convert -o` accept, for help texts and docs (the SDK's
 * `EXPORT_FORMATS` and `parseExportFormat`'s `.markdown` alias, which `--help` must not load).
 */
export const OUTPUT_EXTENSIONS_HELP = '.md (or .markdown), .docx, .pdf, .html or .json';

/** The `--format` values, for help texts. */
export const OUTPUT_FORMATS_HELP = 'md, docx, pdf, html or json';

/** What decides the format of `export` and `convert` output. */
export interface OutputFormatInput {
  /** `-o` as typed: a file, `-` or nothing for standard output. */
  output?: string | undefined;
  /** `--format` as typed, or nothing. */
  format?: string | undefined;
}

/** How a command treats standard output when `--format` is not given. */
export interface OutputFormatOptions {
  /** `planwright export`, for "--help" hints. */
  command: string;
  /** The format for standard output without `--format`; none means `--format` is required there. */
  stdoutDefault?: ExportFormat;
}

/**
 * The one place where `-o` and `--format` become an export format, shared by `export` and `convert`:
 * a file's extension says its format (`plan.pdf` is a PDF), `--format` must agree with it, an unknown
 * extension is refused with the accepted ones, a name without extension needs `--format`, and standard
 * output takes `--format` (or the command's default). Everything is checked before any work is done.
 *
 * @throws UsageError (exit 2) naming the argument and what is accepted.
 */
export async function resolveOutputFormat(
  input: OutputFormatInput,
  options: OutputFormatOptions,
): Promise<ExportFormat> {
  const { EXPORT_FORMATS, parseExportFormat } = await import('@planwright/sdk/formats');
  const hint = `Run \`${options.command} --help\` for usage.`;
  let chosen: ExportFormat | undefined;
  if (input.format !== undefined) {
    chosen = parseExportFormat(input.format);
    if (chosen === undefined) {
      throw new UsageError(`--format: "${input.format}" is not a format; use ${EXPORT_FORMATS.join(', ')}`, {
        suggestion: hint,
      });
    }
  }

  if (input.output === undefined || input.output === STDOUT_PATH) {
    if (chosen !== undefined) return chosen;
    if (options.stdoutDefault !== undefined) return options.stdoutDefault;
    throw new UsageError('-o - needs --format, since there is no file name to tell the format', {
      suggestion: hint,
    });
  }

  const name = basename(input.output);
  const extension = extname(input.output);
  if (extension === '') {
    if (chosen !== undefined) return chosen;
    throw new UsageError(
      `-o: cannot tell the format of "${name}": name it ${OUTPUT_EXTENSIONS_HELP}, or pass --format`,
      { suggestion: hint },
    );
  }
  const named = parseExportFormat(extension);
  if (named === undefined) {
    throw new UsageError(
      `-o: "${name}" has an unknown extension ${extension}; use ${OUTPUT_EXTENSIONS_HELP}`,
      {
        suggestion: hint,
      },
    );
  }
  if (chosen !== undefined && chosen !== named) {
    throw new UsageError(
      `--format ${chosen} disagrees with -o "${name}" (a .${named} file): drop --format, or name the file .${chosen}`,
    );
  }
  return named;
}
