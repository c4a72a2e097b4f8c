import type { ImportMergeMode } from '@planwright/sdk/formats';
import type { DocumentJson } from '@planwright/sdk/model';
import type { ConversionConfig } from '../config/config.js';
import type { ConversionPool } from '../formats/conversion-pool.js';
import { conversionRunOptions } from '../formats/conversion-run-options.js';
import { conversionFailure } from '../formats/file-answers.js';
import type { HttpError } from '../http/http-error.js';
import type { RawJsonBody } from '../http/json-body-parser.js';
import {
  type ContentWorkAnswer,
  httpErrorOf,
  type PreparedContent,
  type PreparedDocumentPatch,
} from './content-work.js';

/**
 * The content pool: worker threads (a {@link ConversionPool} of its own, so saves never wait behind file
 * conversions) that parse, normalise and merge large trees, with the same per-user turns, caps, queue
 * time and time and heap budgets (scaled to the JSON's size like an export's).
 */
export interface ContentWork {
  pool: ConversionPool;
  config: ConversionConfig;
}

async function run<T>(
  work: ContentWork,
  owner: string,
  bytes: number,
  job: Parameters<ConversionPool['run']>[0],
) {
  try {
    return (await work.pool.run(job, conversionRunOptions(work.config, owner, 'export', bytes))) as T;
  } catch (error) {
    throw conversionFailure(error);
  }
}

/**
 * A large `PATCH documents/{uuid}/` body prepared in the content pool: `{prepared}`, or the error the
 * inline path would throw at validation (`{refused}`: the caller throws it where that path would), or,
 * for a body that is not JSON Fastify accepts, the inline parse's own error is thrown here (as the body
 * parser would have).
 */
export async function prepareLargePatch(
  work: ContentWork,
  body: RawJsonBody,
  owner: string,
): Promise<{ prepared: PreparedDocumentPatch } | { refused: HttpError } | { parsed: unknown }> {
  const answer = await run<ContentWorkAnswer<PreparedDocumentPatch>>(work, owner, body.text.length, {
    kind: 'document-patch',
    body: body.text,
  });
  if (answer.ok) return { prepared: answer.value };
  if ('unparsable' in answer) return { parsed: body.parseInline() };
  return { refused: httpErrorOf(answer.error) };
}

/** An import merged into the stored tree and normalised in the content pool (413 when too large). */
export async function mergeImportOffThread(
  work: ContentWork,
  owner: string,
  currentJson: string,
  imported: DocumentJson,
  mode: ImportMergeMode,
): Promise<PreparedContent> {
  const answer = await run<ContentWorkAnswer<PreparedContent>>(work, owner, currentJson.length, {
    kind: 'import-merge',
    currentJson,
    imported,
    mode,
  });
  if (answer.ok) return answer.value;
  if ('unparsable' in answer) throw new Error('The stored document is not JSON.');
  throw httpErrorOf(answer.error);
}
