#!/usr/bin/env node
// Where a keystroke's time goes in our editor: a V8 CPU profile of typing into the 200-page plan, with
// the web app built WITHOUT minification (Vite JS API, the app's own vite.config.ts, into a temporary
// directory served by the built server through PLANWRIGHT_WEB_DIR), so functions keep their names and
// every sample maps to its source module through the bundle's module comments. Not part of
// `npm run bench` (it prints a report, not a result line): run `node bench/editor-profile.mjs` when the
// keystroke target is missed. Native work (the browser's editing, style, layout, paint) shows as
// "(program)"; bench/editor-keystroke.mjs breaks that down by trace event.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as viteBuild } from 'vite';
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

const root = fileURLToPath(new URL('../', import.meta.url));
const KEYSTROKES = Number(process.env.BENCH_KEYSTROKES ?? 150);
const INTERVAL_MS = 100;
const TEXT = 'The pilot confirmed demand in three regions and the margin held at forty percent. ';
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const fixed = (n) => n.toFixed(2).padStart(7);

/**
 * The module spans of one unminified chunk, by 0-based line: Rolldown starts each module with a
 * `// <path>` line (older builds: `//#region <path>` … `//#endregion`); a span runs to the next one.
 */
function regionsOf(source) {
  const spans = [];
  source.split('\n').forEach((line, index) => {
    const start = /^\/\/(?:#region)? ?(\S+\/\S+\.(?:[cm]?js|jsx|tsx?))$/.exec(line);
    if (!start) return;
    if (spans.length) spans.at(-1).to = index - 1;
    spans.push({ module: start[1], from: index, to: Number.POSITIVE_INFINITY });
  });
  return spans;
}

/** Names each source module short: `src/editor/x.ts`, `prosemirror-view`, `@tiptap/core`, … */
function shortModule(path) {
  const packaged = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (packaged) return packaged[1];
  const own = /(packages\/[^/]+\/src\/.+|src\/.+)$/.exec(path);
  return own ? own[1] : path;
}

function moduleLocator(webDir, origin) {
  const cache = new Map();
  return (url, line) => {
    if (!url.startsWith(origin)) return url ? 'other script' : '';
    const path = new URL(url).pathname;
    if (!cache.has(path)) {
      let spans = [];
      try {
        spans = regionsOf(readFileSync(join(webDir, path), 'utf8'));
      } catch {}
      cache.set(path, spans);
    }
    const span = cache.get(path).find((s) => s.from <= line && line <= s.to);
    return span ? shortModule(span.module) : path;
  };
}

/** Self time by function and inclusive time by module, in ms per keystroke. */
function summarizeProfile(profile, locate, keystrokes) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map();
  const inclusive = new Map();
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000 / keystrokes;
    const node = nodes.get(id);
    const frame = node.callFrame;
    const module = locate(frame.url, frame.lineNumber);
    const key = `${frame.functionName || '(anonymous)'}${module ? `  [${module}]` : ''}`;
    if (frame.functionName !== '(idle)') self.set(key, (self.get(key) ?? 0) + dt);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const f = nodes.get(at).callFrame;
      const m = locate(f.url, f.lineNumber);
      if (m && !seen.has(m)) {
        seen.add(m);
        inclusive.set(m, (inclusive.get(m) ?? 0) + dt);
      }
    }
  });
  const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
  return { self: top(self, 25), inclusive: top(inclusive, 25) };
}

build();
const webDir = mkdtempSync(join(tmpdir(), 'planwright-bench-web-unminified-'));
await viteBuild({
  configFile: join(root, 'packages/web/vite.config.ts'),
  root: join(root, 'packages/web'),
  logLevel: 'warn',
  build: { outDir: webDir, emptyOutDir: true, minify: false, reportCompressedSize: false },
});
const plan = await startPlanServer({ webDir });
const browser = await launchChromium();
try {
  const storageState = await signedInState(browser, plan.url);
  const selection = middleSubsection(plan.document.content);
  const context = await browser.newContext({ storageState, viewport: VIEWPORT });
  const page = await context.newPage();
  await page.goto(`${plan.url}${editorPath(plan.document, selection)}`);
  const subsection = page.locator(`${EDITOR} [data-subsection-uuid="${selection.subsection}"]`);
  await subsection.waitFor();
  const paragraph = subsection.locator('p').nth(12);
  await paragraph.scrollIntoViewIfNeeded();
  const box = await paragraph.boundingBox();
  await delay(2000);
  await page.mouse.click(box.x + box.width / 2, box.y + Math.min(box.height / 2, 12));
  await page.keyboard.type(TEXT.slice(0, 10), { delay: INTERVAL_MS });

  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  for (let i = 0; i < KEYSTROKES; i++) {
    await page.keyboard.type(TEXT[i % TEXT.length]);
    await delay(INTERVAL_MS);
    if ((i + 1) % 60 === 0) await delay(1200);
  }
  const { profile } = await cdp.send('Profiler.stop');
  const { self, inclusive } = summarizeProfile(profile, moduleLocator(webDir, plan.url), KEYSTROKES);
  const lines = [
    `CPU profile of ${KEYSTROKES} keystrokes (${INTERVAL_MS} ms apart, a 1,200 ms pause every 60), ms per keystroke.`,
    '',
    'Self time by function [module]:',
    ...self.map(([name, ms]) => `${fixed(ms)}  ${name}`),
    '',
    'Inclusive time by module (a module counts once per sample):',
    ...inclusive.map(([name, ms]) => `${fixed(ms)}  ${name}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await context.close();
} finally {
  await browser.close();
  await plan.close();
  rmSync(webDir, { recursive: true, force: true });
}
