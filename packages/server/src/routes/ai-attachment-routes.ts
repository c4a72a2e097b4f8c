import fastifyMultipart from '@fastify/multipart';
import { documentToMarkdown } from '@planwright/sdk/formats';
import type { FastifyInstance } from 'fastify';
import {
  attachmentFormatOf,
  attachmentName,
  capAttachmentText,
  decodeAttachmentText,
} from '../ai/chat/chat-attachments.js';
import { requireUser, signedInFirst } from '../auth/require-user.js';
import type { ConversionPool } from '../formats/conversion-pool.js';
import { conversionRunOptions } from '../formats/conversion-run-options.js';
import { readUpload } from '../formats/file-upload.js';
import { HttpError } from '../http/http-error.js';
import { convert } from './file-routes.js';
import type { WorkspaceRouteDeps } from './workspace-route-deps.js';

/** The largest file a chat may attach (CH16). */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

/**
 * `POST apps/ai/attachments/` (CH16): one multipart `file` (.md, .markdown, .txt or .docx, at most 5 MB)
 * read as text for a chat message → `{ name, format, content, characters, truncated }`. Text files are
 * UTF-8 (BOM stripped); a .docx goes through the import worker and comes back as Markdown; the text is
 * capped at 100,000 characters. Nothing is stored: the text travels with the next chat message.
 */
export function aiAttachmentRoutes(
  app: FastifyInstance,
  deps: WorkspaceRouteDeps & { conversions: ConversionPool },
): void {
  const { sessions, conversions, config } = deps;
  app.register(async (scope) => {
    await scope.register(fastifyMultipart);
    scope.post('/api/v1/apps/ai/attachments/', { onRequest: signedInFirst(sessions) }, async (request) => {
      const user = await requireUser(request, sessions);
      const unsupported = () =>
        new HttpError(400, 'unsupported_format', 'Only .md, .txt and .docx files can be attached.');
      // Judged by the name before the file is read.
      const upload = await readUpload(request, MAX_ATTACHMENT_BYTES, (fileName) => {
        if (attachmentFormatOf(fileName) === null) throw unsupported();
      });
      const format = attachmentFormatOf(upload.fileName);
      if (format === null) throw unsupported();
      if (upload.bytes.length === 0) throw new HttpError(400, 'empty_file', 'The file is empty.');
      let text: string;
      if (format === 'docx') {
        const imported = await convert(() =>
          conversions.run(
            {
              kind: 'import',
              format: 'docx',
              bytes: upload.bytes,
              maxUnpackedBytes: config.conversion.maxUnpackedBytes,
            },
            conversionRunOptions(config.conversion, user.id, 'import', upload.bytes.length),
          ),
        );
        text = documentToMarkdown(imported.document);
      } else {
        const decoded = decodeAttachmentText(upload.bytes);
        if (decoded === null) throw new HttpError(400, 'unreadable_text', 'This file is not readable text.');
        text = decoded;
      }
      const { content, truncated } = capAttachmentText(text);
      return {
        name: attachmentName(upload.fileName),
        format,
        content,
        characters: content.length,
        truncated,
      };
    });
  });
}
