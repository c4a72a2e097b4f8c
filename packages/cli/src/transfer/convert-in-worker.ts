import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  type ConversionBudgetRules,
  conversionBudget,
  FormatError,
  type FormatErrorReason,
  type ImportReport,
} from '@planwright/sdk/formats';
import type { ConvertWorkerInput } from './convert-worker.js';

/** What a conversion gave: the file, the import's report and the title the input named. */
export interface ConvertedFile {
  bytes: Uint8Array;
  report: ImportReport;
  fileTitle: string | undefined;
}

type WorkerMessage =
  | { kind: 'started' }
  | { kind: 'imported'; contentBytes: number; report: ImportReport; title: string | undefined }
  | { kind: 'done'; bytes: Uint8Array }
  | { kind: 'refused'; reason: FormatErrorReason; message: string }
  | { kind: 'crashed'; message: string };

// From the sources (tests, `npm run dev`) the worker is TypeScript, loaded through tsx with the source
// condition, as the server's conversion pool does; from dist/ it is the bundled JavaScript beside this chunk.
const fromSource = import.meta.url.endsWith('.ts');

function spawnWorker(input: ConvertWorkerInput, memoryMb: number): Worker {
  // `none` (Infinity) leaves Node's own heap limit.
  const resourceLimits = Number.isFinite(memoryMb) ? { maxOldGenerationSizeMb: memoryMb } : {};
  if (fromSource) {
    const tsx = pathToFileURL(
      createRequire(import.meta.url)
        .resolve('tsx/esm/api')
        .replace(/\.cjs$/, '.mjs'),
    ).href;
    const worker = new URL('./convert-worker.ts', import.meta.url).href;
    const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => api.tsImport(${JSON.stringify(worker)}, ${JSON.stringify(worker)}));`;
    return new Worker(bootstrap, {
      eval: true,
      execArgv: ['--conditions=planwright-source'],
      workerData: input,
      resourceLimits,
    });
  }
  return new Worker(new URL('./convert-worker.js', import.meta.url), { workerData: input, resourceLimits });
}

/**
 * Converts in a worker thread under the server's budgets (`conversionBudget`: the import's scaled to the
 * file, the export's to the imported tree), or one limit for each step when `timeLimitMs` is given
 * (`--time-limit`), or none (`Infinity`). A step over its limit has the thread terminated and fails
 * `timed_out`, saying the limit and how to raise it. The thread's heap limit is the import's memory
 * budget, or `memoryLimitMb` (`--memory-limit`; `Infinity`: Node's own); a conversion over it fails
 * `out_of_memory` the same way.
 */
export function convertInWorker(
  input: ConvertWorkerInput,
  options: {
    timeLimitMs?: number | undefined;
    memoryLimitMb?: number | undefined;
    rules?: ConversionBudgetRules;
  } = {},
): Promise<ConvertedFile> {
  const limitOf = (kind: 'import' | 'export', bytes: number) => {
    if (options.timeLimitMs !== undefined)
      return { timeoutMs: options.timeLimitMs, label: 'the limit --time-limit set' };
    return conversionBudget(kind, bytes, options.rules);
  };
  // The heap is set once, when the thread starts, so the import's budget covers the export too: a tree's
  // JSON is 1.5–2 × its file (bench/conversion-memory.mjs), and an export gets an eighth of an import's
  // heap per MB.
  const memory =
    options.memoryLimitMb !== undefined
      ? { memoryMb: options.memoryLimitMb, memoryLabel: 'the limit --memory-limit set' }
      : conversionBudget('import', input.bytes.length, options.rules);
  return new Promise((resolve, reject) => {
    const worker = spawnWorker(input, memory.memoryMb);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let imported: Extract<WorkerMessage, { kind: 'imported' }> | undefined;
    const settle = () => {
      if (timer !== undefined) clearTimeout(timer);
      void worker.terminate();
    };
    const limit = (kind: 'import' | 'export', bytes: number) => {
      if (timer !== undefined) clearTimeout(timer);
      const { timeoutMs, label } = limitOf(kind, bytes);
      if (!Number.isFinite(timeoutMs)) return;
      timer = setTimeout(() => {
        settle();
        reject(
          new FormatError({
            reason: 'timed_out',
            message: `The ${kind} took longer than ${Math.round(timeoutMs / 100) / 10} s (${label}) and was stopped; --time-limit <seconds> raises it.`,
          }),
        );
      }, timeoutMs);
    };
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'started') {
        limit('import', input.bytes.length);
        return;
      }
      if (message.kind === 'imported') {
        imported = message;
        limit('export', message.contentBytes);
        return;
      }
      settle();
      if (message.kind === 'done' && imported)
        resolve({ bytes: message.bytes, report: imported.report, fileTitle: imported.title });
      else if (message.kind === 'refused')
        reject(new FormatError({ reason: message.reason, message: message.message }));
      else
        reject(
          new Error(`The conversion failed: ${message.kind === 'crashed' ? message.message : 'no file'}`),
        );
    });
    worker.on('error', (error) => {
      settle();
      if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_OUT_OF_MEMORY') {
        reject(error);
        return;
      }
      reject(
        new FormatError({
          reason: 'out_of_memory',
          message: `The conversion needed more than ${memory.memoryMb} MB of memory (${memory.memoryLabel}) and was stopped; --memory-limit <MB> raises it.`,
          cause: error,
        }),
      );
    });
  });
}
