import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * W2: the height that makes `ref`'s element end at the bottom of the viewport, from where it starts (under
 * the navbar and any banner above it). Kept right when the window resizes or something above changes size,
 * so the window never scrolls and the editor's canvas scrolls inside instead.
 */
export function useFillViewport(ref: RefObject<HTMLElement | null>): number | undefined {
  const [height, setHeight] = useState<number | undefined>(undefined);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const top = element.getBoundingClientRect().top + window.scrollY;
      const next = Math.max(0, Math.round(window.innerHeight - top));
      setHeight((current) => (current === next ? current : next));
    };
    measure();
    window.addEventListener('resize', measure);
    // A banner above that appears or goes moves the top: the body's size tells.
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(document.body);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [ref]);
  return height;
}
