import * as Y from 'yjs';

/** Where a comment is in a live plan's text: two Yjs relative positions, which follow the text through edits. */
export interface CommentRange {
  start: Y.RelativePosition;
  end: Y.RelativePosition;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * A comment's `anchor` (`docs/http-api.md` "Comments"): the start position's length (4 bytes, big-endian), the
 * start, then the end, as `Y.encodeRelativePosition` writes them, in base64.
 */
export function encodeCommentAnchor(range: CommentRange): string {
  const start = Y.encodeRelativePosition(range.start);
  const end = Y.encodeRelativePosition(range.end);
  const bytes = new Uint8Array(4 + start.length + end.length);
  new DataView(bytes.buffer).setUint32(0, start.length);
  bytes.set(start, 4);
  bytes.set(end, 4 + start.length);
  return toBase64(bytes);
}

/** The range an `anchor` holds, or null for one this SDK cannot read (another client's, or damaged). */
export function decodeCommentAnchor(anchor: string): CommentRange | null {
  if (!BASE64.test(anchor) || anchor.length % 4 !== 0) return null;
  try {
    const bytes = fromBase64(anchor);
    if (bytes.length < 4) return null;
    const startLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
    if (startLength === 0 || 4 + startLength >= bytes.length) return null;
    return {
      start: Y.decodeRelativePosition(bytes.subarray(4, 4 + startLength)),
      end: Y.decodeRelativePosition(bytes.subarray(4 + startLength)),
    };
  } catch {
    return null;
  }
}
