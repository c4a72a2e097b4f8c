import type { EditorState } from '@tiptap/pm/state';

/** Where the selection head is, in the document's structure. */
export interface CursorContext {
  /** The section holding the selection head. */
  sectionUuid: string | null;
  /** The subsection holding the selection head. */
  subsectionUuid: string | null;
  /** In a sectionHeading or subsectionHeading (formatting disabled). */
  inHeading: boolean;
  /** In a finalized subsection (all formatting disabled). */
  inFinalized: boolean;
}

/** The {@link CursorContext} of a state: pure and cheap (walks only the ancestors of the head). */
export function cursorContext(state: EditorState): CursorContext {
  const $head = state.selection.$head;
  let sectionUuid: string | null = null;
  let subsectionUuid: string | null = null;
  let inHeading = false;
  let inFinalized = false;
  for (let depth = $head.depth; depth >= 0; depth--) {
    const node = $head.node(depth);
    const name = node.type.name;
    if (name === 'section') sectionUuid = stringAttr(node.attrs.uuid);
    else if (name === 'subsection') {
      subsectionUuid = stringAttr(node.attrs.uuid);
      inFinalized = node.attrs.finalized === true;
    } else if (name === 'sectionHeading' || name === 'subsectionHeading') inHeading = true;
  }
  return { sectionUuid, subsectionUuid, inHeading, inFinalized };
}

function stringAttr(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
