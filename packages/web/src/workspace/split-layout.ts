/** Spec 001 §9 "Document split" and "Split-pane defaults". */
export const SPLIT_DEFAULT_SIZES: readonly [number, number] = Object.freeze([65, 35]);
export const SPLIT_MIN_SIZE = 100;
export const SPLIT_GUTTER_SIZE = 10;
export const SPLIT_SNAP_OFFSET = 30;
/** The alternative layout: the chat panel this many pixels wide. */
export const CHAT_WIDE_PX = 500;

/** Which layout the split shows: the default, the 500 px chat, or wherever the user dragged it. */
export type SplitMode = 'default' | 'wide' | 'custom';

export interface SplitLayout {
  mode: SplitMode;
  /** Percentages of the editor column and the chat panel, summing to 100. */
  sizes: readonly [number, number];
}

export const DEFAULT_SPLIT_LAYOUT: SplitLayout = Object.freeze({
  mode: 'default',
  sizes: SPLIT_DEFAULT_SIZES,
});

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * The sizes that make the chat panel {@link CHAT_WIDE_PX} wide in a split `width` pixels wide. Split.js
 * gives each pane `size% - gutter/2 px`, hence the half gutter. The editor keeps at least the minimum size;
 * an unknown width (nothing laid out yet) keeps the default.
 */
export function wideChatSizes(width: number): readonly [number, number] {
  if (!Number.isFinite(width) || width <= 0) return SPLIT_DEFAULT_SIZES;
  const half = SPLIT_GUTTER_SIZE / 2;
  const wanted = ((CHAT_WIDE_PX + half) / width) * 100;
  const most = 100 - ((SPLIT_MIN_SIZE + half) / width) * 100;
  const chat = round(Math.max(0, Math.min(wanted, most)));
  return [round(100 - chat), chat];
}

/**
 * W2: a double-click on the gutter goes from the 500 px chat back to 65/35, and from anything else (the
 * default or a dragged split) to the 500 px chat.
 */
export function toggleSplitLayout(layout: SplitLayout, width: number): SplitLayout {
  return layout.mode === 'wide' ? DEFAULT_SPLIT_LAYOUT : { mode: 'wide', sizes: wideChatSizes(width) };
}

/** W2: a drag keeps what the user made (sizes that do not sum to 100 are scaled, garbage ignored). */
export function draggedSplitLayout(layout: SplitLayout, sizes: readonly number[]): SplitLayout {
  const [editor, chat] = sizes;
  if (editor === undefined || chat === undefined || !(editor >= 0) || !(chat >= 0)) return layout;
  const total = editor + chat;
  if (total <= 0) return layout;
  return { mode: 'custom', sizes: [round((editor / total) * 100), round((chat / total) * 100)] };
}
