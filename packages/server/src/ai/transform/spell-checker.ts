/**
 * The offline spelling checker (SPEC TR13–TR14): Hunspell's English dictionary (`dictionary-en`, read by
 * `nspell`), loaded once, on first use, so a server that never checks spelling never pays for it.
 *
 * Candidates are the dictionary words one edit away, checked with `nspell.correct`, not `nspell.suggest`:
 * suggest falls back to two edits when one finds nothing and then took up to a third of a second for one
 * word ("onboarding"); one edit away costs about a millisecond and is the only kind of guess worth trusting.
 */

/** Checks and corrects single words. */
export interface SpellChecker {
  /** The word is in the dictionary (or cannot be judged: it is left alone). */
  isKnown(word: string): boolean;
  /** A confident correction of an unknown word, or null when there is none (TR14). */
  correction(word: string): string | null;
}

/** Common misspellings whose correction is certain, whatever the dictionary suggests. */
const KNOWN_MISSPELLINGS: ReadonlyMap<string, string> = new Map([
  ['alot', 'a lot'],
  ['recieve', 'receive'],
  ['recieved', 'received'],
  ['buisness', 'business'],
  ['bussiness', 'business'],
  ['busines', 'business'],
  ['teh', 'the'],
  ['seperate', 'separate'],
  ['seperately', 'separately'],
  ['definately', 'definitely'],
  ['occured', 'occurred'],
  ['untill', 'until'],
  ['wich', 'which'],
  ['thier', 'their'],
  ['acheive', 'achieve'],
  ['beleive', 'believe'],
  ['goverment', 'government'],
  ['enviroment', 'environment'],
  ['accomodate', 'accommodate'],
  ['calender', 'calendar'],
  ['existance', 'existence'],
  ['independant', 'independent'],
  ['occassion', 'occasion'],
  ['refered', 'referred'],
  ['succesful', 'successful'],
  ['sucessful', 'successful'],
  ['tommorow', 'tomorrow'],
  ['wierd', 'weird'],
  ['neccessary', 'necessary'],
  ['necesary', 'necessary'],
  ['managment', 'management'],
  ['profitible', 'profitable'],
  ['revenu', 'revenue'],
  ['competetive', 'competitive'],
  ['finacial', 'financial'],
  ['markting', 'marketing'],
  ['custumer', 'customer'],
  ['realy', 'really'],
  ['revnue', 'revenue'],
  ['becuase', 'because'],
  ['wiht', 'with'],
]);

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

type EditKind = 'swap' | 'delete' | 'replace' | 'insert' | 'double';

/** Dictionary words one edit away from `word` that start with the same letter, with the edit that made them. */
function neighbours(word: string, isWord: (candidate: string) => boolean): Map<string, EditKind> {
  const found = new Map<string, EditKind>();
  const add = (candidate: string, kind: EditKind) => {
    if (candidate[0] === word[0] && !found.has(candidate) && isWord(candidate)) found.set(candidate, kind);
  };
  for (let i = 0; i < word.length - 1; i += 1)
    add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2), 'swap');
  for (let i = 1; i < word.length; i += 1) add(word.slice(0, i) + word.slice(i + 1), 'delete');
  for (let i = 1; i <= word.length; i += 1) {
    for (const letter of LETTERS) {
      // A letter typed once where it is written twice ("occured") is the commonest slip: ranked apart.
      const kind = letter === word[i - 1] || letter === word[i] ? 'double' : 'insert';
      add(word.slice(0, i) + letter + word.slice(i), kind);
      if (i < word.length) add(word.slice(0, i) + letter + word.slice(i + 1), 'replace');
    }
  }
  return found;
}

/**
 * The one correction to trust among `found`: the only neighbour ("becuase"), else the only doubled letter
 * ("begining") when no transposition competes; two equally likely ones ("plannig": planing or planning?) are
 * no correction at all.
 */
function confidentPick(found: ReadonlyMap<string, EditKind>): string | null {
  const all = [...found];
  if (all.length === 1) return all[0]?.[0] ?? null;
  if (all.some(([, edit]) => edit === 'swap')) return null;
  const doubled = all.filter(([, edit]) => edit === 'double');
  return doubled.length === 1 ? (doubled[0]?.[0] ?? null) : null;
}

