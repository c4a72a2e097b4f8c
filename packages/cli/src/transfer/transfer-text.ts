import type { ImportNote } from '@planwright/sdk/formats';
import { terminalText } from '../display/terminal-text.js';

/** `812 B`, `12.3 kB`, `4.1 MB`: a file's size for people. */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** `3 images were dropped: documents hold text only. [image_dropped ×3]`, terminal-safe. */
export function noteText(note: ImportNote): string {
  return `${terminalText(note.message)} [${terminalText(note.code)} ×${note.count}]`;
}
