import { Fragment, type Node as ProseMirrorNode, Slice } from '@tiptap/pm/model';
import type { EditorState } from '@tiptap/pm/state';
import type { TransformTarget } from './ai-actions.js';

/** An AI action's answer written as the partial edits a chat proposal would make (E43). */
export interface ActionProposal {
  readonly toolName: 'propose_partial_edits';
  readonly payload: {
    edits: {
      target_node_id: string;
      mode: 'replace' | 'delete';
      format?: 'tiptap_json';
      content?: unknown[];
    }[];
  };
}

const BLOCK_SEPARATOR = '\n\n';

function isBody(node: ProseMirrorNode): boolean {
  return node.type.name === 'section' || node.type.name === 'subsection';
}

/** The depth of the body block (a section's or subsection's direct child) holding a position. */
function bodyDepth(state: EditorState, pos: number): number | null {
  const $pos = state.doc.resolve(pos);
  for (let depth = $pos.depth; depth > 0; depth--) {
    if (isBody($pos.node(depth - 1))) return depth;
  }
  return null;
}

/** The text lines of an answer as paragraphs, as `replaceTransformTarget` has always written them. */
function answerSlice(state: EditorState, replacement: string): Slice | null {
  const { paragraph, hardBreak } = state.schema.nodes;
  if (!paragraph || !hardBreak) return null;
  const blocks = replacement
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((block) => {
      const content: ProseMirrorNode[] = [];
      block.split('\n').forEach((line, index) => {
        if (index > 0) content.push(hardBreak.create());
        if (line !== '') content.push(state.schema.text(line));
      });
      return paragraph.create(null, content);
    });
  // Open on both sides: the first and last lines join the blocks around the selection, as a paste does.
  return new Slice(Fragment.from(blocks), 1, 1);
}

/**
 * The answer of an AI action on `target` as a `propose_partial_edits` payload (E43): the body blocks the
 * selection touches are replaced by what they become with the answer in place of the selection (marks and
 * text around the selection kept), so the answer is reviewed in the text like any AI proposal and one accept is
 * one undo step. Null when the text there is no longer the target's, or the selection spans two bodies or a
 * block without a nodeId.
 */
export function actionProposal(
  state: EditorState,
  target: TransformTarget,
  replacement: string,
): ActionProposal | null {
  const { doc } = state;
  if (
    target.to > doc.content.size ||
    doc.textBetween(target.from, target.to, BLOCK_SEPARATOR, '\n') !== target.text
  ) {
    return null;
  }
  const fromDepth = bodyDepth(state, target.from);
  const toDepth = bodyDepth(state, target.to);
  if (fromDepth === null || toDepth === null) return null;
  const $from = doc.resolve(target.from);
  const $to = doc.resolve(target.to);
  const bodyStart = $from.start(fromDepth - 1);
  if (bodyStart !== $to.start(toDepth - 1)) return null;
  const body = $from.node(fromDepth - 1);
  const first = $from.index(fromDepth - 1);
  const last = $to.index(toDepth - 1);
  const slice = answerSlice(state, replacement);
  if (slice === null) return null;
  const tr = state.tr.replaceRange(target.from, target.to, slice);
  const newBody = tr.doc.resolve(tr.mapping.map(bodyStart)).parent;
  if (newBody.type !== body.type) return null;
  const newLast = last + (newBody.childCount - body.childCount);
  if (newLast < first) return null;
  const replaced: unknown[] = [];
  for (let index = first; index <= newLast; index++) replaced.push(newBody.child(index).toJSON());
  const edits: ActionProposal['payload']['edits'] = [];
  for (let index = first; index <= last; index++) {
    const nodeId: unknown = body.child(index).attrs.nodeId;
    if (typeof nodeId !== 'string' || nodeId === '') return null;
    edits.push(
      index === first
        ? { target_node_id: nodeId, mode: 'replace', format: 'tiptap_json', content: replaced }
        : { target_node_id: nodeId, mode: 'delete' },
    );
  }
  return { toolName: 'propose_partial_edits', payload: { edits } };
}
