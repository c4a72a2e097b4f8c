/**
 * Scrolls `element`'s nearest scrollable ancestor (else the page) so the element's top sits at the top of
 * the view, honouring its `scroll-margin-top`, like `scrollIntoView({ block: 'start' })`.
 *
 * Why not `scrollIntoView`: Chromium 150 moves the sequential focus navigation starting point to the
 * element it scrolls to, so after the editor revealed the opened subsection a keyboard user's first Tab
 * went to that subsection's Move buttons instead of "Skip to content" (docs/accessibility.md A9).
 * Setting a scroll position moves nothing but the view, in every browser.
 */
export function scrollToStart(element: HTMLElement): void {
  const scroller = scrollableAncestor(element);
  const view = element.ownerDocument.defaultView;
  const margin = Number.parseFloat(view?.getComputedStyle(element).scrollMarginTop ?? '') || 0;
  const elementTop = element.getBoundingClientRect().top - margin;
  if (scroller === null) {
    view?.scrollTo({ top: (view.scrollY ?? 0) + elementTop });
    return;
  }
  scroller.scrollTo({ top: scroller.scrollTop + elementTop - scroller.getBoundingClientRect().top });
}

/** The nearest ancestor whose content scrolls vertically, or null when only the page scrolls. */
function scrollableAncestor(element: HTMLElement): HTMLElement | null {
  const view = element.ownerDocument.defaultView;
  for (let node = element.parentElement; node !== null; node = node.parentElement) {
    if (node === element.ownerDocument.body || node === element.ownerDocument.documentElement) return null;
    const overflowY = view?.getComputedStyle(node).overflowY;
    if ((overflowY === 'auto' || overflowY === 'scroll') && node.scrollHeight > node.clientHeight)
      return node;
  }
  return null;
}
