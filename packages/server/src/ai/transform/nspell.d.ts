/** nspell 2.1.5 ships no types; this is the part of its API the spelling checker uses. */
declare module 'nspell' {
  interface NSpell {
    correct(word: string): boolean;
    suggest(word: string): string[];
  }
  export default function nspell(dictionary: { aff: Uint8Array; dic?: Uint8Array }): NSpell;
}
