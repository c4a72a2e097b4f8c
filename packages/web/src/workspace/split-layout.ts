import { BLUEPRINT_WORKSPACE_TEXTS, CHAT_AREA_TEXTS } from './workspace-texts';

/** Spec 001 §9 "Document split" and "Split-pane defaults". */
export const SPLIT_DEFAULT_SIZES: readonly [number, number] = Object.freeze([65, 35]);
export const SPLIT_MIN_SIZE = 100;
export const SPLIT_GUTTER_SIZE = 10;
export const SPLIT_SNAP_OFFSET = 30;
/** The alternative layout: the chat panel this many pixels wide. */
export const CHAT_WIDE_PX = 500;

/** How a workspace's split behaves: the document's chat split, or the blueprint's settings split. */
export interface SplitSettings {
  /** Percentages of the editor column and the side panel. */
  defaultSizes: readonly [number, number];
  /** The least width of each pane, in pixels. */
  minSize: readonly [number, number];
  /** The side panel's width in the alternative layout the gutter's double-click gives; `null` for none. */
  widePx: number | null;
  /** The gutter's accessible name. */
  label: string;
}

/** Spec 001 §2, §9: the document editor's chat split (65/35, minimum 100, a 500 px alternative). */
export const DOCUMENT_SPLIT: SplitSettings = Object.freeze({
  defaultSizes: SPLIT_DEFAULT_SIZES,
  minSize: Object.freeze([SPLIT_MIN_SIZE, SPLIT_MIN_SIZE] as const),
  widePx: CHAT_WIDE_PX,
  label: CHAT_AREA_TEXTS.resize,
});

/** Spec 001 §2, §9: the blueprint editor's settings split (70/30, minimums 200 and 240). */
export const BLUEPRINT_SPLIT: SplitSettings = Object.freeze({
  defaultSizes: Object.freeze([70, 30] as const),
  minSize: Object.freeze([200, 240] as const),
  widePx: null,
  label: BLUEPRINT_WORKSPACE_TEXTS.resize,
});

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

/** The layout a split with `settings` starts with (and goes back to). */
export function defaultSplitLayout(settings: SplitSettings): SplitLayout {
  return settings === DOCUMENT_SPLIT
    ? DEFAULT_SPLIT_LAYOUT
    : { mode: 'default', sizes: settings.defaultSizes };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * The sizes that make the side panel `settings.widePx` (the chat's {@link CHAT_WIDE_PX}) wide in a split
 * `width` pixels wide. Split.js gives each pane `size% - gutter/2 px`, hence the half gutter. The editor keeps
 * at least its minimum size; an unknown width (nothing laid out yet) keeps the default.
 */
export function wideChatSizes(
  width: number,
  settings: SplitSettings = DOCUMENT_SPLIT,
): readonly [number, number] {
  if (!Number.isFinite(width) || width <= 0 || settings.widePx === null) return settings.defaultSizes;
  const half = SPLIT_GUTTER_SIZE / 2;
  const wanted = ((settings.widePx + half) / width) * 100;
  const most = 100 - ((settings.minSize[0] + half) / width) * 100;
  const chat = round(Math.max(0, Math.min(wanted, most)));
  return [round(100 - chat), chat];
}

/**
 * W2: a double-click on the gutter goes from the 500 px chat back to 65/35, and from anything else (the
 * default or a dragged split) to the 500 px chat. A split without a wide layout (the blueprint's) goes back
 * to its default.
 */
export function toggleSplitLayout(
  layout: SplitLayout,
  width: number,
  settings: SplitSettings = DOCUMENT_SPLIT,
): SplitLayout {
  if (layout.mode === 'wide' || settings.widePx === null) return defaultSplitLayout(settings);
  return { mode: 'wide', sizes: wideChatSizes(width, settings) };
}

/** W2: a drag keeps what the user made (sizes that do not sum to 100 are scaled, garbage ignored). */
export function draggedSplitLayout(layout: SplitLayout, sizes: readonly number[]): SplitLayout {
  const [editor, chat] = sizes;
  if (editor === undefined || chat === undefined || !(editor >= 0) || !(chat >= 0)) return layout;
  const total = editor + chat;
  if (total <= 0) return layout;
  return { mode: 'custom', sizes: [round((editor / total) * 100), round((chat / total) * 100)] };
}
