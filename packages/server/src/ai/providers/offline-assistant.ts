import { offlineTransform, sentencesOf } from '../transform/offline-transforms.js';
import { NO_SPELL_CHECKER, type SpellChecker } from '../transform/spell-checker.js';
import type { ScopeBlock, ScopeSubsection } from './ai-provider.js';

/**
 * What the offline assistant can say and do without a model (SPEC AP23–AP26, AP32–AP36): guidance from the
 * plan's hints, the user's own facts, what looks missing, and edits built only from the user's own words.
 * Nothing here writes plan text of its own.
 */

/** An edit the user can ask for offline, recognised from English keywords in the message. */
export type OfflineIntent = 'to_bullets' | 'to_paragraph' | 'split' | 'shorten' | 'fix_spelling';

/** The phrases the answer lists as what works offline, one per intent. */
export const OFFLINE_COMMANDS: readonly { intent: OfflineIntent; example: string; does: string }[] = [
  { intent: 'to_bullets', example: 'turn these notes into bullet points', does: 'your notes as a list' },
  { intent: 'to_paragraph', example: 'turn this list into a paragraph', does: 'your list as one paragraph' },
  {
    intent: 'split',
    example: 'split this long paragraph',
    does: 'long paragraphs cut at their sentences',
  },
  {
    intent: 'shorten',
    example: 'make it shorter',
    does: 'filler words, hedges and asides removed (never a fact)',
  },
  { intent: 'fix_spelling', example: 'fix the spelling', does: 'spelling and a few sure grammar slips' },
];

/** Checked in this order: "turn this list into a paragraph" names a list but asks for a paragraph. */
const INTENT_PATTERNS: readonly (readonly [OfflineIntent, RegExp])[] = [
  [
    'to_paragraph',
    /\b(?:into|to|as|in)\s+(?:a\s+|one\s+|running\s+|flowing\s+|plain\s+)?(?:paragraphs?|prose|text|sentences)\b|\bun-?bullet|\b(?:join|merge|combine)\b.*\b(?:list|bullets?|items|points)\b|\bno\s+(?:more\s+)?bullets?\b/,
  ],
  [
    'to_bullets',
    /\bbullet|\b(?:into|to|as|in)\s+(?:a\s+)?(?:list|points|items)\b|\b(?:list|point)\s+form\b|\bitemi[sz]e|\blist\s+(?:it|them|these|this)\b/,
  ],
  [
    'split',
    /\bsplit\b|\bbreak\s+(?:it\s+|this\s+|them\s+)?(?:up|down|apart|into)\b|\b(?:shorter|smaller|separate)\s+(?:paragraphs|sentences)\b|\bwall\s+of\s+text\b|\bone\s+idea\s+per\b/,
  ],
  [
    'shorten',
    /\bshort(?:er|en)?\b|\bcondense|\btrim\b|\btighten|\bconcise|\bcut\s+(?:it\s+|this\s+)?down\b|\bless\s+wordy\b|\btoo\s+long\b|\bbrief(?:er)?\b|\bfewer\s+words\b|\bcut\s+the\s+(?:fluff|filler)\b/,
  ],
  [
    'fix_spelling',
    /\bspell|\btypos?\b|\bproof-?read|\bgrammar\b|\bmisspel|\b(?:fix|correct)\s+(?:the\s+|my\s+|any\s+)?(?:errors|mistakes|text|writing|it|this)\b/,
  ],
];

/** The edit the message asks for, or null (then the answer is guidance only). */
export function recogniseIntent(message: string): OfflineIntent | null {
  const text = message.toLowerCase().replace(/[‘’]/g, "'");
  return INTENT_PATTERNS.find(([, pattern]) => pattern.test(text))?.[0] ?? null;
}

// ── Guidance ─────────────────────────────────────────────────────────────────────────────────────

/** At most this many guidance points per subsection. */
const MAX_POINTS = 8;
/** A point, a fact or a quoted message is cut to this many characters. */
const MAX_INLINE_CHARS = 240;
/** At most this many facts are quoted per subsection. */
const MAX_FACTS = 12;

/** One line of untrusted text for inline use: whitespace (newlines too) collapsed, cut to a readable length. */
export function inline(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_INLINE_CHARS ? `${flat.slice(0, MAX_INLINE_CHARS).trimEnd()}…` : flat;
}

