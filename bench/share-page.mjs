#!/usr/bin/env node
// The reader page of a share link (docs/versions.md "Share links") on a mid phone: first load in a fresh profile
// with Chromium throttled to 4× slower CPU and DevTools' "Fast 3G" network, Largest Contentful Paint and the
// bytes of JavaScript it loads. A finished plan of about 30 pages, and the 200-page benchmark plan.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, signUpVerified } from './accounts.mjs';
import { startBuiltServer } from './built-server.mjs';
import { generatePlan, planStats } from './editor-plan.mjs';
import { launchChromium } from './editor-setup.mjs';
import { summarize } from './stats.mjs';

const LCP_TARGET_MS = 2500;
const JS_TARGET_KIB = 150;
const RUNS = 7;
const PASSWORD = 'a-sturdy-benchmark-passphrase';
// DevTools' "Fast 3G" (Lighthouse's mobile throttling): 562.5 ms round trip, 1.44 Mbit/s down, 675 kbit/s up.
const FAST_3G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1.44 * 1024 * 1024) / 8,
  uploadThroughput: (675 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;
const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Mobile Safari/537.36',
};

/** Every subsection finalized, so the latest-finalized link shows the whole plan. */
function finalizedPlan(plan, { sections = Infinity, subsections = Infinity, blocks = Infinity } = {}) {
  return {
    type: 'doc',
    content: plan.content.slice(0, sections).map((section) => {
      const [heading, ...rest] = section.content;
      const kept = rest.filter((node) => node.type === 'subsection').slice(0, subsections);
      return {
        ...section,
        content: [
          heading,
          ...kept.map((subsection) => {
            const [subheading, ...body] = subsection.content;
            return {
              ...subsection,
              attrs: { ...subsection.attrs, finalized: true },
              content: [subheading, ...body.slice(0, blocks)],
            };
          }),
        ],
      };
    }),
  };
}

/** One cold first load of `url` on the phone profile: LCP, script and total bytes. */
async function firstLoad(browser, url) {
  const context = await browser.newContext(PHONE);
  try {
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.__lcp = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__lcp = entry.startTime;
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const types = new Map();
    let scriptBytes = 0;
    let totalBytes = 0;
    cdp.on('Network.responseReceived', (event) => types.set(event.requestId, event.type));
    cdp.on('Network.loadingFinished', (event) => {
      totalBytes += event.encodedDataLength;
      if (types.get(event.requestId) === 'Script') scriptBytes += event.encodedDataLength;
    });
    const response = await page.goto(url, { waitUntil: 'load' });
    if (response?.status() !== 200) throw new Error(`the share page answered ${response?.status()}`);
    // LCP is final once the page is loaded and a frame has painted after it.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    const lcp = await page.evaluate(() => window.__lcp);
    return { lcp, scriptKiB: scriptBytes / 1024, totalKiB: totalBytes / 1024 };
  } finally {
    await context.close();
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'planwright-bench-share-'));
const server = await startBuiltServer(dataDir);
const browser = await launchChromium();
try {
  const api = `${server.url}/api/v1`;
  const email = 'bench-share@example.com';
  await signUpVerified(server.url, dataDir, email, PASSWORD);
  const login = await json(`${server.url}/_allauth/app/v1/auth/login`, {
    method: 'POST',
    body: { email, password: PASSWORD },
  });
  const auth = { 'x-session-token': login.body.meta.session_token };

  const cases = [];
  for (const [name, cut] of [
    ['a finished plan of about 30 pages', { subsections: 3, blocks: 5 }],
    ['the 200-page plan', {}],
  ]) {
    const created = await json(`${api}/documents/`, {
      method: 'POST',
      headers: auth,
      body: { title: 'Bakery plan' },
    });
    const content = finalizedPlan(generatePlan(created.body.content), cut);
    const saved = await json(`${api}/documents/${created.body.uuid}/`, {
      method: 'PATCH',
      headers: auth,
      body: { content },
    });
    if (saved.status !== 200) throw new Error(`saving the plan answered ${saved.status}`);
    const link = await json(`${api}/documents/${created.body.uuid}/share-links/`, {
      method: 'POST',
      headers: auth,
      body: { allow_download: true },
    });
    const url = link.body.url.replace(/^https?:\/\/[^/]+/, server.url);
    const loads = [];
    for (let i = 0; i < RUNS; i++) loads.push(await firstLoad(browser, url));
    const stats = planStats(content);
    cases.push({ name, stats, loads });
    console.log(
      `${name}: LCP median ${summarize(loads.map((load) => load.lcp)).median} ms, JS ${loads[0].scriptKiB.toFixed(1)} KiB, total ${loads[0].totalKiB.toFixed(0)} KiB`,
    );
  }

  const results = cases.flatMap(({ name, loads }) => {
    const lcp = summarize(loads.map((load) => Math.round(load.lcp)));
    const js = Math.max(...loads.map((load) => load.scriptKiB));
    const total = Math.max(...loads.map((load) => load.totalKiB));
    return [
      {
        name: `LCP, ${name}`,
        unit: 'ms',
        ...lcp,
        target: `≤ ${LCP_TARGET_MS} ms (median)`,
        pass: lcp.median <= LCP_TARGET_MS,
      },
      {
        name: `JavaScript loaded, ${name}`,
        unit: 'KiB',
        value: Number(js.toFixed(1)),
        target: `≤ ${JS_TARGET_KIB} KiB`,
        pass: js <= JS_TARGET_KIB,
      },
      {
        name: `All bytes transferred, ${name}`,
        unit: 'KiB',
        value: Math.round(total),
        target: 'reported',
        pass: null,
      },
    ];
  });
  console.log(
    JSON.stringify({
      bench: 'share-page',
      title: 'Share link reader page: first load on a throttled phone',
      method: `The built server on the embedded database; a latest-finalized share link to a plan with every subsection finalized. Each load in a fresh Chromium profile (Debian /usr/bin/chromium, headless) with a 390×844 phone viewport at 3×, the cache disabled, DevTools "Fast 3G" (562.5 ms RTT, 1.44 Mbit/s down) and the CPU throttled ${CPU_SLOWDOWN}×; LCP from the page's largest-contentful-paint entries once loaded; bytes from the DevTools protocol (encoded, as sent). ${RUNS} loads per plan.`,
      results,
      notes: cases
        .map(({ name, stats }) => `${name}: ${stats.blocks} blocks, ${stats.words} words.`)
        .join(' '),
    }),
  );
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
