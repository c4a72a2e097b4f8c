#!/usr/bin/env node
// Time from pressing Enter on a chat message to the first streamed character on screen, in headless Chromium
// (the web app's chat panel) and in a pseudo-terminal (the CLI's Ink chat screen), both against the built
// server whose openai-compatible provider streams from the local model server of tests/support. The model
// answers at once, so the figure is our own path: socket, turn set-up (context assembly, database writes),
// the provider call, the relay and the client's rendering. Method: the `method` string below.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOpenAiStreamServer } from '../tests/support/openai-stream-server.mjs';
import {
  EDITOR,
  editorPath,
  launchChromium,
  signedInState,
  startPlanServer,
  VIEWPORT,
} from './editor-setup.mjs';
import { summarize } from './stats.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const ROUNDS = Number(process.env.BENCH_CHAT_ROUNDS ?? 30);
const WARMUP = 3;
const ANSWER = ['Firstword ', 'and ', 'the ', 'rest ', 'of ', 'a ', 'short ', 'answer.'];
/** Targets: the relay's own first frame is ~13 ms (chat-relay); a person sees under 100 ms as instant. */
const TARGET_BROWSER_MS = 100;
const TARGET_CLI_MS = 100;

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (n) => Math.round(n * 10) / 10;

/**
 * In-page probe, installed before the app: a capture-phase keydown on window notes Enter in the chat's
 * textarea; a MutationObserver notices the first character of the new AI message; the end is taken in a
 * message posted from the next animation frame, once that frame's layout and paint are done.
 */
function firstCharacterProbe() {
  const samples = [];
  let start = null;
  let before = 0;
  const aiMessages = () => document.querySelectorAll('[data-testid="chat-message"][data-role="ai"]');
  window.addEventListener(
    'keydown',
    (event) => {
      const target = event.target;
      if (event.key !== 'Enter' || event.shiftKey) return;
      if (!(target instanceof HTMLTextAreaElement) || target.getAttribute('aria-label') !== 'Message') return;
      start = performance.now();
      before = aiMessages().length;
    },
    true,
  );
  const channel = new MessageChannel();
  let seenAt = null;
  channel.port1.onmessage = () => {
    if (seenAt === null) return;
    samples.push(performance.now() - seenAt.start);
    seenAt = null;
  };
  new MutationObserver(() => {
    if (start === null) return;
    const list = aiMessages();
    const fresh = list.length > before ? list[list.length - 1] : null;
    if (!fresh || (fresh.textContent ?? '').trim() === '') return;
    seenAt = { start };
    start = null;
    requestAnimationFrame(() => channel.port2.postMessage(null));
  }).observe(document, { subtree: true, childList: true, characterData: true });
  Object.defineProperty(window, '__firstCharacter', { value: samples });
}

/**
 * In-page probe for a proposal: Enter in the chat's textarea, then the first inserted character of an AI
 * suggestion drawn in the canvas (the proposal's arguments streaming into the text, before it is complete).
 */
function firstSuggestionProbe() {
  const samples = [];
  let start = null;
  window.addEventListener(
    'keydown',
    (event) => {
      const target = event.target;
      if (event.key !== 'Enter' || event.shiftKey) return;
      if (!(target instanceof HTMLTextAreaElement) || target.getAttribute('aria-label') !== 'Message') return;
      start = performance.now();
    },
    true,
  );
  const channel = new MessageChannel();
  let seenAt = null;
  channel.port1.onmessage = () => {
    if (seenAt === null) return;
    samples.push(performance.now() - seenAt.start);
    seenAt = null;
  };
  new MutationObserver(() => {
    if (start === null) return;
    const drawn = document.querySelector(
      '.pw-editor .pw-suggestion-ins, .pw-editor .pw-suggestion-ins-block',
    );
    if (!drawn || (drawn.textContent ?? '').trim() === '') return;
    seenAt = { start };
    start = null;
    requestAnimationFrame(() => channel.port2.postMessage(null));
  }).observe(document, { subtree: true, childList: true, characterData: true });
  Object.defineProperty(window, '__firstSuggestion', { value: samples });
}

