#!/usr/bin/env node
// Bytes on the wire for a cold load of the editor route in headless Chromium (200-page plan, signed in,
// empty HTTP cache): what the server actually sends, compressed as the browser negotiated it, against what
// the same responses weigh once decoded. Method: the `method` string below (it ends up in docs/benchmarks.md).
import { build } from '../scripts/build.mjs';
import {
  EDITOR,
  editorPath,
  launchChromium,
  middleSubsection,
  signedInState,
  startPlanServer,
  VIEWPORT,
} from './editor-setup.mjs';

const TARGET_KIB = 450;
const round = (n) => Math.round(n * 10) / 10;
const kib = (n) => round(n / 1024);

/**
 * One cold load of `path` in a fresh profile signed in with `storageState`: every response of the origin
 * until the editor is editable and the network is idle, with its bytes on the wire (CDP
 * `encodedDataLength`: headers and body as received) and its decoded body size.
 */
async function coldLoad(browser, storageState, origin, path) {
  const context = await browser.newContext({ storageState, viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const responses = new Map();
    cdp.on('Network.responseReceived', ({ requestId, response, type }) => {
      if (!response.url.startsWith(origin)) return;
      const headers = Object.fromEntries(
        Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]),
      );
      responses.set(requestId, {
        path: new URL(response.url).pathname,
        type,
        encoding: headers['content-encoding'] ?? 'identity',
        decoded: 0,
        wire: 0,
      });
    });
    cdp.on('Network.dataReceived', ({ requestId, dataLength }) => {
      const entry = responses.get(requestId);
      if (entry) entry.decoded += dataLength;
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const entry = responses.get(requestId);
      if (entry) entry.wire = encodedDataLength;
    });
    await page.goto(`${origin}${path}`);
    await page.locator(`${EDITOR}[contenteditable="true"]`).waitFor({ timeout: 120_000 });
    await page.waitForLoadState('networkidle');
    return [...responses.values()].filter((entry) => entry.wire > 0);
  } finally {
    await context.close().catch(() => {});
  }
}

const sum = (entries, key) => entries.reduce((total, entry) => total + entry[key], 0);
const isApi = (entry) => /^\/(?:api|_allauth)\//.test(entry.path);

build();
const plan = await startPlanServer();
const browser = await launchChromium();
try {
  const storageState = await signedInState(browser, plan.url);
  const path = editorPath(plan.document, middleSubsection(plan.document.content));
  const loaded = await coldLoad(browser, storageState, plan.url, path);
  const assets = loaded.filter((entry) => !isApi(entry));
  const api = loaded.filter(isApi);
  const planGet = api.find((entry) => entry.path === `/api/v1/documents/${plan.document.uuid}/`);
  const encodings = [...new Set(loaded.map((entry) => entry.encoding))].sort().join(', ');
  const results = [
    {
      name: 'Editor route, cold load: web app on the wire (HTML, JS, CSS, fonts)',
      unit: 'KiB',
      value: kib(sum(assets, 'wire')),
      spread: `${assets.length} files, ${kib(sum(assets, 'decoded'))} KiB decoded`,
      target: `≤ ${TARGET_KIB} KiB`,
      pass: sum(assets, 'wire') <= TARGET_KIB * 1024,
    },
    {
      name: 'Editor route, cold load: API answers on the wire',
      unit: 'KiB',
      value: kib(sum(api, 'wire')),
      spread: `${api.length} answers, ${kib(sum(api, 'decoded'))} KiB decoded`,
      target: 'reported',
      pass: null,
    },
    {
      name: '200-page plan GET on the wire',
      unit: 'KiB',
      value: planGet ? kib(planGet.wire) : 0,
      spread: planGet ? `${kib(planGet.decoded)} KiB decoded, ${planGet.encoding}` : 'not requested',
      target: 'reported',
      pass: null,
    },
  ];
  console.error(
    loaded
      .map(
        (entry) => `${kib(entry.wire).toString().padStart(8)} KiB  ${entry.encoding.padEnd(8)} ${entry.path}`,
      )
      .join('\n'),
  );
  console.log(
    JSON.stringify({
      bench: 'editor-wire-bytes',
      title: 'Editor route: bytes on the wire, cold load (200-page plan)',
      method: `Built server on PGlite, headless Debian Chromium with a fresh signed-in profile and the HTTP cache disabled (CDP), one cold load of the editor URL of the generated 200-page plan until the editor is editable and the network is idle. Bytes on the wire: CDP Network.loadingFinished encodedDataLength (headers and body as received) of every same-origin response; decoded: the sum of Network.dataReceived dataLength. The web app's files are sent precompressed at build time (brotli 11 / gzip 9), API answers above 1 KB compressed per request (brotli 4). Encodings seen: ${encodings}.`,
      results,
    }),
  );
} finally {
  await browser.close();
  await plan.close();
}
