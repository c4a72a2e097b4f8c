/** Names a small filesystem the tests may fill, instead of mounting one (which needs root). */
export declare const SMALL_FS_ENV: string;
/** A small filesystem of its own (a tmpfs we mount, or PLANWRIGHT_TEST_SMALL_FS); throws with what to do otherwise. */
export declare function mountSmallFilesystem(sizeMb: number): { dir: string; unmount(): void };
/** Free bytes on the filesystem holding `dir`. */
export declare function freeBytes(dir: string): number;
/** Fills the filesystem holding `dir` (leaving `leaveBytes` free) with one file; returns its path. */
export declare function fillFilesystem(dir: string, leaveBytes?: number): string;