/** A proposal whose content the model writes in pieces, as a real model streams a tool call's arguments. */
function proposalAnswer(subsectionUuid, i) {
  return {
    type: 'answer',
    text: '',
    toolCalls: [
      {
        name: 'propose_full_subsection',
        pieces: 12,
        arguments: {
          subsection_uuid: subsectionUuid,
          format: 'markdown',
          content: `Draft ${i}: we bake sourdough every morning for the cafés of the neighbourhood, and deliver by bike.`,
        },
      },
    ],
  };
}

async function suggestionRounds(plan, model) {
  const subsection = plan.document.sections[0]?.subsections[0];
  if (!subsection) throw new Error('the plan has no subsection');
  const browser = await launchChromium();
  try {
    const storageState = await signedInState(browser, plan.url);
    const context = await browser.newContext({ viewport: VIEWPORT, storageState });
    const page = await context.newPage();
    await page.addInitScript(firstSuggestionProbe);
    await page.goto(`${plan.url}${editorPath(plan.document)}`);
    await page.locator(EDITOR).waitFor();
    const panel = page.getByRole('region', { name: 'AI chat' });
    await page.waitForFunction(
      () => document.querySelector('[aria-label="AI chat"]')?.getAttribute('data-status') === 'connected',
    );
    const input = panel.getByRole('textbox', { name: 'Message' });
    const bar = page.getByRole('toolbar', { name: 'AI suggestions' });
    for (let i = 0; i < WARMUP + ROUNDS; i++) {
      model.script(proposalAnswer(subsection.uuid, i));
      await input.fill(`Draft it ${i}`);
      await input.press('Enter');
      await page.waitForFunction((count) => window.__firstSuggestion.length >= count, i + 1);
      // The proposal is complete and decided before the next question: nothing drawn is left over.
      await bar.getByRole('button', { name: 'Reject', exact: true }).click({ timeout: 20_000 });
      await page.waitForFunction(() => document.querySelector('.pw-editor [data-suggestion]') === null);
      await page.waitForFunction(() => {
        const list = document.querySelectorAll('[data-testid="chat-message"][data-role="ai"]');
        const last = list[list.length - 1];
        return last?.getAttribute('data-partial') !== 'true';
      });
      await delay(50);
    }
    const samples = await page.evaluate(() => window.__firstSuggestion.slice());
    return samples.slice(WARMUP);
  } finally {
    await browser.close();
  }
}

async function browserRounds(plan) {
  const browser = await launchChromium();
  try {
    const storageState = await signedInState(browser, plan.url);
    const context = await browser.newContext({ viewport: VIEWPORT, storageState });
    const page = await context.newPage();
    await page.addInitScript(firstCharacterProbe);
    await page.goto(`${plan.url}${editorPath(plan.document)}`);
    await page.locator(EDITOR).waitFor();
    const panel = page.getByRole('region', { name: 'AI chat' });
    await page.waitForFunction(
      () => document.querySelector('[aria-label="AI chat"]')?.getAttribute('data-status') === 'connected',
    );
    const input = panel.getByRole('textbox', { name: 'Message' });
    for (let i = 0; i < WARMUP + ROUNDS; i++) {
      await input.fill(`Question ${i}`);
      await input.press('Enter');
      await page.waitForFunction((count) => window.__firstCharacter.length >= count, i + 1);
      // The answer ends before the next question (a message sent while one is owed is ignored).
      await page.waitForFunction(() => {
        const list = document.querySelectorAll('[data-testid="chat-message"][data-role="ai"]');
        const last = list[list.length - 1];
        return last && last.getAttribute('data-partial') !== 'true' && last.textContent?.includes('answer.');
      });
      await delay(50);
    }
    const samples = await page.evaluate(() => window.__firstCharacter.slice());
    return samples.slice(WARMUP);
  } finally {
    await browser.close();
  }
}

/**
 * The CLI's chat screen in a pseudo-terminal (`script`): waits for the screen's prompt, types a question,
 * and times Enter to the first byte of the answer's first word in the terminal's output.
 */
