import type { ExportFormat, FormatErrorReason, ImportFormat, ImportResult } from '@planwright/sdk/formats';
import type {
  ContentJob,
  ContentWorkAnswer,
  PreparedContent,
  PreparedDocumentPatch,
} from '../documents/content-work.js';

/** A file to read into a document. */
export interface ImportJob {
  kind: 'import';
  format: ImportFormat;
  bytes: Uint8Array;
  /** How far a .docx may unpack, counted while inflating. */
  maxUnpackedBytes: number;
}

/** A document to write as a file. */
export interface ExportJob {
  kind: 'export';
  format: ExportFormat;
  /** The content tree as JSON text (as stored; parsed in the worker, off the main thread). */
  contentJson: string;
  title: string;
}

/** Work for a conversion worker: a file to convert, or a large tree to prepare for saving (content pool). */
export type ConversionJob = ImportJob | ExportJob | ContentJob;

/** What a job gives back. */
export type ConversionOutput<J extends ConversionJob> = J extends ImportJob
  ? ImportResult
  : J extends ExportJob
    ? Uint8Array
    : J extends { kind: 'document-patch' }
      ? ContentWorkAnswer<PreparedDocumentPatch>
      : ContentWorkAnswer<PreparedContent>;

/** A worker's answer to one job. */
export type WorkerAnswer =
  | { id: number; ok: true; result: ImportResult | Uint8Array | ContentWorkAnswer<unknown> }
  | { id: number; ok: false; refusal: { reason: FormatErrorReason; message: string } }
  | { id: number; ok: false; crash: string };

/** A job as posted to a worker. */
export interface WorkerRequest {
  id: number;
  job: ConversionJob;
}
