import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/http-error.js';

/** The uploaded file and fields of a multipart upload (document import, chat attachment). */
export interface ImportUpload {
  fileName: string;
  bytes: Buffer;
  mode: string | undefined;
}

/**
 * Reads a multipart upload with one `file` part (and a `mode` field for imports): a file over `maxBytes`
 * answers 413, a body that is not one multipart file 400. `accept` judges the file's name before its
 * bytes are read and throws to refuse it (a type we do not read answers at once, unread).
 */
export async function readUpload(
  request: FastifyRequest,
  maxBytes: number,
  accept: (fileName: string) => void = () => {},
): Promise<ImportUpload> {
  if (!request.isMultipart()) {
    throw new HttpError(400, 'invalid', 'Send the file as multipart/form-data with a "file" field.', [
      { param: 'file', code: 'required', message: 'A file is required.' },
    ]);
  }
  let file: { fileName: string; bytes: Buffer } | undefined;
  let mode: string | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 4 } })) {
      if (part.type === 'file') {
        if (part.fieldname === 'file') accept(part.filename ?? '');
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file') file = { fileName: part.filename ?? '', bytes };
      } else if (part.fieldname === 'mode' && typeof part.value === 'string') {
        mode = part.value;
      }
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new HttpError(
        413,
        'too_large',
        `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`,
      );
    }
    if (typeof code === 'string' && code.startsWith('FST_')) {
      throw new HttpError(
        400,
        'invalid',
        'The upload could not be read: send one file as multipart/form-data.',
      );
    }
    throw error;
  }
  if (!file) {
    throw new HttpError(400, 'invalid', 'Invalid input: file', [
      { param: 'file', code: 'required', message: 'A file is required.' },
    ]);
  }
  return { ...file, mode };
}