/** British and American spellings of one word differ by these (British first): never a mistake to correct. */
const SPELLING_VARIANTS: readonly (readonly [string, string])[] = [
  ['our', 'or'],
  ['tre', 'ter'],
  ['ll', 'l'],
  ['ence', 'ense'],
  ['ise', 'ize'],
  ['isa', 'iza'],
  ['yse', 'yze'],
  ['ogue', 'og'],
  ['amme', 'am'],
  ['ae', 'e'],
  ['oe', 'e'],
  ['eable', 'able'],
];

/**
 * Whether `candidate` is the American spelling of a British `word` ("colour" → "color", "travelling" →
 * "traveling"): the dictionary is en_US, and a British writer's spelling is not a typo.
 */
function isSpellingVariant(word: string, candidate: string): boolean {
  return SPELLING_VARIANTS.some(([british, american]) => {
    for (let at = word.indexOf(british); at !== -1; at = word.indexOf(british, at + 1)) {
      if (word.slice(0, at) + american + word.slice(at + british.length) === candidate) return true;
    }
    return false;
  });
}

/** The original's case pattern on the correction: "Teh" → "The", "BAKERYS" → "BAKERIES". */
export function withCaseOf(original: string, correction: string): string {
  if (original.length > 1 && original === original.toUpperCase()) return correction.toUpperCase();
  const first = original[0] ?? '';
  if (first !== first.toLowerCase()) return correction.charAt(0).toUpperCase() + correction.slice(1);
  return correction;
}

/** Shorter words have too many neighbours to pick one; longer ones are names, jargon or pasted data. */
const MIN_LENGTH = 4;
const MAX_LENGTH = 24;

interface Hunspell {
  correct(word: string): boolean;
}

function checkerOver(hunspell: Hunspell): SpellChecker {
  const cache = new Map<string, string | null>();
  const isWord = (candidate: string) => hunspell.correct(candidate);
  const guess = (lower: string): string | null => {
    // A plural of a word in -y written -ys ("bakerys", "strategys").
    const plural = /^(.*[^aeiou])ys$/.exec(lower);
    if (plural && isWord(`${plural[1]}ies`)) return `${plural[1]}ies`;
    const pick = confidentPick(neighbours(lower, isWord));
    return pick !== null && isSpellingVariant(lower, pick) ? null : pick;
  };
  return {
    isKnown(word) {
      return hunspell.correct(word) || hunspell.correct(word.toLowerCase());
    },
    correction(word) {
      const lower = word.toLowerCase();
      const known = KNOWN_MISSPELLINGS.get(lower);
      if (known !== undefined) return withCaseOf(word, known);
      // Only plain lower-case words: a capital is a name ("Planwright" is not "Playwright"), all caps an acronym.
      if (word !== lower || !/^[a-z]+$/.test(word)) return null;
      if (word.length < MIN_LENGTH || word.length > MAX_LENGTH || this.isKnown(word)) return null;
      let chosen = cache.get(lower);
      if (chosen === undefined) {
        chosen = guess(lower);
        if (cache.size > 10_000) cache.clear();
        cache.set(lower, chosen);
      }
      return chosen;
    },
  };
}

let loading: Promise<SpellChecker> | null = null;

/**
 * The one spelling checker of this process, loaded on the first call (about a third of a second: the
 * dictionary is 550,000 characters of affixes and words to expand) and shared by every later one.
 */
export function loadSpellChecker(): Promise<SpellChecker> {
  loading ??= (async () => {
    const [{ default: nspell }, { default: dictionary }] = await Promise.all([
      import('nspell'),
      import('dictionary-en'),
    ]);
    return checkerOver(nspell(dictionary) as Hunspell);
  })();
  // A failed load is not kept: the next call tries again.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** A checker that knows every word: for the transforms that do not correct spelling. */
export const NO_SPELL_CHECKER: SpellChecker = {
  isKnown: () => true,
  correction: () => null,
};
