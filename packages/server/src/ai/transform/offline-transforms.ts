import type { TransformAction } from '../providers/ai-provider.js';
import type { SpellChecker } from './spell-checker.js';

/**
 * The offline provider's text transforms (SPEC TR1–TR15): plain rules, no model, the same output for the
 * same input, and nothing the user did not write — only corrections, deletions and a table of plain words.
 * Markdown structure is kept: fences, tables, rules and HTML lines pass through untouched; headings, list
 * items and quotes keep their markers and only their text changes.
 */

/** The actions rules can do honestly; the others need a model and are refused offline (TR10). */
export const OFFLINE_TRANSFORM_ACTIONS = ['fix_grammar', 'simplify', 'shorten'] as const;
/** One of {@link OFFLINE_TRANSFORM_ACTIONS}. */
export type OfflineTransformAction = (typeof OFFLINE_TRANSFORM_ACTIONS)[number];

/** Whether `action` can be done without a model. */
export function isOfflineAction(action: TransformAction): action is OfflineTransformAction {
  return (OFFLINE_TRANSFORM_ACTIONS as readonly string[]).includes(action);
}

type LineKind = 'heading' | 'list' | 'quote' | 'plain';

interface TextLine {
  kind: LineKind;
  prefix: string;
  text: string;
}

type Line = { verbatim: string } | TextLine;

