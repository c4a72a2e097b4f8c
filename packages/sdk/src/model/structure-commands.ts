import {
  type BlockJson,
  type DocumentJson,
  NEW_SECTION_TITLE,
  NEW_SUBSECTION_TITLE,
  type SectionJson,
  type SubsectionJson,
} from './document-json.js';
import type { DocumentStructureError } from './document-structure-error.js';
import { jsonEqual } from './json-equal.js';
import { defaultGenerateId, type GenerateId, IdAllocator, isUuid } from './model-ids.js';
import { paragraphNode, sectionHeadingNode, subsectionHeadingNode } from './node-builders.js';
import { ownField, titleOf } from './node-text.js';
import { normalizeWith } from './normalize-document.js';

/** Why a structure command refused (model/SPEC.md M30). */
export type StructureFailureReason =
  /** No section (or subsection) with that uuid, or the anchor is not where it must be. */
  | 'not_found'
  /** Deleting the only section: a document keeps at least one. */
  | 'last_section'
  /** A `uuid` given for a new section or subsection is already used in the document. */
  | 'duplicate_uuid'
  /** A `uuid` given for a new section or subsection is not a UUID. */
  | 'invalid_uuid'
  /** An `order` that is not a finite number. */
  | 'invalid_order'
  /** A replacement section node that cannot be repaired into one section. */
  | 'invalid_content'
  /** A replacement section node whose `uuid` names another section. */
  | 'uuid_mismatch';

/**
 * The outcome of a structure command: a new document, or why nothing happened. Commands never change
 * their input and never half-apply. A command with nothing to do (a move at the edge, a blank or
 * unchanged title) answers `ok: true, changed: false` with the very same `doc` object.
 */
export type StructureResult<Extra extends object = object> =
  | ({ ok: true; doc: DocumentJson; changed: boolean } & Extra)
  | {
      ok: false;
      reason: StructureFailureReason;
      /** One sentence for logs and error bodies. */
      message: string;
      /** For `invalid_content`: what normalisation refused, with its path inside the section node. */
      error?: DocumentStructureError;
    };

/** Options of the commands that create ids. */
export interface StructureOptions {
  /** Makes ids for new sections, subsections and blocks. Defaults to `crypto.randomUUID()`. */
  generateId?: GenerateId;
}

/** Where a new section or subsection comes from, besides its position. */
export interface NewStructureOptions extends StructureOptions {
  /** The new node's uuid (a UUID not used in the document yet); generated when left out. */
  uuid?: string;
  /** Its title, trimmed; "New Section" / "New Subsection" when blank or left out. */
  title?: string | null;
  /** The blueprint section or subsection it was made from. */
  blueprintUuid?: string | null;
}

/** Options of {@link insertSubsection}. */
export interface InsertSubsectionOptions extends NewStructureOptions {
  /** Put it right after this subsection of the same section. */
  afterUuid?: string | null;
  /** Put it at this 1-based position among the section's subsections (clamped; wins over `afterUuid`). */
  order?: number | null;
}

/** Up or down by one place. */
export type MoveDirection = 'up' | 'down';

type Failure = Extract<StructureResult, { ok: false }>;

const MESSAGES: Record<StructureFailureReason, string> = {
  not_found: 'No such section or subsection in this document.',
  last_section: 'A document keeps at least one section.',
  duplicate_uuid: 'That uuid is already used in this document.',
  invalid_uuid: 'A section or subsection uuid must be a UUID.',
  invalid_order: 'The order must be a number.',
  invalid_content: 'The section content cannot be repaired.',
  uuid_mismatch: "The section node's uuid names another section.",
};

function fail(reason: StructureFailureReason, error?: DocumentStructureError): Failure {
  return error === undefined
    ? { ok: false, reason, message: MESSAGES[reason] }
    : { ok: false, reason, message: `${MESSAGES[reason]} ${error.message}`, error };
}

function unchanged(doc: DocumentJson): StructureResult {
  return { ok: true, doc, changed: false };
}

function changed(doc: DocumentJson): StructureResult {
  return { ok: true, doc, changed: true };
}

/** Lookups accept any case: the tree stores uuids lowercase (M11). */
function key(uuid: string): string {
  return uuid.toLowerCase();
}

/** A section split into its parts: heading, blocks, subsections. */
interface SectionParts {
  heading: SectionJson['content'][0];
  blocks: BlockJson[];
  subsections: SubsectionJson[];
}

function partsOf(section: SectionJson): SectionParts {
  const [heading, ...rest] = section.content;
  const blocks: BlockJson[] = [];
  const subsections: SubsectionJson[] = [];
  for (const child of rest) {
    if (child.type === 'subsection') subsections.push(child);
    else blocks.push(child);
  }
  return { heading, blocks, subsections };
}