/** The sentences (or lines) of a hint and a developer prompt, as guidance points. */
export function guidancePoints(subsection: ScopeSubsection): string[] {
  const points = [subsection.userHint, subsection.developerPrompt].flatMap((text) =>
    text
      .split(/\n+|(?<=[.!?])\s+/)
      .map((point) => inline(point.replace(/^\s*(?:[-*+•]|\d{1,3}[.)])\s+/, '')))
      .filter((point) => /[\p{L}\p{N}]/u.test(point)),
  );
  return [...new Set(points)].slice(0, MAX_POINTS);
}

const STOP_WORDS = new Set(
  'about above after business company again against also because been before being below between both cover could describe does doing during each explain focus from have having here include including into itself more most other ought over same should some such than that their theirs them then there these they this those through under until very what when where which while whom with would your yours write mention provide give state show make sure answer briefly short list name detail details'.split(
    ' ',
  ),
);

/** The words of a point that say what it is about: five letters or more, not instructions or glue. */
function keyTerms(point: string): string[] {
  const words = point.toLowerCase().match(/\p{L}{5,}/gu) ?? [];
  return [...new Set(words.filter((word) => !STOP_WORDS.has(word)))];
}

/** A word's first letters, so "customers" meets "customer" and "pricing" meets "prices". */
function stem(word: string): string {
  return word.slice(0, Math.max(4, Math.min(6, word.length - 2)));
}

/** The guidance points whose key terms all are absent from the text (a point without key terms is skipped). */
export function missingPoints(points: readonly string[], text: string): string[] {
  const present = new Set((text.toLowerCase().match(/\p{L}{4,}/gu) ?? []).map(stem));
  return points.filter((point) => {
    const terms = keyTerms(point);
    return terms.length > 0 && !terms.some((term) => present.has(stem(term)));
  });
}

// ── Facts ────────────────────────────────────────────────────────────────────────────────────────

const MONTHS =
  'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec';
