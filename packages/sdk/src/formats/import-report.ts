import type { DocumentJson } from '../model/document-json.js';

/**
 * Why a part of an imported file did not arrive as it was. Part of the public contract (the server
 * answers it, the CLI and the web show it): add codes, never rename them.
 */
export const IMPORT_NOTE_CODES = [
  /** Images are not part of the model; their alt text is not kept either. */
  'image_dropped',
  /** Tables became one paragraph per row, cells separated by " | ". */
  'table_flattened',
  /** Footnotes and endnotes became paragraphs at the end of their section. */
  'footnote_moved',
  /** Word comments were left out. */
  'comment_dropped',
  /** Tracked deletions were left out; tracked insertions are kept as text. */
  'tracked_deletion_dropped',
  /** Headings deeper than the model allows became level-4 headings (5–6 → 4). */
  'heading_demoted',
  /** Raw HTML, front matter or other markup the model cannot hold was dropped or kept as text. */
  'markup_dropped',
  /** A link whose address is not allowed (e.g. `javascript:`) kept its text but lost the link. */
  'link_removed',
  /** Content before the first level-1 heading went into an "Untitled" section. */
  'untitled_section_added',
  /** Any other repair the model's normalisation made (see `model/SPEC.md`). */
  'content_repaired',
  /** Styles or formatting the model has no place for (small caps, colour, superscript…) were dropped. */
  'formatting_dropped',
  /** Task list items (`- [ ]`, `- [x]`) kept their checkbox as a ☐ / ☑ character: documents have no checkboxes. */
  'task_list_converted',
  /** Markdown footnotes (`[^1]` and `[^1]: …`) were kept as plain text where they were written. */
  'footnote_as_text',
  /** Word equations were kept as their plain text (or dropped when they had none). */
  'equation_as_text',
  /** Headings were recognised from direct formatting (bold, larger, numbered) in a file with no Heading styles. */
  'heading_inferred',
] as const;

/** One of the {@link IMPORT_NOTE_CODES}. */
export type ImportNoteCode = (typeof IMPORT_NOTE_CODES)[number];

/** One thing an import dropped or changed, and why, counted. */
export interface ImportNote {
  code: ImportNoteCode;
  /** One sentence for people, e.g. "3 images were dropped: documents hold text only." */
  message: string;
  /** How many times it happened (at least 1). */
  count: number;
}

/** What an import dropped or changed. Empty `notes` means the file arrived whole. */
export interface ImportReport {
  /** The format that was read. */
  format: ImportFormat;
  notes: ImportNote[];
}

/** A whole document read from a file, with its report. */
export interface ImportResult {
  document: DocumentJson;
  report: ImportReport;
  /**
   * The file's own title, when it names one apart from its content (a .docx's first "Title" paragraph):
   * not part of `document`, so a title page never comes back as a section.
   */
  title?: string;
}

/** The title of the section that takes what comes before the first level-1 heading (spec: "Untitled"). */
export const UNTITLED_IMPORT_SECTION = 'Untitled';

/** Formats a file can be imported from. */
export type ImportFormat = 'md' | 'docx' | 'html' | 'json';

/**
 * Collects notes while a conversion runs; the same code given twice adds up its count. `message`
 * receives the final count, so texts read "1 image was…" / "3 images were…".
 */
export class ImportNotes {
  readonly #notes = new Map<ImportNoteCode, { count: number; message: (count: number) => string }>();

  /** Records `count` occurrences of `code`. */
  add(code: ImportNoteCode, message: (count: number) => string, count = 1): void {
    if (count <= 0) return;
    const note = this.#notes.get(code);
    if (note) note.count += count;
    else this.#notes.set(code, { count, message });
  }

  /** The notes so far, in the order their codes first appeared. */
  list(): ImportNote[] {
    return [...this.#notes].map(([code, note]) => ({
      code,
      count: note.count,
      message: note.message(note.count),
    }));
  }
}

/** "1 image" / "3 images": the count with its noun, for note messages. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