function withParts(section: SectionJson, parts: SectionParts): SectionJson {
  return { ...section, content: [parts.heading, ...parts.blocks, ...parts.subsections] };
}

function withSection(doc: DocumentJson, index: number, section: SectionJson): DocumentJson {
  return { ...doc, content: doc.content.map((current, i) => (i === index ? section : current)) };
}

function findSection(doc: DocumentJson, uuid: string): number {
  const wanted = key(uuid);
  return doc.content.findIndex((section) => section.attrs.uuid === wanted);
}

interface SubsectionPlace {
  sectionIndex: number;
  parts: SectionParts;
  /** 0-based index among the section's subsections. */
  index: number;
}

function findSubsection(doc: DocumentJson, uuid: string): SubsectionPlace | undefined {
  const wanted = key(uuid);
  for (let sectionIndex = 0; sectionIndex < doc.content.length; sectionIndex += 1) {
    const section = doc.content[sectionIndex] as SectionJson;
    if (!section.content.some((child) => child.type === 'subsection' && child.attrs.uuid === wanted))
      continue;
    const parts = partsOf(section);
    return { sectionIndex, parts, index: parts.subsections.findIndex((sub) => sub.attrs.uuid === wanted) };
  }
  return undefined;
}

/** Every uuid and nodeId in a JSON tree, whatever the node. */
function collectIds(nodes: readonly unknown[], uuids: Set<string>, nodeIds: Set<string>): void {
  for (const node of nodes) {
    const attrs = ownField(node, 'attrs');
    const uuid = ownField(attrs, 'uuid');
    const nodeId = ownField(attrs, 'nodeId');
    if (typeof uuid === 'string') uuids.add(uuid);
    if (typeof nodeId === 'string') nodeIds.add(nodeId);
    const content = ownField(node, 'content');
    if (Array.isArray(content)) collectIds(content, uuids, nodeIds);
  }
}

function idsOf(nodes: readonly unknown[]): { uuids: Set<string>; nodeIds: Set<string> } {
  const ids = { uuids: new Set<string>(), nodeIds: new Set<string>() };
  collectIds(nodes, ids.uuids, ids.nodeIds);
  return ids;
}

/** Resolves the uuid of a new node: the given one when it is a free UUID, else a fresh one. */
function newUuid(
  doc: DocumentJson,
  options: NewStructureOptions,
): { uuid: string; nodeId: string } | 'invalid_uuid' | 'duplicate_uuid' {
  const { uuids, nodeIds } = idsOf(doc.content);
  const generateId = options.generateId ?? defaultGenerateId;
  const uuidAllocator = new IdAllocator(generateId);
  for (const taken of uuids) uuidAllocator.claim(taken);
  const nodeIdAllocator = new IdAllocator(generateId);
  for (const taken of nodeIds) nodeIdAllocator.claim(taken);
  let uuid: string;
  if (options.uuid === undefined) {
    uuid = uuidAllocator.newUuid();
  } else {
    if (!isUuid(options.uuid)) return 'invalid_uuid';
    uuid = key(options.uuid);
    if (!uuidAllocator.claim(uuid)) return 'duplicate_uuid';
  }
  return { uuid, nodeId: nodeIdAllocator.newNodeId() };
}

function blueprintUuidOf(options: NewStructureOptions): string | null | 'invalid' {
  const value = options.blueprintUuid;
  if (value === undefined || value === null) return null;
  return isUuid(value) ? key(value) : 'invalid';
}

function titleFrom(title: string | null | undefined, fallback: string): string {
  const trimmed = title?.trim() ?? '';
  return trimmed === '' ? fallback : trimmed;
}

/** Clamps a 1-based order into 1…count; null for a value that is not a finite number. */
function clampOrder(order: number, count: number): number | null {
  if (typeof order !== 'number' || !Number.isFinite(order)) return null;
  return Math.min(Math.max(1, Math.trunc(order)), Math.max(1, count));
}

function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const moved = items.slice();
  const [item] = moved.splice(from, 1);
  moved.splice(to, 0, item as T);
  return moved;
}

/**
 * Inserts a new section (heading + one empty paragraph) right after the section `afterUuid`, or at the
 * end when `afterUuid` is null (M31). Answers the new section's `uuid`.
 */
export function insertSectionAfter(
  doc: DocumentJson,
  afterUuid: string | null,
  options: NewStructureOptions = {},
): StructureResult<{ uuid: string }> {
  const index = afterUuid === null ? doc.content.length - 1 : findSection(doc, afterUuid);
  if (index === -1) return fail('not_found');
  const blueprintUuid = blueprintUuidOf(options);
  if (blueprintUuid === 'invalid') return fail('invalid_uuid');
  const ids = newUuid(doc, options);
  if (typeof ids === 'string') return fail(ids);
  const section: SectionJson = {
    type: 'section',
    attrs: { uuid: ids.uuid, blueprint_uuid: blueprintUuid, id: null, model: null },
    content: [
      sectionHeadingNode(titleFrom(options.title, NEW_SECTION_TITLE)),
      paragraphNode([], 0, ids.nodeId),
    ],
  };
  const content = doc.content.slice();
  content.splice(index + 1, 0, section);
  return { ok: true, doc: { ...doc, content }, changed: true, uuid: ids.uuid };
}

