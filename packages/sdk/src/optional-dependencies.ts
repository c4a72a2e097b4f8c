import { ERROR_CODES } from './errors/error-codes.js';
import { PlanwrightError } from './errors/planwright-error.js';

/*
 * The SDK's main entry needs only zod. The document model, the formats and the proposals need Tiptap,
 * markdown-it, diff, and for .docx and PDF also docx, pdfmake, mammoth, linkedom and fflate; live documents
 * need yjs, @tiptap/y-tiptap, y-protocols and @hocuspocus/provider: optional peer
 * dependencies (package.json), so an API-only install stays small. Each of those entries is built behind a
 * small guard module (tsup.config.ts) that loads it through `loadEntry`, which turns Node's bare "Cannot find
 * package" into a PlanwrightError naming what to install.
 */

const TIPTAP = [
  '@tiptap/core',
  '@tiptap/extension-blockquote',
  '@tiptap/extension-bold',
  '@tiptap/extension-code',
  '@tiptap/extension-code-block',
  '@tiptap/extension-document',
  '@tiptap/extension-hard-break',
  '@tiptap/extension-heading',
  '@tiptap/extension-horizontal-rule',
  '@tiptap/extension-italic',
  '@tiptap/extension-link',
  '@tiptap/extension-list',
  '@tiptap/extension-paragraph',
  '@tiptap/extension-strike',
  '@tiptap/extension-text',
  '@tiptap/extension-underline',
  '@tiptap/pm',
] as const;

/**
 * @internal The optional packages each guarded entry point loads, with the range package.json's
 * `peerDependencies` gives them (test/optional-dependencies.test.ts keeps the two equal).
 */
export const OPTIONAL_DEPENDENCIES = {
  '@planwright/sdk/model': TIPTAP,
  '@planwright/sdk/formats': [...TIPTAP, 'diff', 'markdown-it'],
  '@planwright/sdk/formats/node': [
    ...TIPTAP,
    'diff',
    'docx',
    'fflate',
    'linkedom',
    'mammoth',
    'markdown-it',
    'pdfmake',
  ],
  '@planwright/sdk/proposals': [...TIPTAP, 'diff', 'markdown-it'],
  '@planwright/sdk/live': [...TIPTAP, '@hocuspocus/provider', '@tiptap/y-tiptap', 'y-protocols', 'yjs'],
} as const satisfies Record<string, readonly string[]>;

/** @internal An entry point of the SDK that needs optional packages. */
export type GuardedEntry = keyof typeof OPTIONAL_DEPENDENCIES;

/** @internal The version range of each optional package: the SDK's `peerDependencies`. */
export const OPTIONAL_DEPENDENCY_RANGES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(TIPTAP.map((name) => [name, '^3.32.2'])),
  diff: '^9.0.0',
  docx: '^9.15.2',
  fflate: '^0.8.3',
  linkedom: '^0.18.15',
  mammoth: '^1.13.0',
  'markdown-it': '^14.3.3',
  pdfmake: '^0.3.11',
  '@hocuspocus/provider': '^3.4.4',
  '@tiptap/y-tiptap': '^3.0.9',
  'y-protocols': '^1.0.7',
  yjs: '^13.6.33',
};

/** The package a module-resolution error names, when it is one of `candidates`. */
function missingPackage(error: unknown, candidates: readonly string[]): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' || typeof message !== 'string') return undefined;
  // Node: "Cannot find package 'docx' imported from …"; a deep import: "Cannot find module '…/node_modules/docx/…'".
  const named = /Cannot find (?:package|module) '([^']+)'/.exec(message)?.[1];
  if (!named) return undefined;
  return candidates.find(
    (name) => named === name || named.startsWith(`${name}/`) || named.includes(`/node_modules/${name}/`),
  );
}

/**
 * @internal The error for an entry point whose optional package `missing` is not installed, or
 * undefined when `error` is about something else.
 */
export function missingDependencyError(entry: GuardedEntry, error: unknown): PlanwrightError | undefined {
  const needed = OPTIONAL_DEPENDENCIES[entry];
  const missing = missingPackage(error, needed);
  if (!missing) return undefined;
  const install = needed.map((name) => `${name}@${OPTIONAL_DEPENDENCY_RANGES[name] ?? 'latest'}`).join(' ');
  return new PlanwrightError({
    code: ERROR_CODES.MISSING_DEPENDENCY,
    message: `${entry} needs the package ${missing}, which is not installed (it is an optional peer dependency of @planwright/sdk).`,
    suggestion: `npm install ${install}`,
    cause: error,
  });
}

/**
 * @internal Loads a guarded entry point's implementation; a missing optional package becomes a
 * PlanwrightError (code `missing_dependency`) whose suggestion is the `npm install` line to run.
 */
export async function loadEntry<T>(entry: GuardedEntry, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw missingDependencyError(entry, error) ?? error;
  }
}