async function cliRounds(plan, model) {
  const home = mkdtempSync(join(tmpdir(), 'planwright-bench-cli-'));
  try {
    // A signed-in CLI: the session file the CLI's own login writes (docs/cli.md "Session file").
    const configDir = join(home, 'config');
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    const session = { token: plan.token, email: null, name: null, avatarUrl: null };
    writeFileSync(join(configDir, 'session.json'), JSON.stringify({ sessions: { [plan.url]: session } }), {
      mode: 0o600,
    });
    const env = {
      ...process.env,
      HOME: home,
      PLANWRIGHT_CONFIG_DIR: configDir,
      PLANWRIGHT_SERVER: plan.url,
      NO_COLOR: '1',
      TERM: 'xterm-256color',
    };
    const cli = join(root, 'packages/cli/dist/cli.js');
    const command = `stty cols 120 rows 40; exec ${process.execPath} ${cli} chat ${plan.document.uuid}`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let waiter = null;
    child.stdout.on('data', (chunk) => {
      output += chunk.toString('utf8');
      if (waiter && output.indexOf(waiter.text, waiter.from) !== -1) {
        const resolve = waiter.resolve;
        waiter = null;
        resolve(performance.now());
      }
    });
    const waitFor = (text, from = 0, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        if (output.indexOf(text, from) !== -1) return resolve(performance.now());
        const timer = setTimeout(
          () => reject(new Error(`the CLI never printed ${JSON.stringify(text)}:\n${output.slice(-2000)}`)),
          timeoutMs,
        );
        waiter = {
          text,
          from,
          resolve: (at) => {
            clearTimeout(timer);
            resolve(at);
          },
        };
      });
    await waitFor('connected');
    const samples = [];
    for (let i = 0; i < WARMUP + ROUNDS; i++) {
      // Ink redraws the whole screen, earlier answers included: each answer starts with a word of its own.
      const first = `Reply${i}x`;
      model.script({ type: 'answer', text: [`${first} `, ...ANSWER.slice(1)] });
      child.stdin.write(`Question ${i}`);
      await delay(30);
      const from = output.length;
      const start = performance.now();
      child.stdin.write('\r');
      const seen = await waitFor(first, from);
      samples.push(seen - start);
      await waitFor('answer.', from);
      await delay(50);
    }
    child.stdin.write('\u0003');
    child.kill('SIGTERM');
    return samples.slice(WARMUP);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const model = await startOpenAiStreamServer({ defaultAnswer: { type: 'answer', text: ANSWER } });
const plan = await startPlanServer({
  generate: false,
  env: model.providerEnv({ PLANWRIGHT_AI_MODEL: 'bench-model', PLANWRIGHT_AI_CALLS_PER_MINUTE: '100000' }),
});
let browser;
let cli;
let suggestion;
try {
  browser = summarize((await browserRounds(plan)).map(round));
  cli = summarize((await cliRounds(plan, model)).map(round));
  suggestion = summarize((await suggestionRounds(plan, model)).map(round));
} finally {
  await plan.close();
  await model.close();
}
const method =
  `${ROUNDS} messages each (after ${WARMUP} warm-up) to the default plan's document chat; the local model ` +
  `server answers at once with ${ANSWER.length} text deltas. Browser: headless Chromium, Enter in the chat ` +
  'textarea (a capture-phase keydown) to the frame painted after the first character of the new AI message ' +
  'appeared. CLI: `planwright chat` (the built CLI) in a pseudo-terminal made by `script`, Enter written to ' +
  "the terminal to the first output byte of the answer's first word (a word new in each answer). The relay's own part (the server's " +
  'first chunk → first frame) is the chat relay benchmark above. Suggestion: the model answers with a ' +
  '`propose_full_subsection` call whose arguments arrive in 12 pieces; Enter in the chat textarea to the frame ' +
  'painted after the first inserted character of the suggestion appeared in the canvas (the arguments still ' +
  'streaming); each round is rejected from the suggestion bar before the next.';
console.log(
  JSON.stringify({
    bench: 'chat-first-character',
    title: 'Chat: Enter to the first streamed character on screen (and in the text, as a suggestion)',
    method,
    results: [
      {
        name: 'browser (web chat panel)',
        unit: 'ms',
        ...browser,
        target: `≤ ${TARGET_BROWSER_MS} ms median`,
        pass: browser.median <= TARGET_BROWSER_MS,
      },
      {
        name: 'browser: first character of a suggestion in the text',
        unit: 'ms',
        ...suggestion,
        target: `≤ ${TARGET_BROWSER_MS} ms median`,
        pass: suggestion.median <= TARGET_BROWSER_MS,
      },
      {
        name: 'terminal (planwright chat)',
        unit: 'ms',
        ...cli,
        target: `≤ ${TARGET_CLI_MS} ms median`,
        pass: cli.median <= TARGET_CLI_MS,
      },
    ],
  }),
);