/**
 * Inserts a new subsection (heading + one empty paragraph) into the section `sectionUuid`: at `order`
 * when given (1-based, clamped), else right after `afterUuid`, else last (M32). Answers its `uuid`.
 */
export function insertSubsection(
  doc: DocumentJson,
  sectionUuid: string,
  options: InsertSubsectionOptions = {},
): StructureResult<{ uuid: string }> {
  const sectionIndex = findSection(doc, sectionUuid);
  if (sectionIndex === -1) return fail('not_found');
  const section = doc.content[sectionIndex] as SectionJson;
  const parts = partsOf(section);
  let position = parts.subsections.length;
  if (options.order !== undefined && options.order !== null) {
    const order = clampOrder(options.order, parts.subsections.length + 1);
    if (order === null) return fail('invalid_order');
    position = order - 1;
  } else if (options.afterUuid !== undefined && options.afterUuid !== null) {
    const wanted = key(options.afterUuid);
    const after = parts.subsections.findIndex((sub) => sub.attrs.uuid === wanted);
    if (after === -1) return fail('not_found');
    position = after + 1;
  }
  const blueprintUuid = blueprintUuidOf(options);
  if (blueprintUuid === 'invalid') return fail('invalid_uuid');
  const ids = newUuid(doc, options);
  if (typeof ids === 'string') return fail(ids);
  const subsection: SubsectionJson = {
    type: 'subsection',
    attrs: { uuid: ids.uuid, blueprint_uuid: blueprintUuid, finalized: false },
    content: [
      subsectionHeadingNode(titleFrom(options.title, NEW_SUBSECTION_TITLE)),
      paragraphNode([], 0, ids.nodeId),
    ],
  };
  const subsections = parts.subsections.slice();
  subsections.splice(position, 0, subsection);
  const next = withSection(doc, sectionIndex, withParts(section, { ...parts, subsections }));
  return { ok: true, doc: next, changed: true, uuid: ids.uuid };
}

/** Sets a section's title (trimmed). A blank title changes nothing, silently (spec 001 §4, M33). */
export function renameSection(doc: DocumentJson, uuid: string, title: string): StructureResult {
  const index = findSection(doc, uuid);
  if (index === -1) return fail('not_found');
  const section = doc.content[index] as SectionJson;
  const trimmed = title.trim();
  if (trimmed === '' || titleOf(section, 'sectionHeading') === trimmed) return unchanged(doc);
  const parts = partsOf(section);
  return changed(
    withSection(doc, index, withParts(section, { ...parts, heading: sectionHeadingNode(trimmed) })),
  );
}

/** Sets a subsection's title (trimmed). A blank title changes nothing, silently (M33). */
export function renameSubsection(doc: DocumentJson, uuid: string, title: string): StructureResult {
  const place = findSubsection(doc, uuid);
  if (place === undefined) return fail('not_found');
  const subsection = place.parts.subsections[place.index] as SubsectionJson;
  const trimmed = title.trim();
  if (trimmed === '' || titleOf(subsection, 'subsectionHeading') === trimmed) return unchanged(doc);
  const [, ...blocks] = subsection.content;
  const renamed: SubsectionJson = { ...subsection, content: [subsectionHeadingNode(trimmed), ...blocks] };
  return replaceSubsectionAt(doc, place, renamed);
}

function replaceSubsectionAt(
  doc: DocumentJson,
  place: SubsectionPlace,
  subsection: SubsectionJson,
): StructureResult {
  const section = doc.content[place.sectionIndex] as SectionJson;
  const subsections = place.parts.subsections.map((sub, i) => (i === place.index ? subsection : sub));
  return changed(withSection(doc, place.sectionIndex, withParts(section, { ...place.parts, subsections })));
}

/** Moves a section to a 1-based position, clamped to the list (M35). */
export function moveSectionTo(doc: DocumentJson, uuid: string, order: number): StructureResult {
  const index = findSection(doc, uuid);
  if (index === -1) return fail('not_found');
  const target = clampOrder(order, doc.content.length);
  if (target === null) return fail('invalid_order');
  if (target - 1 === index) return unchanged(doc);
  return changed({ ...doc, content: moveItem(doc.content, index, target - 1) });
}

