import type { ParagraphCategory } from './docx-import-styles.js';

/** The part of mammoth's document tree the heading guess reads. */
export interface GuessElement {
  type: string;
  children?: GuessElement[];
  styleName?: string | null;
  numbering?: { level?: string | number | null; isOrdered?: boolean } | null;
  isBold?: boolean;
  fontSize?: number | null;
  value?: string;
}

/** Longest text (in characters) and most words a paragraph can have to be read as a heading. */
const MAX_HEADING_LENGTH = 120;
const MAX_HEADING_WORDS = 14;

/** How much larger than the body text a paragraph's text must be to count as "larger" (Word: 11 → 13+). */
const LARGER = 1.15;

/** Body size assumed when no run names one (Word's default is 11 pt; larger than 13 is a heading size). */
const DEFAULT_BODY_SIZE = 11;

/** "1", "1.", "1.2", "1.2.3)" before a word: numbered headings written as text. */
const NUMBERED = /^(\d{1,2})((?:\.\d{1,2}){0,3})[.)]?[ \t\u00A0]+(?=\p{L})/u;

interface Candidate {
  paragraph: GuessElement;
  text: string;
  /** Every visible run bold. */
  bold: boolean;
  /** The size of its text when every visible run has one size; null when mixed or unset. */
  size: number | null;
  /** Depth from a "1.2" number in the text, or from Word numbering; null when unnumbered. */
  numberedLevel: number | null;
}

interface ParagraphInfo {
  paragraph: GuessElement;
  text: string;
  runs: { text: string; bold: boolean; size: number | null }[];
}

function runsOf(
  element: GuessElement,
  out: ParagraphInfo['runs'],
  bold = false,
  size: number | null = null,
): void {
  for (const child of element.children ?? []) {
    if (child.type === 'run') {
      const runBold = child.isBold === true || /^strong$/i.test(child.styleName ?? '');
      let text = '';
      for (const part of child.children ?? []) if (part.type === 'text') text += part.value ?? '';
      out.push({ text, bold: runBold, size: child.fontSize ?? null });
    } else if (child.type === 'hyperlink' || child.type === 'inserted' || child.type === 'bookmarkStart') {
      runsOf(child, out, bold, size);
    }
  }
}

/** The body's paragraphs outside tables, footnotes and text boxes, in order. */
function bodyParagraphs(element: GuessElement, out: ParagraphInfo[]): void {
  for (const child of element.children ?? []) {
    if (child.type === 'paragraph') {
      const runs: ParagraphInfo['runs'] = [];
      runsOf(child, runs);
      out.push({ paragraph: child, text: runs.map((run) => run.text).join(''), runs });
    } else if (child.type !== 'table' && child.type !== 'run') {
      bodyParagraphs(child, out);
    }
  }
}

/** The size most of the text is set in (weighted by characters); null when most text names none. */
function bodySize(paragraphs: readonly ParagraphInfo[]): number | null {
  const weights = new Map<number | null, number>();
  for (const { runs } of paragraphs) {
    for (const run of runs) weights.set(run.size, (weights.get(run.size) ?? 0) + run.text.trim().length);
  }
  let best: number | null = null;
  let weight = -1;
  for (const [size, total] of weights) {
    if (total > weight) {
      best = size;
      weight = total;
    }
  }
  return best;
}

function candidateOf(
  info: ParagraphInfo,
  category: ParagraphCategory | null,
  body: number,
): Candidate | null {
  if (category !== null && category !== 'Paragraph') return null;
  const text = info.text.replace(/\s+/g, ' ').trim();
  if (text.length < 2 || text.length > MAX_HEADING_LENGTH || !/\p{L}/u.test(text)) return null;
  // A sentence or a label ("Important:") is not a heading.
  if (text.split(' ').length > MAX_HEADING_WORDS || /[.,;:!]$/.test(text)) return null;
  // A heading starts with a capital or a number; a line starting lower-case continues something.
  if (/^\p{Ll}/u.test(text)) return null;
  const visible = info.runs.filter((run) => run.text.trim() !== '');
  if (visible.length === 0) return null;
  const bold = visible.every((run) => run.bold);
  const sizes = new Set(visible.map((run) => run.size));
  const size = sizes.size === 1 ? (visible[0]?.size ?? null) : null;
  const larger = size !== null && size >= body * LARGER;
  const number = NUMBERED.exec(text);
  const numbering = info.paragraph.numbering;
  let numberedLevel: number | null = null;
  if (number) numberedLevel = 1 + (number[2] ?? '').split('.').length - 1;
  else if (numbering?.isOrdered) numberedLevel = Number(numbering.level ?? 0) + 1;
  // A short numbered line "2.3 Market size" reads as a heading even without bold; "2. We sell…" needs emphasis.
  const subNumbered = number !== null && (number[2] ?? '') !== '' && text.length <= 80;
  if (!bold && !larger && !subNumbered) return null;
  // A Word list item in the body's own style is a list, however short.
  if (numbering && !number && !bold && !larger) return null;
  return { paragraph: info.paragraph, text, bold, size, numberedLevel };
}

