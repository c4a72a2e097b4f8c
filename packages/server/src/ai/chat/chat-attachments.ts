import {
  type ChatAttachment,
  chatAttachmentsSchema,
  MAX_ATTACHMENT_CHARACTERS,
  MAX_ATTACHMENT_NAME_LENGTH,
} from '@planwright/sdk';
import { z } from 'zod';

/** An attachment as a user message's metadata keeps it: the text for the model, its length for the history. */
export interface StoredAttachment extends ChatAttachment {
  characters: number;
}

/**
 * The `attachments` of a `message` frame (CH13), checked with the SDK's schema; an unreadable list is
 * refused with a sentence for the `error` frame.
 */
export function readFrameAttachments(raw: unknown):
  | { ok: true; attachments: StoredAttachment[] }
  | {
      ok: false;
      detail: string;
    } {
  if (raw === undefined || raw === null) return { ok: true, attachments: [] };
  const parsed = chatAttachmentsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `attachments.${issue.path.join('.')}` : 'attachments';
    return { ok: false, detail: `${where}: ${issue?.message ?? 'invalid'}` };
  }
  return {
    ok: true,
    attachments: parsed.data.map(({ name, content }) => ({ name, content, characters: content.length })),
  };
}

const storedSchema = z.array(
  z.object({ name: z.string(), content: z.string(), characters: z.number().int().nonnegative() }),
);

/** The attachments stored in a message's metadata; none when absent or malformed (old rows). */
export function storedAttachmentsOf(metadata: unknown): StoredAttachment[] {
  const raw = (metadata as { attachments?: unknown } | null)?.attachments;
  const parsed = storedSchema.safeParse(raw);
  return parsed.success ? parsed.data : [];
}

/** An attribute value that cannot close its quotes or its tag. */
function attributeText(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\r\n\t]/g, ' ');
}

/** What the model reads for a user message: the text, then each attachment in its own tag (CH13). */
export function withAttachments(message: string, attachments: readonly ChatAttachment[]): string {
  if (attachments.length === 0) return message;
  const files = attachments.map(
    ({ name, content }) => `<attachment name="${attributeText(name)}">\n${content}\n</attachment>`,
  );
  return [message, ...files].join('\n\n');
}

/** The file types a chat attachment may be (CH16). */
export type AttachmentFormat = 'md' | 'txt' | 'docx';

/** The format a file name says, or null for any other type. */
export function attachmentFormatOf(fileName: string): AttachmentFormat | null {
  const match = /\.([a-z]+)$/i.exec(fileName.trim());
  switch (match?.[1]?.toLowerCase()) {
    case 'md':
    case 'markdown':
      return 'md';
    case 'txt':
      return 'txt';
    case 'docx':
      return 'docx';
    default:
      return null;
  }
}

/** Text of a .md or .txt file: UTF-8, BOM stripped; null when it is not text (invalid UTF-8, NUL bytes). */
export function decodeAttachmentText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  return text.includes('\u0000') ? null : text;
}

/** At most 100,000 characters, never ending in half a surrogate pair. */
export function capAttachmentText(text: string): { content: string; truncated: boolean } {
  const content = capAt(text, MAX_ATTACHMENT_CHARACTERS);
  return { content, truncated: content.length < text.length };
}

/** The name an attachment answers with: no directory part, at most 255 characters, extension kept. */
export function attachmentName(fileName: string): string {
  const base = fileName.split(/[/\\]/).pop()?.trim() ?? '';
  if (base.length <= MAX_ATTACHMENT_NAME_LENGTH) return base;
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 && base.length - dot <= 16 ? base.slice(dot) : '';
  return (
    capAt(base.slice(0, base.length - extension.length), MAX_ATTACHMENT_NAME_LENGTH - extension.length) +
    extension
  );
}

/** The first `max` UTF-16 units of `text`, one fewer when that would split a surrogate pair. */
function capAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