/** Swaps a section with its neighbour; at the edge of the list nothing happens (spec 001 §4, M34). */
export function moveSection(doc: DocumentJson, uuid: string, direction: MoveDirection): StructureResult {
  const index = findSection(doc, uuid);
  if (index === -1) return fail('not_found');
  return moveSectionTo(doc, uuid, index + 1 + (direction === 'up' ? -1 : 1));
}

/** Moves a subsection to a 1-based position among its section's subsections, clamped (M35). */
export function moveSubsectionTo(doc: DocumentJson, uuid: string, order: number): StructureResult {
  const place = findSubsection(doc, uuid);
  if (place === undefined) return fail('not_found');
  const target = clampOrder(order, place.parts.subsections.length);
  if (target === null) return fail('invalid_order');
  if (target - 1 === place.index) return unchanged(doc);
  const section = doc.content[place.sectionIndex] as SectionJson;
  const subsections = moveItem(place.parts.subsections, place.index, target - 1);
  return changed(withSection(doc, place.sectionIndex, withParts(section, { ...place.parts, subsections })));
}

/** Swaps a subsection with its neighbour inside its section; first-up and last-down do nothing (M34). */
export function moveSubsection(doc: DocumentJson, uuid: string, direction: MoveDirection): StructureResult {
  const place = findSubsection(doc, uuid);
  if (place === undefined) return fail('not_found');
  return moveSubsectionTo(doc, uuid, place.index + 1 + (direction === 'up' ? -1 : 1));
}

/** Removes a section with everything in it; refused for the only section (spec 001 §4, M36). */
export function deleteSection(doc: DocumentJson, uuid: string): StructureResult {
  const index = findSection(doc, uuid);
  if (index === -1) return fail('not_found');
  if (doc.content.length === 1) return fail('last_section');
  return changed({ ...doc, content: doc.content.filter((_, i) => i !== index) });
}

/** Removes a subsection with everything in it; a section may end up with none (M36). */
export function deleteSubsection(doc: DocumentJson, uuid: string): StructureResult {
  const place = findSubsection(doc, uuid);
  if (place === undefined) return fail('not_found');
  const section = doc.content[place.sectionIndex] as SectionJson;
  const subsections = place.parts.subsections.filter((_, i) => i !== place.index);
  return changed(withSection(doc, place.sectionIndex, withParts(section, { ...place.parts, subsections })));
}

/** Finalizes a subsection, or reopens it (spec 001 §4 "Subsection finalized", M37). */
export function setSubsectionFinalized(doc: DocumentJson, uuid: string, finalized: boolean): StructureResult {
  const place = findSubsection(doc, uuid);
  if (place === undefined) return fail('not_found');
  const subsection = place.parts.subsections[place.index] as SubsectionJson;
  if (subsection.attrs.finalized === finalized) return unchanged(doc);
  return replaceSubsectionAt(doc, place, { ...subsection, attrs: { ...subsection.attrs, finalized } });
}

/**
 * Replaces one section's node with `sectionNode` (from a request body or the editor: `unknown`), after
 * normalising it (M38). Its `uuid` must be the section's or missing; it must come out as exactly one
 * section; its subsections may not take uuids used elsewhere in the document. Block ids that clash
 * with the rest of the document are renewed inside the new section.
 */
export function replaceSectionContent(
  doc: DocumentJson,
  uuid: string,
  sectionNode: unknown,
  options: StructureOptions = {},
): StructureResult {
  const index = findSection(doc, uuid);
  if (index === -1) return fail('not_found');
  const sectionUuid = key(uuid);
  if (ownField(sectionNode, 'type') !== 'section') return fail('invalid_content');
  const attrs = ownField(sectionNode, 'attrs');
  const givenUuid = ownField(attrs, 'uuid');
  if (givenUuid !== undefined && givenUuid !== null) {
    if (typeof givenUuid !== 'string' || key(givenUuid) !== sectionUuid) return fail('uuid_mismatch');
  }
  const others = idsOf(doc.content.filter((_, i) => i !== index));
  const patched = {
    ...(sectionNode as Record<string, unknown>),
    attrs: { ...(typeof attrs === 'object' && attrs !== null ? attrs : {}), uuid: sectionUuid },
  };
  const result = normalizeWith(
    { type: 'doc', content: [patched] },
    { generateId: options.generateId, reservedNodeIds: others.nodeIds },
  );
  if (!result.ok) return fail('invalid_content', result.error);
  const [section, ...extra] = result.doc.content;
  if (section === undefined || extra.length > 0) return fail('invalid_content');
  const ownUuids = idsOf(section.content).uuids;
  for (const taken of ownUuids) if (others.uuids.has(taken)) return fail('duplicate_uuid');
  if (jsonEqual(section, doc.content[index])) return unchanged(doc);
  return changed(withSection(doc, index, section));
}
