import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { packagePath } from '../package-paths.js';

/** A file of the reader page, served under a name that changes with its content (so cached for a year). */
export interface ReaderAsset {
  /** `/s/_/reader.<hash>.css` */
  path: string;
  contentType: string;
  body: string;
}

/** The reader page's stylesheet and script (`share-reader/` in the server package), read once. */
export interface ReaderAssets {
  css: ReaderAsset;
  js: ReaderAsset;
}

/** Where the reader page's own files are served; `_` is never a token (tokens are 43 characters). */
export const READER_ASSET_PREFIX = '/s/_/';

function asset(file: string, extension: 'css' | 'js', contentType: string): ReaderAsset {
  const body = readFileSync(packagePath(`share-reader/${file}`), 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `${READER_ASSET_PREFIX}reader.${hash}.${extension}`, contentType, body };
}

/** Reads the reader page's files. */
export function loadReaderAssets(): ReaderAssets {
  return {
    css: asset('reader.css', 'css', 'text/css; charset=utf-8'),
    js: asset('reader.js', 'js', 'text/javascript; charset=utf-8'),
  };
}
