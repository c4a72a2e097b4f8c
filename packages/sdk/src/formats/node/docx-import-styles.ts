/**
 * What a Word style means for the model (F52–F54): headings by style name ("heading 1", any case, as
 * localized Word writes it under ids like "1" or "21"), by id ("Heading2") only in a file without
 * styles.xml, or by the outline level the style (or a style it is based on) declares; Title as a section title;
 * quotes; code. Paragraphs and runs are relabelled with these meanings in mammoth's `transformDocument`,
 * so one explicit style map serves every file, whatever its style ids.
 */

/** The meaning of a paragraph style. */
export type ParagraphCategory =
  | 'Heading1'
  | 'Heading2'
  | 'Heading3'
  | 'Heading4'
  | 'Heading5'
  | 'Heading6'
  | 'Title'
  | 'Quote'
  | 'Code'
  | 'Paragraph';

/** The meaning of a character (run) style. */
export type RunCategory = 'Code' | 'Strong' | 'Emphasis' | 'Plain';

interface StyleEntry {
  name: string | null;
  basedOn: string | null;
  /** `w:outlineLvl` of the style itself (0–9), or null. */
  outlineLevel: number | null;
}

/** The paragraph styles of `word/styles.xml`, by id (the part was already checked for DOCTYPE). */
export function readParagraphStyles(stylesXml: string | undefined): Map<string, StyleEntry> {
  const styles = new Map<string, StyleEntry>();
  if (!stylesXml) return styles;
  for (const match of stylesXml.matchAll(/<w:style\b([^>]*)>([\s\S]*?)<\/w:style>/g)) {
    const attributes = match[1] ?? '';
    const body = match[2] ?? '';
    if (!/w:type="paragraph"/.test(attributes)) continue;
    const id = /w:styleId="([^"]*)"/.exec(attributes)?.[1];
    if (id === undefined) continue;
    const outline = /<w:outlineLvl\b[^>]*w:val="(\d+)"/.exec(body)?.[1];
    styles.set(decodeXmlText(id), {
      name: decodeOrNull(/<w:name\b[^>]*w:val="([^"]*)"/.exec(body)?.[1]),
      basedOn: decodeOrNull(/<w:basedOn\b[^>]*w:val="([^"]*)"/.exec(body)?.[1]),
      outlineLevel: outline === undefined ? null : Number(outline),
    });
  }
  return styles;
}

/** The class the style map gives "Title" paragraphs, so the import can take the first as the file's title. */
export const TITLE_CLASS = 'planwright-title';

/** The prefix of the style ids the transform writes and the style map reads. */
export const STYLE_ID_PREFIX = 'Planwright';

/** The explicit mammoth style map: our relabelled ids first, then lists by numbering level. */
export function planwrightStyleMap(): string[] {
  const map = [
    `p.${STYLE_ID_PREFIX}Title => h1.${TITLE_CLASS}:fresh`,
    ...[1, 2, 3, 4, 5, 6].map((level) => `p.${STYLE_ID_PREFIX}Heading${level} => h${level}:fresh`),
    `p.${STYLE_ID_PREFIX}Quote => blockquote > p:fresh`,
    `p.${STYLE_ID_PREFIX}Code => pre:separator('\\n')`,
    `r.${STYLE_ID_PREFIX}Code => code`,
    `r.${STYLE_ID_PREFIX}Strong => strong`,
    `r.${STYLE_ID_PREFIX}Emphasis => em`,
    `r.${STYLE_ID_PREFIX}Plain =>`,
    // mammoth leaves underline out unless asked; strike is `s` by default.
    'u => u',
    // Footnote and endnote bodies are not passed to `transformDocument`: their styles are matched by name.
    ...['footnote text', 'endnote text', 'Footnote', 'Endnote'].map(
      (name) => `p[style-name='${name}'] => p:fresh`,
    ),
    ...['footnote reference', 'endnote reference', 'Footnote anchor', 'Endnote anchor'].map(
      (name) => `r[style-name='${name}'] =>`,
    ),
  ];
  for (let level = 1; level <= 9; level += 1) {
    const parents = 'ul|ol > li > '.repeat(level - 1);
    map.push(`p:unordered-list(${level}) => ${parents}ul > li:fresh`);
    map.push(`p:ordered-list(${level}) => ${parents}ol > li:fresh`);
  }
  map.push(`p.${STYLE_ID_PREFIX}Paragraph => p:fresh`);
  return map;
}

