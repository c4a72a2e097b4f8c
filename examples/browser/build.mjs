// Bundles the embedded-SDK example for the browser with esbuild's JS API: one ES module, no framework,
// nothing downloaded. Usage: node examples/browser/build.mjs [out-dir] [--source]
//   --source  resolves @planwright/sdk to its TypeScript source (inside this repository, no SDK build needed);
//             without it the package's built dist/ is used, as in an integrator's project.
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

/** The files the page is made of, besides the bundle; `serve.mjs` serves exactly these. */
export const PAGE_FILES = ['index.html', 'embedded-sdk.css'];

/**
 * Writes index.html, embedded-sdk.css and the bundle embedded-sdk.js (with its source map) into `outDir`.
 * @param {{ outDir: string, source?: boolean }} options
 * @returns {Promise<string>} the folder written
 */
export async function buildEmbeddedSdk({ outDir, source = false }) {
  const out = resolve(outDir);
  await mkdir(out, { recursive: true });
  await build({
    entryPoints: [join(here, 'embedded-sdk.ts')],
    outfile: join(out, 'embedded-sdk.js'),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    // The package's own condition for its TypeScript source (see packages/sdk/package.json "exports").
    conditions: source ? ['planwright-source'] : [],
    logLevel: 'warning',
  });
  await Promise.all(PAGE_FILES.map((file) => copyFile(join(here, file), join(out, file))));
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outDir = args.find((arg) => !arg.startsWith('--')) ?? join(here, 'dist');
  try {
    const written = await buildEmbeddedSdk({ outDir, source: args.includes('--source') });
    console.log(`built ${written}`);
  } catch (error) {
    console.error(`build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
