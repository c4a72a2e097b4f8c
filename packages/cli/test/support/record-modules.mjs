// Preloaded with `node --import` by test/binary.test.ts: appends the URL of every module the process
// loads to the file named by RECORD_MODULES_TO. ES modules are seen by the resolve hook (which runs
// on the loader thread); CommonJS ones (react is CommonJS) are listed from the require cache at exit.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const out = process.env.RECORD_MODULES_TO;
if (!out) throw new Error('record-modules.mjs needs RECORD_MODULES_TO');

register('./record-modules-hooks.mjs', import.meta.url, { data: { out } });

const require = createRequire(import.meta.url);
process.on('exit', () => {
  const commonJs = Object.keys(require.cache).map((path) => pathToFileURL(path).href);
  appendFileSync(out, commonJs.map((url) => `${url}\n`).join(''));
});
