/**
 * The path of a file (or folder) of the shared test corpus: `../shared/corpus` beside the repository, or
 * PLANWRIGHT_CORPUS_DIR. Throws when it is missing (tests never skip).
 */
export declare function corpusPath(relative: string): string;
