import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { z } from 'zod';

/** axe-core's browser bundle, from the root's node_modules (axe-core 4.14). */
export const AXE_SCRIPT_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The impacts that fail a page (docs/accessibility.md): minor and moderate ones are reported, not failed. */
export const FAILING_IMPACTS = ['serious', 'critical'] as const;

/** One axe violation, cut down to what a failure message needs. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** CSS selectors of (at most five of) the offending nodes, with their failure summary. */
  nodes: string[];
}

let source: string | undefined;
function axeSource(): string {
  source ??= readFileSync(AXE_SCRIPT_PATH, 'utf8');
  return source;
}

// axe's answer comes from the page, so it is read through a schema like any other untrusted input.
const resultsSchema = z.object({
  violations: z.array(
    z.object({
      id: z.string(),
      impact: z.string().nullish(),
      help: z.string(),
      nodes: z.array(
        z.object({ target: z.array(z.unknown()), failureSummary: z.string().nullish() }).loose(),
      ),
    }),
  ),
});

/**
 * Runs axe-core on the page as it is now, against WCAG 2.0/2.1/2.2 A and AA and axe's best practices,
 * and answers the violations whose impact is serious or critical. The script is evaluated through the
 * DevTools protocol rather than added with `addScriptTag`: the app's CSP (rightly) refuses inline scripts.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axeSource());
  const raw = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<unknown> } })
      .axe;
    return axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
      resultTypes: ['violations'],
    });
  });
  const { violations } = resultsSchema.parse(raw);
  return violations
    .filter((violation) => (FAILING_IMPACTS as readonly string[]).includes(violation.impact ?? ''))
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      nodes: violation.nodes
        .slice(0, 5)
        .map(
          (node) =>
            `${node.target.map(String).join(' ')} — ${(node.failureSummary ?? '').replace(/\s+/g, ' ')}`,
        ),
    }));
}
