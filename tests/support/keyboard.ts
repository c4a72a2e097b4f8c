import type { Locator, Page } from 'playwright-core';

/** How many presses a keyboard walk may take before the target counts as unreachable. */
export const MAX_PRESSES = 200;

/** Whether the element has the focus, or holds the element that has it. */
export function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element.contains(document.activeElement));
}

/**
 * Presses `key` until `target` has the focus (at most {@link MAX_PRESSES}): it must be reachable so. `exact`:
 * the element itself, not a control inside it (the editor's text, not a button drawn on its canvas).
 * Answers how many presses it took.
 */
export async function pressUntilFocused(
  page: Page,
  key: string,
  target: Locator,
  exact = false,
): Promise<number> {
  await target.waitFor();
  // One handle for the walk: resolving the locator on every press would double its cost.
  const element = await target.elementHandle();
  if (element === null) throw new Error(`${target} is not on the page`);
  try {
    for (let presses = 0; presses < MAX_PRESSES; presses += 1) {
      const reached = await element.evaluate(
        (node, whole) => (whole ? node === document.activeElement : node.contains(document.activeElement)),
        exact,
      );
      if (reached) return presses;
      await page.keyboard.press(key);
    }
  } finally {
    await element.dispose();
  }
  throw new Error(`${target} is not reachable with ${key}`);
}
