// Declarations of build.mjs (plain JavaScript, run by node as it is), for TypeScript callers such as the test.

/** The files the page is made of, besides the bundle. */
export declare const PAGE_FILES: readonly string[];

/** Writes index.html, embedded-sdk.css and the bundle embedded-sdk.js into `outDir`; answers that folder. */
export declare function buildEmbeddedSdk(options: {
  outDir: string;
  /** Resolve @planwright/sdk to its TypeScript source (the `planwright-source` condition). */
  source?: boolean;
}): Promise<string>;
