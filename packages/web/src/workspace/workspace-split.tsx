import { type ReactNode, useEffect, useRef, useState } from 'react';
import Split from 'react-split';
import {
  DOCUMENT_SPLIT,
  defaultSplitLayout,
  draggedSplitLayout,
  SPLIT_GUTTER_SIZE,
  SPLIT_SNAP_OFFSET,
  type SplitLayout,
  type SplitSettings,
  toggleSplitLayout,
} from './split-layout';

/** How far an arrow key moves the gutter, in percent. */
const KEY_STEP = 2;

/**
 * W2: the editor column and the chat panel side by side (react-split): 65/35, minimum 100 px, a 10 px gutter
 * that snaps within 30 px. Double-clicking the gutter (or Enter on it) toggles a 500 px chat panel and back;
 * arrow keys move it. The gutter is a focusable separator named "Resize chat panel". B2: the blueprint's
 * settings panel is 70/30 with minimums 200 and 240 px, and the double-click resets it.
 */
export function WorkspaceSplit({
  editor,
  chat,
  settings = DOCUMENT_SPLIT,
}: {
  editor: ReactNode;
  /** The side panel: the chat, or the blueprint's settings. */
  chat: ReactNode;
  settings?: SplitSettings;
}) {
  const [layout, setLayout] = useState<SplitLayout>(() => defaultSplitLayout(settings));
  const gutterRef = useRef<HTMLElement | null>(null);
  const layoutRef = useRef(layout);
  layoutRef.current = layout;

  useEffect(() => {
    const gutter = gutterRef.current;
    if (!gutter) return;
    gutter.setAttribute('aria-valuenow', String(Math.round(layout.sizes[0])));
  }, [layout]);

  // Split.js makes the gutter once, outside React: its handlers read the latest layout through a ref.
  const [makeGutter] = useState(() => () => {
    const gutter = document.createElement('div');
    gutter.className =
      'gutter gutter-horizontal shrink-0 cursor-col-resize bg-base-300 hover:bg-primary/40 focus-visible:bg-primary/60 focus-visible:outline-none';
    gutter.setAttribute('role', 'separator');
    gutter.setAttribute('aria-orientation', 'vertical');
    gutter.setAttribute('aria-label', settings.label);
    gutter.setAttribute('aria-valuemin', '0');
    gutter.setAttribute('aria-valuemax', '100');
    gutter.setAttribute('aria-valuenow', String(settings.defaultSizes[0]));
    gutter.tabIndex = 0;
    const width = () => gutter.parentElement?.getBoundingClientRect().width ?? 0;
    gutter.addEventListener('dblclick', () =>
      setLayout((current) => toggleSplitLayout(current, width(), settings)),
    );
    gutter.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        setLayout((current) => toggleSplitLayout(current, width(), settings));
      } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        event.preventDefault();
        const step = event.key === 'ArrowLeft' ? -KEY_STEP : KEY_STEP;
        const [left] = layoutRef.current.sizes;
        const next = Math.min(95, Math.max(5, left + step));
        setLayout((current) => draggedSplitLayout(current, [next, 100 - next]));
      }
    });
    gutterRef.current = gutter;
    return gutter;
  });

  return (
    <Split
      className="flex h-full min-h-0 min-w-0 flex-1"
      sizes={[...layout.sizes]}
      minSize={[...settings.minSize]}
      gutterSize={SPLIT_GUTTER_SIZE}
      snapOffset={SPLIT_SNAP_OFFSET}
      direction="horizontal"
      gutter={makeGutter}
      onDragEnd={(sizes) => setLayout((current) => draggedSplitLayout(current, sizes))}
    >
      <div className="flex min-h-0 min-w-0 flex-col">{editor}</div>
      <div className="min-h-0 min-w-0 border-l border-base-300">{chat}</div>
    </Split>
  );
}