/**
 * Leaves out unnumbered candidates that are no headings: a text met more than once (a signature block, a
 * repeated label) and runs of adjacent paragraphs set alike (an address or a bold block of lines).
 */
function dropRepeatsAndBlocks(candidates: Candidate[], paragraphs: readonly ParagraphInfo[]): void {
  const seen = new Map<string, number>();
  for (const candidate of candidates) {
    const key = candidate.text.toLowerCase();
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const position = new Map(paragraphs.map((info, index) => [info.paragraph, index]));
  const sameLook = (a: Candidate | undefined, b: Candidate | undefined): boolean =>
    a !== undefined &&
    b !== undefined &&
    a.numberedLevel === null &&
    b.numberedLevel === null &&
    a.bold === b.bold &&
    a.size === b.size &&
    Math.abs((position.get(a.paragraph) ?? 0) - (position.get(b.paragraph) ?? 0)) === 1;
  const kept = candidates.filter(
    (candidate, index) =>
      (candidate.numberedLevel !== null || seen.get(candidate.text.toLowerCase()) === 1) &&
      !sameLook(candidates[index - 1], candidate) &&
      !sameLook(candidate, candidates[index + 1]),
  );
  // No spread: a file of 100,000 bold lines must not overflow the call stack.
  candidates.length = 0;
  for (const candidate of kept) candidates.push(candidate);
}

/**
 * Headings written as direct formatting (F51a): in a file with no "heading 1" style in use, short
 * whole-paragraph runs that are bold or larger than the body text, or numbered "1." / "1.1" lines,
 * become headings. Numbers give the level by their depth ("1." section, "1.1" subsection); otherwise
 * larger sizes rank above smaller ones and bold body-size text last. A first candidate alone at the
 * largest size is the file's title. Fewer than two section-level candidates: nothing is guessed
 * (a lone bold line is emphasis, not structure). Returns the categories to give those paragraphs.
 */
export function guessDirectHeadings(
  root: GuessElement,
  categoryOf: (paragraph: GuessElement) => ParagraphCategory | null,
): Map<GuessElement, ParagraphCategory> {
  const guessed = new Map<GuessElement, ParagraphCategory>();
  const paragraphs: ParagraphInfo[] = [];
  bodyParagraphs(root, paragraphs);
  const categories = paragraphs.map((info) => categoryOf(info.paragraph));
  if (categories.some((category) => category === 'Heading1')) return guessed;
  const body = bodySize(paragraphs) ?? DEFAULT_BODY_SIZE;
  const candidates: Candidate[] = [];
  paragraphs.forEach((info, index) => {
    const candidate = candidateOf(info, categories[index] ?? null, body);
    if (candidate) candidates.push(candidate);
  });
  dropRepeatsAndBlocks(candidates, paragraphs);
  if (candidates.length < 2) return guessed;

  // A title: the first candidate, alone at a size above every other candidate's.
  const first = candidates[0] as Candidate;
  const others = candidates.slice(1);
  const hasTitle =
    !categories.includes('Title') &&
    first.numberedLevel === null &&
    first.size !== null &&
    others.every((candidate) => (candidate.size ?? body) < (first.size as number));
  const headings = hasTitle ? others : candidates;

  // With numbered headings, an unnumbered one counts only when it looks exactly like a numbered level
  // (same size and weight); without, larger sizes rank above smaller ones.
  const signature = (candidate: Candidate): string => `${candidate.size ?? body}|${candidate.bold}`;
  const numberedSignatures = new Map<string, number>();
  for (const candidate of headings) {
    if (candidate.numberedLevel === null) continue;
    const known = numberedSignatures.get(signature(candidate));
    if (known === undefined || candidate.numberedLevel < known)
      numberedSignatures.set(signature(candidate), candidate.numberedLevel);
  }
  const sizes = [
    ...new Set(headings.filter((c) => c.numberedLevel === null).map((c) => c.size ?? body)),
  ].sort((a, b) => b - a);
  const levelOf = (candidate: Candidate): number | null => {
    if (candidate.numberedLevel !== null) return candidate.numberedLevel;
    if (numberedSignatures.size > 0) return numberedSignatures.get(signature(candidate)) ?? null;
    return sizes.indexOf(candidate.size ?? body) + 1;
  };
  const kept = headings.filter((candidate) => levelOf(candidate) !== null);
  const levels = kept.map((candidate) => levelOf(candidate) as number);
  if (levels.length === 0) return guessed;
  // Levels start at 1 (a plan whose largest guessed headings are "1.1" still has sections).
  const top = levels.reduce((lowest, level) => Math.min(lowest, level), Number.POSITIVE_INFINITY);
  const sectionLevel = levels.filter((level) => level === top).length;
  if (sectionLevel < 2) return guessed;
  if (hasTitle) guessed.set(first.paragraph, 'Title');
  kept.forEach((candidate, index) => {
    const level = Math.min(6, (levels[index] as number) - top + 1);
    guessed.set(candidate.paragraph, `Heading${level}` as ParagraphCategory);
  });
  return guessed;
}