const PLAIN_PARAGRAPH_NAMES =
  /^(?:normal|normal \(web\)|body|body text(?: \d| indent(?: \d)?| first indent(?: \d)?)?|list paragraph|list(?: bullet| number)?(?: \d)?|compact|first paragraph|no spacing|footnote text|endnote text|annotation text|default|text body|standard)$/i;
const PLAIN_RUN_NAMES =
  /^(?:hyperlink|followedhyperlink|footnote reference|endnote reference|annotation reference|footnote anchor|endnote anchor|default paragraph font|.* char)$/i;

/** Resolves paragraph style ids to their meaning, following `basedOn` for outline levels. */
export class StyleMeanings {
  readonly #styles: Map<string, StyleEntry>;
  readonly #cache = new Map<string, ParagraphCategory | null>();

  constructor(styles: Map<string, StyleEntry>) {
    this.#styles = styles;
  }

  /** The meaning of a paragraph, or null when its style has none we use (mammoth reports it). */
  paragraph(styleId: string | null, styleName: string | null): ParagraphCategory | null {
    if (styleId === null && styleName === null) return null;
    const key = `${styleId ?? ''}\u0000${styleName ?? ''}`;
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    const category = this.#resolve(styleId, styleName);
    this.#cache.set(key, category);
    return category;
  }

  #resolve(styleId: string | null, styleName: string | null): ParagraphCategory | null {
    const name = (styleName ?? (styleId === null ? null : this.#styles.get(styleId)?.name) ?? '').trim();
    const byName = headingLevel(/^heading\s*(\d)$/i.exec(name)?.[1]);
    if (byName) return byName;
    if (/^title$/i.test(name)) return 'Title';
    if (/quote|quotation|^block text$/i.test(name)) return 'Quote';
    if (/code|preformatted/i.test(name)) return 'Code';
    // Word shows a paragraph of an undefined style as Normal; only a file with no styles at all is read by ids.
    if (styleId !== null && this.#styles.size === 0) {
      const byId = headingLevel(/^heading(\d)$/i.exec(styleId)?.[1]);
      if (byId) return byId;
    }
    const outline = this.#outlineLevel(styleId);
    if (outline !== null && outline <= 8) return headingLevel(String(outline + 1));
    if (PLAIN_PARAGRAPH_NAMES.test(name)) return 'Paragraph';
    return null;
  }

  /** The style's outline level, inherited through `basedOn` (cycles and long chains stop the search). */
  #outlineLevel(styleId: string | null): number | null {
    let id = styleId;
    for (let hops = 0; id !== null && hops < 16; hops += 1) {
      const style = this.#styles.get(id);
      if (!style) return null;
      if (style.outlineLevel !== null) return style.outlineLevel;
      id = style.basedOn;
    }
    return null;
  }
}

/** The meaning of a character style, by name; null when it has none (mammoth reports it). */
export function runCategory(styleName: string | null): RunCategory | null {
  if (!styleName) return null;
  if (/code|typewriter|verbatim/i.test(styleName)) return 'Code';
  if (/^strong$/i.test(styleName)) return 'Strong';
  if (/^emphasis$/i.test(styleName)) return 'Emphasis';
  if (PLAIN_RUN_NAMES.test(styleName)) return 'Plain';
  return null;
}

/** Word has heading levels 1–9; 7–9 become level 6, which the HTML import demotes to 4 with a note. */
function headingLevel(digit: string | undefined): ParagraphCategory | null {
  if (digit === undefined) return null;
  const level = Number(digit);
  if (level < 1 || level > 9) return null;
  return `Heading${Math.min(level, 6)}` as ParagraphCategory;
}

function decodeOrNull(value: string | undefined): string | null {
  return value === undefined ? null : decodeXmlText(value);
}

/** The five predefined XML entities and character references (DOCTYPE entities were refused before). */
function decodeXmlText(value: string): string {
  return value.replace(/&(?:#x([0-9a-f]+)|#(\d+)|(amp|lt|gt|quot|apos));/gi, (whole, hex, dec, named) => {
    if (hex) return safeCodePoint(Number.parseInt(hex, 16), whole);
    if (dec) return safeCodePoint(Number.parseInt(dec, 10), whole);
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[String(named).toLowerCase()] ?? whole;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}
