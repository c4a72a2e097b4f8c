import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, ensureSystemPackage } from '../support/system-packages.mjs';

const webIndex = fileURLToPath(new URL('../../packages/web/dist/index.html', import.meta.url));

/** Runs once before the browser tests: Chromium must be installed and the web app built. */
export default function setup(): void {
  ensureSystemPackage(CHROMIUM);
  if (!existsSync(webIndex)) {
    throw new Error(
      'The browser tests load the built web app, and packages/web/dist is missing.\n' +
        'Build it with:  npm run build -w @planwright/web',
    );
  }
}
