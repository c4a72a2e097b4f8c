import type { Node as ProseMirrorNode, ResolvedPos } from '@tiptap/pm/model';

/** The section or subsection heading node types: plain-text titles. */
export function isTitleNode(node: ProseMirrorNode): boolean {
  const name = node.type.name;
  return name === 'sectionHeading' || name === 'subsectionHeading';
}

/** Whether a node is a section or a subsection. */
export function isStructureNode(node: ProseMirrorNode): boolean {
  const name = node.type.name;
  return name === 'section' || name === 'subsection';
}

/** The depth of the innermost ancestor of `$pos` of that type, or -1. O(depth). */
export function ancestorDepth($pos: ResolvedPos, typeName: string): number {
  for (let depth = $pos.depth; depth > 0; depth--) {
    if ($pos.node(depth).type.name === typeName) return depth;
  }
  return -1;
}

/** Whether `$pos` lies inside the content of a finalized subsection. O(depth). */
export function isInFinalized($pos: ResolvedPos): boolean {
  for (let depth = $pos.depth; depth > 0; depth--) {
    const node = $pos.node(depth);
    if (node.type.name === 'subsection') return node.attrs.finalized === true;
  }
  return false;
}

/** Where a section or subsection with that uuid starts, and the node; null when there is none. */
export function findStructureNode(
  doc: ProseMirrorNode,
  uuid: string,
  typeName: 'section' | 'subsection',
): { pos: number; node: ProseMirrorNode } | null {
  const wanted = uuid.toLowerCase();
  let found: { pos: number; node: ProseMirrorNode } | null = null;
  // Sections are children of the doc and subsections of sections: two levels, never the blocks inside.
  doc.forEach((section, sectionOffset) => {
    if (found !== null || section.type.name !== 'section') return;
    if (typeName === 'section') {
      if (uuidOf(section) === wanted) found = { pos: sectionOffset, node: section };
      return;
    }
    section.forEach((child, childOffset) => {
      if (found === null && child.type.name === 'subsection' && uuidOf(child) === wanted) {
        found = { pos: sectionOffset + 1 + childOffset, node: child };
      }
    });
  });
  return found;
}

/** A section's or subsection's uuid, lowercased; null when it has none. */
export function uuidOf(node: ProseMirrorNode): string | null {
  const uuid: unknown = node.attrs.uuid;
  return typeof uuid === 'string' ? uuid.toLowerCase() : null;
}
