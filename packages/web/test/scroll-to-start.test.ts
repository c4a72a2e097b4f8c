import { afterEach, describe, expect, it, vi } from 'vitest';
import { scrollToStart } from '../src/ui/scroll-to-start.js';

/** A box whose top is `top` pixels below the viewport's top. */
function placeAt(element: HTMLElement, top: number): void {
  element.getBoundingClientRect = () => ({ top, bottom: top + 10 }) as DOMRect;
}

function scrollable(element: HTMLElement, { scrollTop }: { scrollTop: number }): void {
  element.style.overflowY = 'auto';
  Object.defineProperty(element, 'scrollHeight', { value: 5_000 });
  Object.defineProperty(element, 'clientHeight', { value: 500 });
  element.scrollTop = scrollTop;
}

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

describe('scrollToStart', () => {
  it("scrolls the nearest scrolling ancestor so the element's top (less its scroll margin) is at the top", () => {
    const scroller = document.createElement('div');
    const wrapper = document.createElement('div');
    const target = document.createElement('div');
    wrapper.append(target);
    scroller.append(wrapper);
    document.body.append(scroller);
    scrollable(scroller, { scrollTop: 300 });
    placeAt(scroller, 100);
    placeAt(target, 900);
    target.style.scrollMarginTop = '16px';
    const scrollTo = vi.fn();
    scroller.scrollTo = scrollTo;
    const scrollIntoView = vi.fn();
    target.scrollIntoView = scrollIntoView;

    scrollToStart(target);

    expect(scrollTo).toHaveBeenCalledWith({ top: 300 + 900 - 16 - 100 });
    // Chromium 150 moves the keyboard's starting point on scrollIntoView (docs/accessibility.md A9).
    expect(scrollIntoView).not.toHaveBeenCalled();
  });

  it('skips ancestors whose content fits, and scrolls the page when none scrolls', () => {
    const roomy = document.createElement('div');
    roomy.style.overflowY = 'auto';
    const target = document.createElement('div');
    roomy.append(target);
    document.body.append(roomy);
    placeAt(target, 700);
    const pageScroll = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);

    scrollToStart(target);

    expect(pageScroll).toHaveBeenCalledWith({ top: window.scrollY + 700 });
  });
});
