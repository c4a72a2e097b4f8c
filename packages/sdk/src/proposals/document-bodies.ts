import type {
  BlockJson,
  DocumentJson,
  SectionJson,
  SubsectionHeadingJson,
  SubsectionJson,
} from '../model/document-json.js';
import { defaultGenerateId, type GenerateId, isNodeId } from '../model/model-ids.js';

/** @internal A body of blocks: a section's own blocks, or a subsection's. */
export interface BodyPlace {
  sectionIndex: number;
  /** Index of the subsection in the section's `content`; null for the section's own blocks. */
  childIndex: number | null;
  sectionUuid: string;
  subsectionUuid: string | null;
  finalized: boolean;
}

/** @internal Where a block is: its body, and the path of indexes from the body down to it. */
export interface BlockPlace extends BodyPlace {
  path: number[];
}

/** @internal The blocks of a body. */
export function bodyBlocks(doc: DocumentJson, place: BodyPlace): BlockJson[] {
  const section = doc.content[place.sectionIndex] as SectionJson;
  if (place.childIndex !== null) {
    const subsection = section.content[place.childIndex] as SubsectionJson;
    return subsection.content.slice(1) as BlockJson[];
  }
  return section.content.slice(1).filter((child): child is BlockJson => child.type !== 'subsection');
}

/** @internal The subsection's heading (only for subsection bodies). */
export function bodyHeading(doc: DocumentJson, place: BodyPlace): SubsectionHeadingJson | undefined {
  if (place.childIndex === null) return undefined;
  const section = doc.content[place.sectionIndex] as SectionJson;
  return (section.content[place.childIndex] as SubsectionJson).content[0];
}

/** @internal A copy of `doc` with one body (and heading) replaced; other sections are shared. */
export function withBody(
  doc: DocumentJson,
  place: BodyPlace,
  blocks: BlockJson[],
  heading?: SubsectionHeadingJson,
): DocumentJson {
  const section = doc.content[place.sectionIndex] as SectionJson;
  let content: SectionJson['content'];
  if (place.childIndex !== null) {
    const subsection = section.content[place.childIndex] as SubsectionJson;
    const next: SubsectionJson = { ...subsection, content: [heading ?? subsection.content[0], ...blocks] };
    content = section.content.map((child, index) =>
      index === place.childIndex ? next : child,
    ) as SectionJson['content'];
  } else {
    const subsections = section.content.filter((child) => child.type === 'subsection');
    content = [section.content[0], ...blocks, ...subsections];
  }
  const nextSection: SectionJson = { ...section, content };
  return {
    ...doc,
    content: doc.content.map((current, index) => (index === place.sectionIndex ? nextSection : current)),
  };
}

/** @internal Every body of the document, in reading order. */
export function bodyPlaces(doc: DocumentJson): BodyPlace[] {
  const places: BodyPlace[] = [];
  doc.content.forEach((section, sectionIndex) => {
    places.push({
      sectionIndex,
      childIndex: null,
      sectionUuid: section.attrs.uuid,
      subsectionUuid: null,
      finalized: false,
    });
    section.content.forEach((child, childIndex) => {
      if (child.type !== 'subsection') return;
      places.push({
        sectionIndex,
        childIndex,
        sectionUuid: section.attrs.uuid,
        subsectionUuid: child.attrs.uuid,
        finalized: child.attrs.finalized === true,
      });
    });
  });
  return places;
}

/** @internal Finds a body by its section/subsection uuids. */
export function findBody(
  doc: DocumentJson,
  sectionUuid: string,
  subsectionUuid: string | null,
): BodyPlace | undefined {
  return bodyPlaces(doc).find(
    (place) => place.sectionUuid === sectionUuid && place.subsectionUuid === subsectionUuid,
  );
}

/** @internal The block with `nodeId` at any depth, or undefined. */
export function findBlock(doc: DocumentJson, nodeId: string): BlockPlace | undefined {
  for (const place of bodyPlaces(doc)) {
    const blocks = bodyBlocks(doc, place);
    for (let index = 0; index < blocks.length; index += 1) {
      const path = pathTo(blocks[index], nodeId, [index]);
      if (path !== undefined) return { ...place, path };
    }
  }
  return undefined;
}

/** @internal The node at `path` (as `findBlock` gives it) in a body. */
export function nodeAt(body: readonly unknown[], path: readonly number[]): unknown {
  let node: unknown = body[path[0] as number];
  for (const index of path.slice(1)) node = (node as { content?: unknown[] }).content?.[index];
  return node;
}

function pathTo(node: unknown, nodeId: string, path: number[]): number[] | undefined {
  const record = node as { attrs?: { nodeId?: unknown }; content?: unknown[] };
  if (record.attrs?.nodeId === nodeId) return path;
  const children = record.content;
  if (!Array.isArray(children)) return undefined;
  for (let index = 0; index < children.length; index += 1) {
    const found = pathTo(children[index], nodeId, [...path, index]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** @internal Adds every block `nodeId` inside `nodes` to `into`. */
export function collectNodeIds(nodes: readonly unknown[], into: Set<string>): Set<string> {
  const stack: unknown[] = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop() as { attrs?: { nodeId?: unknown }; content?: unknown[] };
    if (typeof node?.attrs?.nodeId === 'string') into.add(node.attrs.nodeId);
    if (Array.isArray(node?.content)) stack.push(...node.content);
  }
  return into;
}

/** @internal The top-level nodeIds of blocks (horizontal rules have none). */
export function topNodeIds(blocks: readonly BlockJson[]): string[] {
  const ids: string[] = [];
  for (const block of blocks)
    if ('attrs' in block && typeof block.attrs.nodeId === 'string') ids.push(block.attrs.nodeId);
  return ids;
}

/**
 * @internal Gives every block of `blocks` (owned, changed in place) an id nobody in `taken` holds: a
 * proposal may echo the ids of the blocks it rewrites (kept), never steal one from an untouched block.
 */
export function settleNodeIds(
  blocks: BlockJson[],
  taken: Set<string>,
  generateId: GenerateId = defaultGenerateId,
): void {
  const stack: unknown[] = [...blocks];
  while (stack.length > 0) {
    const node = stack.pop() as { attrs?: { nodeId?: unknown }; content?: unknown[] };
    if (node.attrs !== undefined && 'nodeId' in node.attrs) {
      const current = node.attrs.nodeId;
      if (typeof current === 'string' && !taken.has(current)) taken.add(current);
      else node.attrs.nodeId = freshNodeId(taken, generateId);
    }
    if (Array.isArray(node.content)) stack.push(...node.content);
  }
}

function freshNodeId(taken: Set<string>, generateId: GenerateId): string {
  for (let attempt = 0; attempt < 16; attempt += 1) {
    const id: unknown = generateId();
    if (isNodeId(id) && !taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
  throw new TypeError(
    'generateId returned 16 malformed or repeated ids in a row; it must return fresh UUIDs.',
  );
}
