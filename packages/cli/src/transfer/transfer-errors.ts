import { CliError, CliErrorCode, type CliErrorOptions } from '../errors/cli-error.js';
import { ExitCode } from '../exit-codes.js';

/** The codes of a file `export`, `import` or `convert` could not read or write. */
export type TransferFileErrorCode =
  | typeof CliErrorCode.fileExists
  | typeof CliErrorCode.fileUnreadable
  | typeof CliErrorCode.fileUnwritable;

/**
 * A file given on the command line could not be read, or the output could not be written (it exists
 * and `--force` was not given, a permission, a full disk…). Exit code 1.
 */
export class TransferFileError extends CliError {
  readonly path: string;

  constructor(code: TransferFileErrorCode, path: string, message: string, options?: CliErrorOptions) {
    super(code, ExitCode.failure, message, options);
    this.path = path;
  }
}

/** `export --all` wrote some documents but not all of them. Exit code 1. */
export class ExportFailedError extends CliError {
  readonly failed: number;

  constructor(failed: number, total: number, options?: CliErrorOptions) {
    super(
      CliErrorCode.exportFailed,
      ExitCode.failure,
      `${failed} of ${total} ${total === 1 ? 'document' : 'documents'} could not be exported`,
      options,
    );
    this.failed = failed;
  }
}
