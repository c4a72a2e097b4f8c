// The conversion of `planwright convert`, in a worker thread (see convert-in-worker.ts): a file that takes
// longer than its budget is stopped by terminating the thread, the only way to stop a parser or a layout
// that never yields.
import { parentPort, workerData } from 'node:worker_threads';
import type { ExportFormat, ImportFormat } from '@planwright/sdk/formats';
import { FormatError } from '@planwright/sdk/formats';
import { exportDocument, importDocument } from '@planwright/sdk/formats/node';

/** @internal What the worker is asked to do. */
export interface ConvertWorkerInput {
  bytes: Uint8Array;
  from: ImportFormat;
  to: ExportFormat;
  /** `--title`, when given. */
  title: string | undefined;
  /** The title when neither `--title` nor the file names one (the input's base name). */
  fallbackTitle: string;
}

async function convert(input: ConvertWorkerInput): Promise<void> {
  // The budget counts the conversion, not the thread's start (loading the SDK takes a while from sources).
  parentPort?.postMessage({ kind: 'started' });
  try {
    const imported = await importDocument(input.bytes, input.from);
    // The export's budget is scaled to the tree it writes: tell the main thread how large that is.
    parentPort?.postMessage({
      kind: 'imported',
      contentBytes: JSON.stringify(imported.document).length,
      report: imported.report,
      title: imported.title,
    });
    const title = input.title ?? imported.title ?? input.fallbackTitle;
    const converted = await exportDocument(imported.document, input.to, { title });
    parentPort?.postMessage({ kind: 'done', bytes: converted }, [converted.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort?.postMessage(
      FormatError.isInstance(error)
        ? { kind: 'refused', reason: error.reason, message: error.message }
        : {
            kind: 'crashed',
            message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          },
    );
  }
}

void convert(workerData as ConvertWorkerInput);