const NUMBER = String.raw`\d{1,3}(?:[,.\u00A0\u202F ]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?`;
const SCALE = String.raw`(?:\s?(?:k|m|bn|million|billion|thousand|mio\.?|mn))?`;
/** Facts in the order they are looked for; what one kind takes, the next cannot take again. */
const FACT_PATTERNS: readonly RegExp[] = [
  // Money: a currency sign or code before or after the figure.
  new RegExp(
    String.raw`(?:[€$£¥]|\b(?:EUR|USD|GBP|CHF)\s?)(?:${NUMBER})${SCALE}(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])(?:${NUMBER})${SCALE}\s?(?:[€$£¥]|(?:EUR|USD|GBP|CHF|euros?|dollars?|pounds?)(?![\p{L}]))`,
    'giu',
  ),
  // Percentages.
  new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${NUMBER})\s?(?:%|per\s?cent|percent)`, 'giu'),
  // Dates: 12 March 2025, March 2025, Q3 2025, 2025-03-12, 12/03/2025.
  new RegExp(
    String.raw`\b\d{1,2}\.?\s(?:${MONTHS})\.?\s\d{4}\b|\b(?:${MONTHS})\.?\s(?:\d{1,2},?\s)?\d{4}\b|\b(?:Q[1-4]|H[12])\s?(?:19|20)\d{2}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b`,
    'gu',
  ),
  // Years.
  /(?<![\p{L}\p{N}.,])(?:19|20)\d{2}(?![\p{L}\p{N}%]|[.,]\d)/gu,
  // A number with the word it counts ("12 employees", "3 stores", "40 m²").
  new RegExp(
    String.raw`(?<![\p{L}\p{N}.,])(?:${NUMBER})(?:\s?(?:m²|km²|sqm|sq\s?ft|km|kg|t|h|ml|l)\b|\s(?!(?:and|or|to|of|the|in|on|at|for|with|a|an|by|is|are|was|were)\b)\p{L}{2,}(?:\s(?:per|a)\s\p{L}+)?)`,
    'gu',
  ),
];
/** A run of capitalised words (with "of", "&" inside), e.g. "Bread & Butter GmbH", "Berlin". */
const NAME =
  /(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{N}'’.-]*(?:\s(?:&|of|de|von|van|the)\s\p{Lu}[\p{L}\p{N}'’.-]*|\s\p{Lu}[\p{L}\p{N}'’.-]*)*/gu;
/** Capitalised words that are not names. */
const NOT_NAMES = new Set(
  `I A An The This That These Those We Our Us You Your It Its He She They Their There Here In On At For With By From To Of And Or But If When Then So Also Each Every All Some Most Many Our Yes No Not Which What Who Why How After Before During First Second Third Next Finally However Therefore Today Tomorrow Monday Tuesday Wednesday Thursday Friday Saturday Sunday ${MONTHS.replace(/\|/g, ' ')}`.split(
    ' ',
  ),
);

/** Plain text of Markdown, enough to read facts from: markers, emphasis and link targets dropped. */
function plainText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`[^`]*`/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^[ \t]*(?:#{1,6}|[-*+]|\d{1,9}[.)]|>)[ \t]+/gm, '')
    .replace(/[*_~]{1,3}(?=\S)|(?<=\S)[*_~]{1,3}/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1');
}

/**
 * The user's facts in `markdown`, each quoted as written: money, percentages, dates, years, numbers with
 * what they count, and proper names (a capitalised word that does not start a sentence, or a run of them).
 */
export function extractFacts(markdown: string): string[] {
  let text = plainText(markdown);
  const found: { at: number; fact: string }[] = [];
  for (const pattern of FACT_PATTERNS) {
    text = text.replace(pattern, (match: string, ...rest: unknown[]) => {
      const at = rest.find((value): value is number => typeof value === 'number') ?? 0;
      found.push({ at, fact: match.trim() });
      return ' '.repeat(match.length);
    });
  }
  for (const match of text.matchAll(NAME)) {
    const words = match[0].replace(/[.'’-]+$/, '').split(/\s+/);
    while (words.length > 0 && NOT_NAMES.has(words[0] ?? '')) words.shift();
    if (words.length === 0) continue;
    const before = text.slice(0, match.index).trimEnd();
    // The first word of a sentence is capitalised anyway: a name only if it is one of several.
    const startsSentence = before === '' || /[.!?:\n]$/.test(before);
    if (startsSentence && words.length < 2 && words[0] === match[0]) continue;
    if (words.join(' ').length < 2) continue;
    found.push({ at: match.index, fact: words.join(' ') });
  }
  found.sort((a, b) => a.at - b.at);
  return [...new Set(found.map(({ fact }) => inline(fact)))].slice(0, MAX_FACTS);
}

// ── Edits from the user's own words ──────────────────────────────────────────────────────────────

/** One partial edit, in the `propose_partial_edits` shape. */
export interface OfflineEdit {
  targetNodeId: string;
  mode: 'replace' | 'delete';
  format?: 'markdown';
  content?: string;
  reason: string;
}

/** What an intent did to a subsection: its edits, or why there were none. */
export interface IntentOutcome {
  edits: OfflineEdit[];
  /** One line saying what was done or why nothing could be. */
  summary: string;
}

type Targetable = ScopeBlock & { nodeId: string };

function targetable(block: ScopeBlock): block is Targetable {
  return block.nodeId !== null && block.markdown.trim() !== '';
}

const LIST_TYPES = new Set(['bulletList', 'orderedList', 'taskList']);
/** A Markdown hard break (`\` or two spaces before a newline) or a plain newline inside a paragraph. */
const LINE_BREAK = /\\\n|[ \t]{2,}\n|\n/;

/** The notes of a paragraph: its lines, sentences and `;`-separated parts, each without a final full stop. */
function notesOf(markdown: string): string[] {
  return markdown
    .split(LINE_BREAK)
    .flatMap((line) => sentencesOf(line))
    .flatMap((sentence) => sentence.split(/;\s+/))
    .map((note) => note.trim().replace(/(?<![.])\.$/, ''))
    .filter((note) => /[\p{L}\p{N}]/u.test(note));
}

function toBullets(blocks: readonly Targetable[]): OfflineEdit[] {
  const edits: OfflineEdit[] = [];
  // Runs of consecutive paragraphs become one list each: notes are often written one per paragraph.
  let run: Targetable[] = [];
  const flush = () => {
    const notes = run.flatMap((block) => notesOf(block.markdown));
    const [first, ...rest] = run;
    if (first !== undefined && notes.length >= 2) {
      edits.push({
        targetNodeId: first.nodeId,
        mode: 'replace',
        format: 'markdown',
        content: notes.map((note) => `- ${note}`).join('\n'),
        reason: 'Your notes as bullet points, in your words.',
      });
      for (const block of rest)
        edits.push({ targetNodeId: block.nodeId, mode: 'delete', reason: 'Now part of the list above.' });
    }
    run = [];
  };
  for (const block of blocks) {
    if (block.type === 'paragraph') run.push(block);
    else flush();
  }
  flush();
  return edits;
}

/** A list's items, markers removed, nested items flattened in order. */
function itemsOf(markdown: string): string[] {
  return markdown
    .split('\n')
    .map((line) => line.replace(/^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+\[[ xX]\])?[ \t]*/, '').trim())
    .filter((item) => /[\p{L}\p{N}]/u.test(item));
}

function asSentence(item: string): string {
  const capitalised = item.replace(/^(\p{Ll})/u, (letter) => letter.toUpperCase());
  return /[.!?…:]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

function toParagraph(blocks: readonly Targetable[]): OfflineEdit[] {
  return blocks
    .filter((block) => LIST_TYPES.has(block.type))
    .map((block) => ({ block, items: itemsOf(block.markdown) }))
    .filter(({ items }) => items.length > 0)
    .map(({ block, items }) => ({
      targetNodeId: block.nodeId,
      mode: 'replace' as const,
      format: 'markdown' as const,
      content: items.map(asSentence).join(' '),
      reason: 'Your list as one paragraph, in your words.',
    }));
}

/** Sentences per paragraph when a long paragraph is split. */
const SENTENCES_PER_PARAGRAPH = 2;
/** A paragraph is long from this many sentences on. */
const LONG_PARAGRAPH_SENTENCES = 3;

function split(blocks: readonly Targetable[]): OfflineEdit[] {
  const edits: OfflineEdit[] = [];
  for (const block of blocks) {
    if (block.type !== 'paragraph') continue;
    const sentences = sentencesOf(block.markdown.replace(/\\\n|[ \t]{2,}\n|\n/g, ' ')).map((s) => s.trim());
    if (sentences.length < LONG_PARAGRAPH_SENTENCES) continue;
    const paragraphs: string[] = [];
    for (let i = 0; i < sentences.length; i += SENTENCES_PER_PARAGRAPH)
      paragraphs.push(sentences.slice(i, i + SENTENCES_PER_PARAGRAPH).join(' '));
    edits.push({
      targetNodeId: block.nodeId,
      mode: 'replace',
      format: 'markdown',
      content: paragraphs.join('\n\n'),
      reason: `One long paragraph as ${paragraphs.length}, cut between its sentences.`,
    });
  }
  return edits;
}

const PROSE_TYPES = new Set(['paragraph', 'heading', 'blockquote', ...LIST_TYPES]);

function rewrite(
  blocks: readonly Targetable[],
  action: 'shorten' | 'fix_grammar',
  spell: SpellChecker,
  reason: string,
): OfflineEdit[] {
  const edits: OfflineEdit[] = [];
  for (const block of blocks) {
    if (!PROSE_TYPES.has(block.type)) continue;
    const changed = offlineTransform(action, block.markdown, { spell });
    if (changed.trim() !== '' && changed !== block.markdown)
      edits.push({
        targetNodeId: block.nodeId,
        mode: 'replace',
        format: 'markdown',
        content: changed,
        reason,
      });
  }
  return edits;
}

const NOTHING_TO_DO: Record<OfflineIntent, string> = {
  to_bullets:
    'I found no paragraph of notes to turn into bullet points here (a list needs at least two sentences or lines).',
  to_paragraph: 'I found no list here to turn into a paragraph.',
  split: `I found no long paragraph to split (${LONG_PARAGRAPH_SENTENCES} sentences or more).`,
  shorten:
    'I cannot shorten this further without a model: there is no filler word, hedge or aside left to remove, and I never drop a fact.',
  fix_spelling: 'I found no spelling mistake I am sure of.',
};

/** The edits `intent` makes to one subsection's blocks, built only from the words already there. */
export function editsFor(
  intent: OfflineIntent,
  subsection: ScopeSubsection,
  spell: SpellChecker,
): IntentOutcome {
  const blocks = subsection.blocks.filter(targetable);
  const edits =
    intent === 'to_bullets'
      ? toBullets(blocks)
      : intent === 'to_paragraph'
        ? toParagraph(blocks)
        : intent === 'split'
          ? split(blocks)
          : intent === 'shorten'
            ? rewrite(
                blocks,
                'shorten',
                NO_SPELL_CHECKER,
                'Filler, hedges and asides removed; every fact kept.',
              )
            : rewrite(blocks, 'fix_grammar', spell, 'Spelling and grammar corrected.');
  const changed = new Set(edits.map((edit) => edit.targetNodeId)).size;
  return {
    edits,
    summary:
      edits.length === 0
        ? NOTHING_TO_DO[intent]
        : `${changed} block${changed === 1 ? '' : 's'} changed, using only your own words.`,
  };
}
