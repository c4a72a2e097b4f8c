import { basename, extname } from 'node:path';
import type { ExportFormat, ImportFormat, ImportReport } from '@planwright/sdk/formats';
import type { CliIo } from '../cli-io.js';
import { terminalText } from '../display/terminal-text.js';
import { UsageError } from '../errors/cli-error.js';
import { createOutput } from '../output.js';
import { resolveOutputFormat } from './output-format.js';
import {
  ensureWritable,
  readInputFile,
  STDOUT_PATH,
  writeOutputFile,
  writeToStdout,
} from './transfer-files.js';
import { formatSize, noteText } from './transfer-text.js';

/** What `planwright convert` was asked to do. */
export interface ConvertInput {
  json: boolean;
  input: string;
  output: string;
  /** The output format when the output's extension does not say it (or `-o -`). */
  format?: string | undefined;
  title?: string | undefined;
  force: boolean;
  /** `--time-limit`: seconds each step (import, export) may take, or `none`; default: the server's budgets. */
  timeLimit?: string | undefined;
  /** `--memory-limit`: MB of heap the conversion may use, or `none`; default: the server's budget. */
  memoryLimit?: string | undefined;
}

/** What `planwright convert … --json` prints. */
export interface ConvertReport {
  input: string;
  output: string;
  from: ImportFormat;
  to: ExportFormat;
  bytes: number;
  report: ImportReport;
}

const HINT = 'Run `planwright convert --help` for usage.';

/**
 * Converts a file on this computer with `@planwright/sdk/formats/node` (loaded only here): read, import
 * with its report, export. Both formats and the output are checked before the input is read. The
 * import report's notes go to standard error; a refused input is the SDK's `FormatError` (exit 1).
 */
export async function convertFile(io: CliIo, input: ConvertInput): Promise<void> {
  const formats = await import('@planwright/sdk/formats');
  let from: ImportFormat;
  try {
    from = formats.requireImportFormat(input.input, formats.IMPORT_FORMATS);
  } catch (error) {
    if (!formats.FormatError.isInstance(error)) throw error;
    throw new UsageError(`<input>: ${error.message}`, { suggestion: HINT, cause: error });
  }
  const toStdout = input.output === STDOUT_PATH;
  const to = await resolveOutputFormat(input, { command: 'planwright convert' });
  if (toStdout) {
    if (input.json) {
      throw new UsageError('--json prints a report on standard output, so -o must name a file', {
        suggestion: HINT,
      });
    }
    if (!formats.isTextFormat(to) && io.stdout.isTTY === true) {
      throw new UsageError(`refusing to write binary .${to} to a terminal`, {
        suggestion: 'Use -o FILE, or redirect standard output to a file.',
      });
    }
  } else {
    await ensureWritable(input.output, input.force);
  }

  const timeLimitMs = timeLimitOf(input.timeLimit);
  const memoryLimitMb = memoryLimitOf(input.memoryLimit);
  const bytes = await readInputFile(input.input);
  const { convertInWorker } = await import('./convert-in-worker.js');
  // A .docx names its own title (its title page); else the input's base name.
  const { bytes: converted, report } = await convertInWorker(
    {
      bytes,
      from,
      to,
      title: input.title,
      fallbackTitle: basename(input.input, extname(input.input)),
    },
    { timeLimitMs, memoryLimitMb },
  );

  if (!input.json) for (const note of report.notes) io.stderr.write(`note: ${noteText(note)}\n`);
  if (toStdout) {
    writeToStdout(io.stdout, converted, formats.isTextFormat(to));
    return;
  }
  await writeOutputFile(input.output, converted, input.force);
  const result: ConvertReport = {
    input: input.input,
    output: input.output,
    from,
    to,
    bytes: converted.length,
    report,
  };
  createOutput(io, input).result(
    result,
    () =>
      `Converted ${terminalText(input.input)} (${from}) to ${terminalText(input.output)} (${to}, ${formatSize(converted.length)}).`,
  );
}

/**
 * `--time-limit`: seconds (a positive number) or `none`; absent, the server's budgets apply (undefined).
 * @throws UsageError for anything else.
 */
function timeLimitOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (value.trim().toLowerCase() === 'none') return Number.POSITIVE_INFINITY;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || value.trim() === '') {
    throw new UsageError(`--time-limit: "${value}" is not a number of seconds; use e.g. 300, or none`, {
      suggestion: HINT,
    });
  }
  return Math.round(seconds * 1000);
}

/**
 * `--memory-limit`: MB of heap (a whole number, at least 32) or `none`; absent, the server's budget
 * applies (undefined).
 * @throws UsageError for anything else.
 */
function memoryLimitOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (value.trim().toLowerCase() === 'none') return Number.POSITIVE_INFINITY;
  const megabytes = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || megabytes < 32 || megabytes > 65_536) {
    throw new UsageError(
      `--memory-limit: "${value}" is not a number of MB from 32 to 65536; use e.g. 2048, or none`,
      { suggestion: HINT },
    );
  }
  return megabytes;
}