/** A Markdown line's markers: indentation, quotes, then one heading or list marker (with a task box). */
const LINE_PREFIX =
  /^([ \t]*(?:>[ \t]?)*[ \t]*(?:#{1,6}(?=[ \t]|$)[ \t]*|(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)[ \t]*(?:\[[ xX]\][ \t]+)?)?)/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;
const RULE = /^[ \t]{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** A sentence ends at `.`, `!`, `?` or `…` (closing quotes and brackets, then any emoji, stay with it). */
const SENTENCE_END =
  /[.!?…]+["'”’)\]]*(?:[ \t]*\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic})*)*(?=\s|$)/gu;

function classify(raw: string): TextLine {
  const prefix = LINE_PREFIX.exec(raw)?.[1] ?? '';
  const kind: LineKind = /#/.test(prefix)
    ? 'heading'
    : /(?:[-*+]|\d[.)])[ \t]*(?:\[[ xX]\][ \t]+)?$/.test(prefix.trimEnd())
      ? 'list'
      : prefix.includes('>')
        ? 'quote'
        : 'plain';
  return { kind, prefix, text: raw.slice(prefix.length) };
}

/** Splits text into Markdown lines; everything that is not prose is kept verbatim. */
function readLines(text: string): Line[] {
  const lines: Line[] = [];
  let fence: string | null = null;
  for (const raw of text.split('\n')) {
    const fenceMark = FENCE.exec(raw)?.[1];
    if (fence !== null) {
      if (fenceMark !== undefined && fenceMark[0] === fence[0] && fenceMark.length >= fence.length)
        fence = null;
      lines.push({ verbatim: raw });
      continue;
    }
    if (fenceMark !== undefined) {
      fence = fenceMark;
      lines.push({ verbatim: raw });
      continue;
    }
    // Blank lines, rules, tables and raw HTML are structure, not prose.
    if (raw.trim() === '' || RULE.test(raw) || /^[ \t]*[|<]/.test(raw)) {
      lines.push({ verbatim: raw });
      continue;
    }
    const line = classify(raw);
    lines.push(line.text.trim() === '' ? { verbatim: raw } : line);
  }
  return lines;
}

function writeLines(lines: readonly Line[]): string {
  return lines.map((line) => ('verbatim' in line ? line.verbatim : line.prefix + line.text)).join('\n');
}

// ── Protected spans ──────────────────────────────────────────────────────────────────────────────

/** Inline code, link destinations, autolinks, bare URLs, www. hosts and e-mail addresses: never rewritten. */
const PROTECTED =
  /`+[^`]*`+|\]\([^)\s]*(?:\s+"[^"]*")?\)|<[a-z][a-z0-9+.-]*:[^>\s]*>|\b(?:https?|ftp|mailto):[^\s)]+|\bwww\.[^\s)]+|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/giu;

/** Runs `change` on the prose of `text` with protected spans swapped for placeholders no rule touches. */
function onProse(text: string, change: (prose: string) => string): string {
  let sentinel = '';
  for (let code = 0xe000; code <= 0xf8ff; code += 1) {
    const candidate = String.fromCharCode(code);
    if (!text.includes(candidate)) {
      sentinel = candidate;
      break;
    }
  }
  if (sentinel === '') return change(text);
  const kept: string[] = [];
  const masked = text.replace(PROTECTED, (span) => {
    kept.push(span);
    return `${sentinel}${kept.length - 1}${sentinel}`;
  });
  const changed = change(masked);
  const pattern = new RegExp(`${sentinel}(\\d+)${sentinel}`, 'g');
  return changed.replace(pattern, (whole, index: string) => kept[Number(index)] ?? whole);
}

// ── Sentences ────────────────────────────────────────────────────────────────────────────────────

/** A full stop after one of these does not end a sentence. */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|mr|mrs|ms|dr|prof|st|approx|incl|fig|no|cf)$/i;

/** The sentences of one line, each with its trailing space, so joining them gives the line back. */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    if (match[0] === '.' && ABBREVIATION.test(text.slice(Math.max(0, match.index - 8), match.index)))
      continue;
    let end = match.index + match[0].length;
    while (end < text.length && /\s/.test(text[end] ?? '')) end += 1;
    sentences.push(text.slice(start, end));
    start = end;
  }
  if (start < text.length) sentences.push(text.slice(start));
  return sentences;
}

export function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.length ?? 0;
}

function capitaliseFirstLetter(sentence: string): string {
  return sentence.replace(
    /^([^\p{L}\p{N}]*)(\p{Ll})/u,
    (_whole, lead: string, letter: string) =>
      // A lower-case letter followed by an upper-case one is a name like "iPhone": left alone.
      lead + letter.toUpperCase(),
  );
}

/** Capitalises each sentence's first letter; with `keepFirst`, not the first sentence's (a fragment's start). */
function capitaliseSentences(text: string, keepFirst = false): string {
  return sentencesOf(text)
    .map((sentence, index) =>
      (keepFirst && index === 0) || /^[^\p{L}\p{N}]*\p{Ll}\p{Lu}/u.test(sentence)
        ? sentence
        : capitaliseFirstLetter(sentence),
    )
    .join('');
}

// ── Phrase tables ────────────────────────────────────────────────────────────────────────────────

type PhraseTable = readonly (readonly [string, string])[];

/** Keeps the case of the replaced phrase's first letter (and all-caps). */
function matchCase(found: string, replacement: string): string {
  if (found.length > 1 && found === found.toUpperCase() && found !== found.toLowerCase()) {
    return replacement.toUpperCase();
  }
  const first = found[0] ?? '';
  return first !== first.toLowerCase()
    ? replacement.charAt(0).toUpperCase() + replacement.slice(1)
    : replacement;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One regex per table: whole words only, case-insensitive, apostrophes straight or curly. */
function compileTable(table: PhraseTable): { pattern: RegExp; lookup: Map<string, string> } {
  const lookup = new Map<string, string>();
  for (const [from, to] of table) lookup.set(from.toLowerCase(), to);
  const sorted = [...table].map(([from]) => from).sort((a, b) => b.length - a.length);
  const alternatives = sorted.map((from) =>
    escapeRegExp(from).replace(/'/g, "['’]").replace(/ /g, '[ \\t]+'),
  );
  return {
    pattern: new RegExp(`(?<![\\p{L}\\p{N}'’])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'giu'),
    lookup,
  };
}

function applyTable(text: string, compiled: { pattern: RegExp; lookup: Map<string, string> }): string {
  return text.replace(compiled.pattern, (found) => {
    const key = found
      .toLowerCase()
      .replace(/’/g, "'")
      .replace(/[ \t]+/g, ' ');
    const replacement = compiled.lookup.get(key);
    return replacement === undefined ? found : matchCase(found, replacement);
  });
}

/** Wordy phrases and their plain forms (simplify, improve, shorten). */
const WORDY = compileTable([
  ['in order to', 'to'],
  ['utilize', 'use'],
  ['utilise', 'use'],
  ['utilizes', 'uses'],
  ['utilized', 'used'],
  ['utilization', 'use'],
  ['due to the fact that', 'because'],
  ['owing to the fact that', 'because'],
  ['at this point in time', 'now'],
  ['at the present time', 'now'],
  ['in the event that', 'if'],
  ['prior to', 'before'],
  ['subsequent to', 'after'],
  ['a large number of', 'many'],
  ['a majority of', 'most'],
  ['the majority of', 'most'],
  ['in spite of the fact that', 'although'],
  ['despite the fact that', 'although'],
  ['with regard to', 'about'],
  ['with respect to', 'about'],
  ['in the near future', 'soon'],
  ['for the purpose of', 'for'],
  ['has the ability to', 'can'],
  ['have the ability to', 'can'],
  ['is able to', 'can'],
  ['are able to', 'can'],
  ['facilitate', 'help'],
  ['commence', 'start'],
  ['terminate', 'end'],
  ['endeavour', 'try'],
  ['endeavor', 'try'],
  ['approximately', 'about'],
  ['numerous', 'many'],
  ['additionally', 'also'],
  ['demonstrate', 'show'],
  ['in close proximity to', 'near'],
  ['on a daily basis', 'daily'],
  ['each and every', 'every'],
]);

/**
 * What `shorten` deletes (TR4): filler words, hedges and stock phrases that say nothing, and wordy phrases whose
 * short form is one of their own words. Deletions only, so shortening can never add a word.
 */
const FILLER =
  /(?<![\p{L}\p{N}'’])(?:really|very|basically|actually|quite|just|simply|totally|literally|definitely|certainly|extremely|somewhat|rather|kind of|sort of|more or less)[ \t]+(?=[\p{L}\p{N}])/giu;
const HEDGES =
  /(?<![\p{L}\p{N}'’])(?:I (?:think|believe|feel|guess)(?: that)?|we (?:think|believe|feel)(?: that)?|in my (?:opinion|view),?|it (?:seems|appears) that|it is (?:important|worth) (?:to note|noting) that|it should be noted that|needless to say,?|as a matter of fact,?|at the end of the day,?|all things considered,?|to be honest,?|of course,?)[ \t]+(?=[\p{L}\p{N}])/giu;
const DELETE_ONLY = compileTable([
  ['in order to', 'to'],
  ['each and every', 'every'],
  ['for the purpose of', 'for'],
  ['all of the', 'all the'],
  ['both of the', 'both the'],
  ['whether or not', 'whether'],
  ['the reason why', 'the reason'],
  ['past history', 'history'],
  ['end result', 'result'],
  ['future plans', 'plans'],
  ['close proximity', 'proximity'],
  ['completely eliminate', 'eliminate'],
  ['absolutely essential', 'essential'],
]);
/** A parenthetical aside without a figure in it (figures are facts and stay). */
const ASIDE = /[ \t]+\((?![^()]*[\p{N}€$£%])[^()]{1,120}\)(?=[\s.,;:!?]|$)/gu;

// ── Grammar ──────────────────────────────────────────────────────────────────────────────────────

const DOUBLED =
  /(?<![\p{L}\p{N}])(the|a|an|to|and|of|in|is|it|for|on|with|was|be|as|at|by|we|are|this)[ \t]+\1(?![\p{L}\p{N}])/giu;

/** "a" before a word that starts with a vowel sound, where that is certain from its first letters. */
const A_BEFORE_VOWEL =
  /(?<![\p{L}\p{N}'’-])([Aa])([ \t]+)(?!one(?!\p{L})|once(?!\p{L})|an(?!\p{L}))(?=(?:[aio]|e(?![uw]))\p{Ll}*(?![\p{L}\p{N}'’-]))/gu;
/** "an" before a word that starts with a consonant sound, where that is certain (not h, u or an acronym). */
const AN_BEFORE_CONSONANT =
  /(?<![\p{L}\p{N}'’-])([Aa])n([ \t]+)(?=[bcdfgjklmnpqrstvwxyz]\p{Ll}*(?![\p{L}\p{N}'’-]))/gu;
/** their/there only where one reading is impossible: "there own", "their is". */
const THERE_OWN = /(?<![\p{L}\p{N}'’])([Tt])(?:here|hey['’]re)([ \t]+own)(?![\p{L}\p{N}])/gu;
const THEIR_IS = /(?<![\p{L}\p{N}'’])([Tt])heir([ \t]+(?:is|are|was|were)(?![\p{L}\p{N}'’]))/gu;
/** A word as the speller sees it: letters only, not touching digits, `@`, `/`, `_`, `-` or a dotted name. */
const WORD = /(?<![\p{L}\p{N}_@/\\.'’-])\p{L}+(?![\p{L}\p{N}_@/\\'’-]|\.[\p{L}\p{N}])/gu;
/**
 * Distinct unknown words one call looks up at most (about 0.4 ms each the first time): 100,000 characters of
 * gibberish then hold the thread for about 0.4 s, not seconds. Known words cost nothing and are not counted.
 */
const MAX_LOOKUPS = 1_000;

/** What one call has looked up so far. */
interface LookupBudget {
  lookups: number;
  seen: Set<string>;
}

function fixSpelling(text: string, spell: SpellChecker, budget: LookupBudget): string {
  return text.replace(WORD, (word) => {
    if (spell.isKnown(word)) return spell.correction(word) ?? word;
    if (!budget.seen.has(word)) {
      if (budget.lookups <= 0) return word;
      budget.lookups -= 1;
      budget.seen.add(word);
    }
    return spell.correction(word) ?? word;
  });
}

function fixGrammarText(
  text: string,
  endsParagraph: boolean,
  spell: SpellChecker,
  budget: LookupBudget,
  fragment: boolean,
): string {
  let fixed = text.replace(/([^ \t])[ \t]{2,}/g, '$1 ').replace(/[ \t]+([,;:!?])(?=\s|$)/g, '$1');
  fixed = fixSpelling(fixed, spell, budget);
  fixed = fixed.replace(DOUBLED, '$1');
  fixed = fixed.replace(A_BEFORE_VOWEL, '$1n$2').replace(AN_BEFORE_CONSONANT, '$1$2');
  fixed = fixed.replace(THERE_OWN, '$1heir$2').replace(THEIR_IS, '$1here$2');
  fixed = fixed.replace(/(^|[\s("“])i(?=[ \t,;:!?]|['’](?:m|ll|ve|d)(?![\p{L}])|\.(?:\s|$)|$)/gu, '$1I');
  // A fragment (part of a sentence) keeps its first letter and gets no full stop: it goes back mid-sentence.
  fixed = capitaliseSentences(fixed, fragment);
  if (endsParagraph && !fragment) fixed = withEndPunctuation(fixed);
  return fixed;
}

/**
 * A selection that is part of a sentence: one plain line that neither starts with a capital nor ends a
 * sentence ("recieve alot of"). Its start is not capitalised and no full stop is added, so accepting the
 * result in the middle of a sentence does not break it.
 */
function isFragment(lines: readonly Line[]): boolean {
  const [only, ...rest] = lines;
  if (only === undefined || rest.length > 0 || 'verbatim' in only || only.kind !== 'plain') return false;
  const text = only.text.trim();
  return !/^[^\p{L}\p{N}]*\p{Lu}/u.test(text) && !/[.!?…]["'”’)\]]*$/u.test(text);
}

/** Adds a full stop when the prose ends with a letter or digit (not after punctuation or an emoji). */
function withEndPunctuation(text: string): string {
  const trimmed = text.trimEnd();
  if (!/[\p{L}\p{N}]$/u.test(trimmed)) return text;
  return `${trimmed}.${text.slice(trimmed.length)}`;
}

// ── Sentence rewrites ────────────────────────────────────────────────────────────────────────────

const LONG_SENTENCE_WORDS = 20;

/** Splits a long sentence at `;` and `, and`, capitalising what follows. */
function splitLongSentence(sentence: string): string {
  if (wordCount(sentence) <= LONG_SENTENCE_WORDS) return sentence;
  const parts = sentence.split(/[ \t]*;[ \t]+|,[ \t]+and[ \t]+/);
  if (parts.length < 2) return sentence;
  return parts
    .map((part, index) => {
      const piece = index === 0 ? part : capitaliseFirstLetter(part);
      return index < parts.length - 1 ? withEndPunctuation(piece) : piece;
    })
    .join(' ');
}

function simplifyText(text: string, kind: LineKind): string {
  const plain = applyTable(text, WORDY);
  return kind === 'heading' ? plain : sentencesOf(plain).map(splitLongSentence).join('');
}

/** Deletes filler, hedges, asides without figures and the spare words of wordy phrases (TR4). */
function shortenText(text: string): string {
  const shorter = applyTable(text, DELETE_ONLY).replace(HEDGES, '').replace(FILLER, '').replace(ASIDE, '');
  if (shorter === text) return text;
  // A sentence whose opening words went starts with a capital again, when the text started with one.
  return /^[^\p{L}\p{N}]*\p{Lu}/u.test(text) ? capitaliseSentences(shorter) : shorter;
}

// ── Per-action ───────────────────────────────────────────────────────────────────────────────────

function transformLine(
  action: OfflineTransformAction,
  text: string,
  kind: LineKind,
  endsParagraph: boolean,
  spell: SpellChecker,
  budget: LookupBudget,
  fragment: boolean,
): string {
  const prose = kind === 'plain' || kind === 'quote';
  switch (action) {
    case 'fix_grammar':
      return fixGrammarText(text, endsParagraph && prose, spell, budget, fragment);
    case 'simplify':
      return simplifyText(text, kind);
    case 'shorten':
      return shortenText(text);
  }
}

/** What the offline transforms need besides the text. */
export interface OfflineTransformOptions {
  /** The spelling checker of `fix_grammar` (`loadSpellChecker()`). */
  spell: SpellChecker;
  /**
   * The text is a selection from a longer text (the bubble's AI actions), not whole paragraphs: one that is
   * part of a sentence is then corrected as a fragment (TR2).
   */
  selection?: boolean;
}

/**
 * Transforms `text` with one of the actions rules can do (SPEC TR1–TR15), without a model. Deterministic,
 * never throws (on any string: it answers the text unchanged if a rule fails), keeps Markdown markers, code,
 * URLs and e-mail addresses, never adds a word the user did not write (only spelling corrections and, for
 * `simplify`, the plain words of its table) and never grows on a second run.
 */
export function offlineTransform(
  action: OfflineTransformAction,
  text: string,
  options: OfflineTransformOptions,
): string {
  if (typeof text !== 'string' || text.trim() === '') return typeof text === 'string' ? text : '';
  try {
    const normalised = text.replace(/\r\n?/g, '\n');
    const lines = readLines(normalised);
    const budget: LookupBudget = { lookups: MAX_LOOKUPS, seen: new Set() };
    const fragment = options.selection === true && isFragment(lines);
    const out = lines.map((line, index) => {
      if ('verbatim' in line) return line;
      const next = lines[index + 1];
      const endsParagraph =
        next === undefined || 'verbatim' in next || next.kind === 'heading' || next.kind === 'list';
      return {
        ...line,
        text: onProse(line.text, (prose) =>
          transformLine(action, prose, line.kind, endsParagraph, options.spell, budget, fragment),
        ),
      };
    });
    return writeLines(out);
  } catch {
    return text;
  }
}
