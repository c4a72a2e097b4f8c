// A conversion worker thread (see formats/conversion-pool.ts): the libraries that read and write files
// (mammoth, docx, pdfmake) run here, so a hostile or huge file can be stopped by killing the thread
// without touching the server's event loop.
import { parentPort } from 'node:worker_threads';
import { FormatError } from '@planwright/sdk/formats';
import { exportDocument, importDocument } from '@planwright/sdk/formats/node';
import { runContentJob } from './documents/content-work.js';
import type { WorkerAnswer, WorkerRequest } from './formats/conversion-job.js';

async function run(request: WorkerRequest): Promise<WorkerAnswer> {
  const { id, job } = request;
  try {
    if (job.kind === 'document-patch' || job.kind === 'import-merge')
      return { id, ok: true, result: runContentJob(job) };
    if (job.kind === 'import') {
      const result = await importDocument(job.bytes, job.format, {
        limits: { maxUnpackedBytes: job.maxUnpackedBytes },
      });
      return { id, ok: true, result };
    }
    const result = await exportDocument(JSON.parse(job.contentJson), job.format, { title: job.title });
    return { id, ok: true, result };
  } catch (error) {
    if (FormatError.isInstance(error))
      return { id, ok: false, refusal: { reason: error.reason, message: error.message } };
    return {
      id,
      ok: false,
      crash: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
  }
}

parentPort?.on('message', (request: WorkerRequest) => {
  void run(request).then((answer) => {
    const transfer =
      answer.ok && answer.result instanceof Uint8Array ? [answer.result.buffer as ArrayBuffer] : [];
    parentPort?.postMessage(answer, transfer);
  });
});
