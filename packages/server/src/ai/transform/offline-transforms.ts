import type { TransformAction } from '../providers/ai-provider.js';

/**
 * The offline provider's text transforms (SPEC TR1–TR12): plain rules, no model, the same output for the
 * same input. Markdown structure is kept: fences, tables, rules and HTML lines pass through untouched;
 * headings, list items and quotes keep their markers and only their text changes.
 */

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
const EMOJI = /\p{Extended_Pictographic}/u;
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

/** Inline code, link destinations, autolinks and bare URLs: never rewritten. */
const PROTECTED =
  /`+[^`]*`+|\]\([^)\s]*(?:\s+"[^"]*")?\)|<[a-z][a-z0-9+.-]*:[^>\s]*>|\b(?:https?|ftp|mailto):[^\s)]+/giu;

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
function sentencesOf(text: string): string[] {
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

function wordCount(text: string): number {
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

function capitaliseSentences(text: string): string {
  return sentencesOf(text)
    .map((sentence) =>
      /^[^\p{L}\p{N}]*\p{Ll}\p{Lu}/u.test(sentence) ? sentence : capitaliseFirstLetter(sentence),
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

/** Words that add length and no meaning (shorten only). */
const FILLER =
  /(?<![\p{L}\p{N}'’])(?:really|very|basically|actually|quite|just|simply|totally|literally|definitely)[ \t]+(?=[\p{L}\p{N}])/giu;

/** Contractions and their full forms: professional expands, casual contracts. */
const CONTRACTIONS: PhraseTable = [
  ["don't", 'do not'],
  ["doesn't", 'does not'],
  ["didn't", 'did not'],
  ["can't", 'cannot'],
  ["won't", 'will not'],
  ["isn't", 'is not'],
  ["aren't", 'are not'],
  ["wasn't", 'was not'],
  ["weren't", 'were not'],
  ["haven't", 'have not'],
  ["hasn't", 'has not'],
  ["couldn't", 'could not'],
  ["shouldn't", 'should not'],
  ["wouldn't", 'would not'],
  ["i'm", 'I am'],
  ["i've", 'I have'],
  ["i'll", 'I will'],
  ["we're", 'we are'],
  ["we've", 'we have'],
  ["we'll", 'we will'],
  ["you're", 'you are'],
  ["you'll", 'you will'],
  ["they're", 'they are'],
  ["they'll", 'they will'],
  ["it's", 'it is'],
  ["that's", 'that is'],
  ["there's", 'there is'],
  ["let's", 'let us'],
];

/** Casual words and their professional forms. */
const CASUAL_WORDS: PhraseTable = [
  ['gonna', 'going to'],
  ['wanna', 'want to'],
  ['gotta', 'have to'],
  ['kinda', 'somewhat'],
  ['sorta', 'somewhat'],
  ['yeah', 'yes'],
  ['yep', 'yes'],
  ['nope', 'no'],
  ['guys', 'everyone'],
  ['awesome', 'excellent'],
  ['a lot of', 'many'],
  ['lots of', 'many'],
  ['figure out', 'determine'],
  ['get rid of', 'remove'],
  ['asap', 'as soon as possible'],
  ['thanks', 'thank you'],
  ['okay', 'acceptable'],
  ['ok', 'acceptable'],
  ['stuff', 'material'],
];

/** Formal words and their casual forms (the casual table, read backwards, plus a few plain swaps). */
const FORMAL_WORDS: PhraseTable = [
  ['excellent', 'awesome'],
  ['determine', 'figure out'],
  ['as soon as possible', 'ASAP'],
  ['thank you', 'thanks'],
  ['approximately', 'about'],
  ['therefore', 'so'],
  ['purchase', 'buy'],
  ['assist', 'help'],
  ['require', 'need'],
  ['commence', 'start'],
  ['obtain', 'get'],
  ['utilize', 'use'],
  ['greetings', 'hi'],
];

const EXPAND = compileTable(CONTRACTIONS);
const PROFESSIONAL = compileTable(CASUAL_WORDS);
const CASUAL = compileTable(FORMAL_WORDS);
/** "it is" and the like contract only before another word, so "Yes, it is." stays as it is. */
const CONTRACT = compileTable(
  CONTRACTIONS.filter(([, full]) => !/ (?:is|are|have|will|us)$/.test(full) || full === 'I am').map(
    ([short, full]) => [full, short] as const,
  ),
);
const CONTRACT_BEFORE_WORD = compileTable(
  CONTRACTIONS.filter(([, full]) => / (?:is|are|have|will|us)$/.test(full) && full !== 'I am').map(
    ([short, full]) => [full, short] as const,
  ),
);

function contract(text: string): string {
  const beforeWord = new RegExp(`${CONTRACT_BEFORE_WORD.pattern.source}(?=[ \\t]+[\\p{L}\\p{N}])`, 'giu');
  return applyTable(applyTable(text, CONTRACT), { pattern: beforeWord, lookup: CONTRACT_BEFORE_WORD.lookup });
}

// ── Grammar ──────────────────────────────────────────────────────────────────────────────────────

const DOUBLED =
  /(?<![\p{L}\p{N}])(the|a|an|to|and|of|in|is|it|for|on|with|was|be|as|at|by|we|are|this)[ \t]+\1(?![\p{L}\p{N}])/giu;

function fixGrammarText(text: string, endsParagraph: boolean): string {
  let fixed = text.replace(/([^ \t])[ \t]{2,}/g, '$1 ').replace(/[ \t]+([,;:!?])(?=\s|$)/g, '$1');
  fixed = fixed.replace(DOUBLED, '$1');
  fixed = fixed.replace(/(^|[\s("“])i(?=[ \t,;:!?]|['’](?:m|ll|ve|d)(?![\p{L}])|\.(?:\s|$)|$)/gu, '$1I');
  fixed = capitaliseSentences(fixed);
  if (endsParagraph) fixed = withEndPunctuation(fixed);
  return fixed;
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

/** Keeps the first sentences until about half the words are kept (at least one sentence). */
function shortenText(text: string, kind: LineKind): string {
  const tightened = applyTable(text, WORDY).replace(FILLER, '');
  if (kind === 'heading') return tightened;
  const sentences = sentencesOf(tightened);
  if (sentences.length < 2) return tightened;
  const target = Math.ceil(wordCount(tightened) / 2);
  let kept = '';
  let words = 0;
  for (const sentence of sentences) {
    if (kept !== '' && words >= target) break;
    kept += sentence;
    words += wordCount(sentence);
  }
  return kept.trimEnd();
}

/** Keyword → emoji, first match wins (emojify). */
const EMOJI_KEYWORDS: readonly (readonly [RegExp, string])[] = [
  [/\b(?:goals?|targets?|aims?|objectives?)\b/i, '🎯'],
  [/\b(?:launch\w*|ship\w*|start\w*|kick-?off)\b/i, '🚀'],
  [/\b(?:grow\w*|increas\w*|improv\w*|gains?)\b/i, '📈'],
  [/\b(?:declin\w*|decreas\w*|drops?|loss\w*)\b/i, '📉'],
  [/\b(?:money|budget\w*|costs?|revenue|prices?|funding|invest\w*)\b/i, '💰'],
  [/\b(?:time|deadlines?|schedul\w*|dates?|weeks?|months?)\b/i, '⏰'],
  [/\b(?:teams?|people|partners?|together|collaborat\w*)\b/i, '🤝'],
  [/\b(?:risks?|warnings?|problems?|issues?|danger\w*)\b/i, '⚠️'],
  [/\b(?:data|metrics?|analys\w*|numbers?|results?)\b/i, '📊'],
  [/\b(?:customers?|users?|clients?|audience)\b/i, '👥'],
  [/\b(?:secur\w*|safe\w*|privacy)\b/i, '🔒'],
  [/\b(?:research\w*|stud\w*|investigat\w*|search\w*)\b/i, '🔍'],
  [/\b(?:ideas?|think\w*|innovat\w*)\b/i, '💡'],
  [/\b(?:success\w*|wins?|achiev\w*)\b/i, '🏆'],
  [/\b(?:done|complete\w*|finish\w*)\b/i, '✅'],
  [/\b(?:plans?|planning|roadmaps?|strateg\w*)\b/i, '🗺️'],
  [/\b(?:writ\w*|documents?|reports?|notes?)\b/i, '📝'],
  [/\b(?:thanks?|grateful)\b/i, '🙏'],
  [/\b(?:happy|great|love|glad)\b/i, '😊'],
];

function emojiFor(sentence: string): string | undefined {
  return EMOJI_KEYWORDS.find(([pattern]) => pattern.test(sentence))?.[1];
}

/** At most one emoji per sentence; a line that gets none from the table gets ✨ at its end. */
function emojifyText(text: string): string {
  if (EMOJI.test(text)) {
    // A line that has emoji already only gets them where a sentence has none (so a second run adds nothing).
    return sentencesOf(text)
      .map((sentence) => (EMOJI.test(sentence) ? sentence : withEmoji(sentence, emojiFor(sentence))))
      .join('');
  }
  const sentences = sentencesOf(text).map((sentence) => withEmoji(sentence, emojiFor(sentence)));
  const joined = sentences.join('');
  return EMOJI.test(joined) ? joined : withEmoji(joined, '✨');
}

function withEmoji(sentence: string, emoji: string | undefined): string {
  if (emoji === undefined || sentence.trim() === '') return sentence;
  const trimmed = sentence.trimEnd();
  return `${trimmed} ${emoji}${sentence.slice(trimmed.length)}`;
}

// ── Per-action ───────────────────────────────────────────────────────────────────────────────────

/** The sentence scaffold `extend` appends: generic on purpose, with brackets the writer fills in. */
export const EXTEND_SCAFFOLD =
  'To make this concrete, add evidence: [specific figures, dates or sources]. Explain why it matters for [who is affected], and name the next step: [owner, action, deadline].';

function transformLine(
  action: TransformAction,
  text: string,
  kind: LineKind,
  endsParagraph: boolean,
): string {
  const prose = kind === 'plain' || kind === 'quote';
  switch (action) {
    case 'fix_grammar':
      return fixGrammarText(text, endsParagraph && prose);
    case 'improve':
      return fixGrammarText(applyTable(text, WORDY), endsParagraph && prose);
    case 'simplify':
      return simplifyText(text, kind);
    case 'shorten':
      return shortenText(text, kind);
    case 'professional':
      return capitaliseSentences(applyTable(applyTable(text, EXPAND), PROFESSIONAL));
    case 'casual':
      return contract(applyTable(text, CASUAL));
    case 'emojify':
      return emojifyText(text);
    case 'extend':
      return text;
  }
}

function extendText(text: string): string {
  // Trailing blank lines go; the last line stays as it is (a bare "- " keeps its marker).
  const body = text.replace(/(?:\n[ \t]*)+$/, '');
  const lines = readLines(body);
  const last = lines[lines.length - 1];
  // One prose line: the scaffold continues it; anything else gets the scaffold as its own paragraph.
  if (lines.length === 1 && last !== undefined && !('verbatim' in last) && last.kind === 'plain') {
    return `${withEndPunctuation(body.trimEnd())} ${EXTEND_SCAFFOLD}`;
  }
  return `${body}\n\n${EXTEND_SCAFFOLD}`;
}

/**
 * Transforms `text` with one of the eight actions, without a model (SPEC TR1–TR12). Deterministic,
 * never throws (on any string: it answers the text unchanged if a rule fails), keeps Markdown markers and
 * code, and never grows on a second run except for `extend`. `customPrompt` cannot be honoured without a
 * model and is ignored: the offline provider says so in its label, not in the text.
 */
export function offlineTransform(action: TransformAction, text: string, customPrompt: string | null): string {
  void customPrompt;
  if (typeof text !== 'string' || text.trim() === '') return typeof text === 'string' ? text : '';
  try {
    const normalised = text.replace(/\r\n?/g, '\n');
    if (action === 'extend') return extendText(normalised);
    const lines = readLines(normalised);
    const out = lines.map((line, index) => {
      if ('verbatim' in line) return line;
      const next = lines[index + 1];
      const endsParagraph =
        next === undefined || 'verbatim' in next || next.kind === 'heading' || next.kind === 'list';
      return {
        ...line,
        text: onProse(line.text, (prose) => transformLine(action, prose, line.kind, endsParagraph)),
      };
    });
    return writeLines(out);
  } catch {
    return text;
  }
}
