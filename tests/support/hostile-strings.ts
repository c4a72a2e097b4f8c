import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { z } from 'zod';
import { corpusPath } from './corpus.js';

/** Every string of the corpus's Big List of Naughty Strings (`hostile-strings/blns.json`, 515 strings). */
export function hostileStrings(): string[] {
  const raw: unknown = JSON.parse(readFileSync(corpusPath('hostile-strings/blns.json'), 'utf8'));
  return z.array(z.string()).parse(raw);
}

/** Payloads of our own that call the page hook rather than `alert`, so a run is named in the record. */
export const HOOK_PAYLOADS = [
  '<img src=x onerror="__pwned(\'img\')">',
  '<svg onload="__pwned(\'svg\')"></svg>',
  '<script>__pwned("script")</script>',
  '"><iframe srcdoc="<script>parent.__pwned(\'iframe\')</script>">',
  '<a href="javascript:__pwned(\'link\')">click</a>',
  '<details open ontoggle="__pwned(\'details\')">',
  '[md link](javascript:__pwned("md"))',
] as const;

/** Hostile link targets: every corpus string that names a script scheme, plus the hook's own. */
export function hostileHrefs(strings: readonly string[]): string[] {
  const fromAttributes = strings.flatMap((value) =>
    [...value.matchAll(/href="([^"]*)"/g)].map((match) => match[1] ?? ''),
  );
  const schemes = strings.filter((value) => /^\W*(java|vb)script:|^\s*data:/i.test(value));
  return [
    ...new Set([
      ...fromAttributes,
      ...schemes,
      'javascript:__pwned("href")',
      ' JaVaScRiPt:__pwned("href-case")',
      'data:text/html,<script>__pwned("data")</script>',
    ]),
  ].filter((href) => href !== '');
}

/** The strings a script could run from: markup, handlers, script schemes (the ones titles must carry). */
export function injectionStrings(strings: readonly string[]): string[] {
  return strings.filter((value) => /<|javascript:|on\w+=|alert\(/i.test(value));
}

/** Removes the control characters every text field refuses (they are checked by the fuzzing suite). */
export function withoutControls(value: string): string {
  return value.replace(/[\p{Cc}\p{Cs}]/gu, ' ');
}

/** Joins strings with a space into pieces of at most `max` code points (a longer string is cut). */
export function packed(strings: readonly string[], max: number): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const value of strings.map(withoutControls)) {
    const cut = [...value].slice(0, max).join('').trim();
    if (cut === '') continue;
    const next = current === '' ? cut : `${current} ${cut}`;
    if ([...next].length > max) {
      pieces.push(current);
      current = cut;
    } else {
      current = next;
    }
  }
  if (current !== '') pieces.push(current);
  return pieces;
}

/** What ran on a page that must run nothing of the data: hook calls, dialogs, CSP refusals, live markup. */
export interface ExecutionReport {
  hookCalls: string[];
  cspViolations: string[];
  /** Elements with an `on…` attribute or a script-scheme link, found in the page after it drew. */
  liveMarkup: string[];
}

/**
 * A script for `addInitScript`, run before any script of the app: `__pwned`, `alert`, `confirm`, `prompt` and
 * `print` record instead of acting, and every CSP refusal of a script is recorded (markup that reached the
 * DOM and was stopped only by the policy is a failure too).
 */
export function executionHookScript(): string {
  return `(() => {
    const calls = [];
    Object.defineProperty(window, '__pwnedCalls', { value: calls });
    const record = (name) => (...args) => { calls.push(name + ':' + args.map(String).join(',')); };
    window.__pwned = record('__pwned');
    for (const name of ['alert', 'confirm', 'prompt', 'print']) window[name] = record(name);
    const csp = [];
    Object.defineProperty(window, '__pwnedCsp', { value: csp });
    document.addEventListener('securitypolicyviolation', (event) => {
      // zod probes for eval with new Function (caught, harmless); hostile data never reaches eval.
      if (event.blockedURI === 'eval') return;
      csp.push(event.violatedDirective + ' ' + event.blockedURI + ' ' + (event.sample || ''));
    });
  })();`;
}

/** Reads what the hook recorded and looks for live markup in the page as drawn now. */
export async function executionReport(page: Page): Promise<ExecutionReport> {
  return page.evaluate(() => {
    const state = window as unknown as { __pwnedCalls?: string[]; __pwnedCsp?: string[] };
    const liveMarkup: string[] = [];
    for (const element of document.querySelectorAll('body *')) {
      for (const attribute of element.getAttributeNames()) {
        if (attribute.toLowerCase().startsWith('on')) liveMarkup.push(`${element.tagName} ${attribute}`);
      }
      const href =
        element.getAttribute('href') ?? element.getAttribute('src') ?? element.getAttribute('action');
      if (href !== null && /^\s*(javascript|vbscript|data):/i.test(href.replace(/[\p{Cc}\s]/gu, ''))) {
        liveMarkup.push(`${element.tagName} ${href}`);
      }
      if (['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED'].includes(element.tagName)) {
        liveMarkup.push(element.outerHTML.slice(0, 120));
      }
    }
    return {
      hookCalls: [...(state.__pwnedCalls ?? ['the hook is missing'])],
      cspViolations: [...(state.__pwnedCsp ?? [])],
      liveMarkup,
    };
  });
}
