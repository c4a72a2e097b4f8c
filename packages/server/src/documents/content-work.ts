// The CPU-heavy part of a content write (parsing a large body, normalising and merging trees, writing
// them as JSON), as pure functions a worker thread runs (formats/conversion-pool.ts, the "content" pool):
// a 3 MB save spends ~400 ms of CPU here, which on the event loop would stall every other request.
import { type ImportMergeMode, mergeImportedDocument } from '@planwright/sdk/formats';
import type { DocumentJson, SubsectionJson } from '@planwright/sdk/model';
import secureJsonParse from 'secure-json-parse';
import { storableStrings } from '../formats/file-answers.js';
import { HttpError, parseInput } from '../http/http-error.js';
import { normalizeContentInput } from '../structure/content-input.js';
import { documentPatchInput } from './document-input.js';

/**
 * A normalised tree as its JSON text plus its skeleton: sections and subsections with their headings
 * and attributes, nothing else. The skeleton has the tree's outline and progress (all a write's rows and
 * counts are made from), and is small enough to hand back to the event loop for a few microseconds.
 */
export interface PreparedContent {
  json: string;
  skeleton: DocumentJson;
}

/** An {@link HttpError} as it crosses a thread (an Error does not keep its fields there). */
export interface HttpErrorData {
  statusCode: number;
  code: string;
  detail: string;
  errors?: HttpError['errors'];
}

/** What a content job gives back: its result, the refusal the inline path would throw, or "parse it inline". */
export type ContentWorkAnswer<T> =
  | { ok: true; value: T }
  | { ok: false; error: HttpErrorData }
  /** The body is not JSON Fastify accepts: the event loop parses it again for Fastify's own error. */
  | { ok: false; unparsable: true };

/** The fields of a `PATCH documents/{uuid}/` body, its content prepared. */
export interface PreparedDocumentPatch {
  title?: string;
  description?: string;
  content?: PreparedContent;
}

/** A job for the content pool. */
export type ContentJob =
  | { kind: 'document-patch'; body: string }
  | { kind: 'import-merge'; currentJson: string; imported: DocumentJson; mode: ImportMergeMode };

/** The tree without its text blocks: sections, subsections and their headings (see {@link PreparedContent}). */
export function skeletonOf(doc: DocumentJson): DocumentJson {
  return {
    ...doc,
    content: doc.content.map((section) => {
      const [heading, ...rest] = section.content;
      const subsections = rest
        .filter((node): node is SubsectionJson => node.type === 'subsection')
        .map((subsection): SubsectionJson => ({ ...subsection, content: [subsection.content[0]] }));
      return { ...section, content: [heading, ...subsections] };
    }),
  };
}

function prepared(doc: DocumentJson): PreparedContent {
  return { json: JSON.stringify(doc), skeleton: skeletonOf(doc) };
}

function failure(error: unknown): { ok: false; error: HttpErrorData } {
  if (!(error instanceof HttpError)) throw error;
  return {
    ok: false,
    error: {
      statusCode: error.statusCode,
      code: error.code,
      detail: error.message,
      ...(error.errors ? { errors: error.errors } : {}),
    },
  };
}

/** Rebuilds the error a content job reported, exactly as the inline path would have thrown it. */
export function httpErrorOf(data: HttpErrorData): HttpError {
  return new HttpError(data.statusCode, data.code, data.detail, data.errors);
}

/**
 * A `PATCH documents/{uuid}/` body, as the route does it inline: parsed as Fastify parses JSON
 * (prototype and constructor poisoning refused), validated, its content normalised.
 */
export function prepareDocumentPatch(body: string): ContentWorkAnswer<PreparedDocumentPatch> {
  let parsed: unknown;
  try {
    parsed = secureJsonParse.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    return { ok: false, unparsable: true };
  }
  try {
    const input = parseInput(documentPatchInput, parsed);
    const value: PreparedDocumentPatch = {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.content !== undefined ? { content: prepared(normalizeContentInput(input.content)) } : {}),
    };
    return { ok: true, value };
  } catch (error) {
    return failure(error);
  }
}

/**
 * An import merged into the stored tree (`mergeImportedDocument`), its strings made storable, and the
 * result normalised for saving; one past the model's limits is refused as too large (413).
 */
export function prepareImportMerge(
  currentJson: string,
  imported: DocumentJson,
  mode: ImportMergeMode,
): ContentWorkAnswer<PreparedContent> {
  try {
    const current = JSON.parse(currentJson) as DocumentJson;
    const merged = mergeImportedDocument(current, storableStrings(imported), mode);
    return { ok: true, value: prepared(importedContent(merged)) };
  } catch (error) {
    return failure(error);
  }
}

/** The merged tree, normalised for saving; one past the model's limits is refused as too large. */
function importedContent(merged: DocumentJson): DocumentJson {
  try {
    return normalizeContentInput(merged);
  } catch (error) {
    if (error instanceof HttpError && error.code === 'invalid_content') {
      throw new HttpError(
        413,
        'too_large',
        'The document would be too large after this import (at most 100,000 nodes, nested 64 deep).',
      );
    }
    throw error;
  }
}

/** Runs a content job (in the worker). */
export function runContentJob(job: ContentJob): ContentWorkAnswer<PreparedDocumentPatch | PreparedContent> {
  return job.kind === 'document-patch'
    ? prepareDocumentPatch(job.body)
    : prepareImportMerge(job.currentJson, job.imported, job.mode);
}
