import type { DocumentJson } from '@planwright/sdk/model';
import type {
  ChatPromptMessage,
  ProviderInfo,
  ScopeBrief,
  ScopeSubsection,
} from '../providers/ai-provider.js';
import { instructionsText } from './context-instructions.js';
import {
  blocksToMarkdown,
  nodeIdOf,
  type PlanSection,
  type PlanSubsection,
  readPlan,
  sectionPlainText,
} from './plan-reader.js';
import { countTokens, decodeHead, encodeTokens, estimatePieces } from './token-count.js';

/** A section's or subsection's AI settings, as its row keeps them. */
export interface ContextSettings {
  developerPrompt: string;
  userHint: string;
}

/** What a chat is about: the whole plan, one section, or one subsection. */
export interface ContextScope {
  target: 'document' | 'section' | 'subsection';
  sectionUuid: string | null;
  subsectionUuid: string | null;
}

/** Everything one prompt is assembled from (CX1). */
export interface ContextInput {
  globalSystemPrompt: string;
  blueprint: { title: string; systemPrompt: string } | null;
  document: { uuid: string; title: string; content: DocumentJson };
  /** The settings of the document's section and subsection rows, by uuid. */
  settings: { sections: Map<string, ContextSettings>; subsections: Map<string, ContextSettings> };
  scope: ContextScope;
  /** Earlier messages of the chat, oldest first. */
  history: ChatPromptMessage[];
  /** The user's new message. */
  message: string;
  budgetTokens: number;
  provider: ProviderInfo;
  options: { webAccess: boolean; research: boolean };
}

/** The parts of a prompt, in the order they are sent (CX2). */
export const CONTEXT_PART_NAMES = [
  'global',
  'blueprint',
  'instructions',
  'scope_prompts',
  'outline',
  'section',
  'digest',
  'history',
  'message',
] as const;
export type ContextPartName = (typeof CONTEXT_PART_NAMES)[number];

/** One part of the assembled prompt, for the debug endpoint. */
export interface ContextPart {
  name: ContextPartName;
  tokens: number;
  truncated: boolean;
  text: string;
}

/** The assembled prompt (CX1). */
export interface AssembledContext {
  system: string;
  /** The kept history, then the new user message. */
  messages: ChatPromptMessage[];
  scope: ScopeBrief;
  parts: ContextPart[];
  /** Tokens of `system` plus those of every message (CX8). */
  totalTokens: number;
  budgetTokens: number;
  /** The parts that are never cut are bigger than the budget on their own (CX10). */
  overBudget: boolean;
}

/** A scope uuid the document does not have: the caller answers 404 or closes the socket. */
export class ContextScopeError extends Error {
  override name = 'ContextScopeError';
  constructor(
    readonly part: 'section' | 'subsection',
    readonly uuid: string | null,
  ) {
    super(uuid === null ? `A ${part} chat needs a ${part} uuid.` : `The document has no ${part} ${uuid}.`);
  }
}

/** The most of one section the digest shows (CX6). */
export const DIGEST_TOKENS_PER_SECTION = 120;
/** The digest never takes more than this share of the budget (CX6). */
export const DIGEST_BUDGET_SHARE = 0.25;
/** Rounds of estimate-then-verify before the last resort (CX9). */
const VERIFY_ROUNDS = 6;

const TRUNCATED_SECTION_NOTE = '[… the rest of this section is left out to fit the context budget …]';
const TRUNCATED_OUTLINE_NOTE = '[… the rest of the outline is left out to fit the context budget …]';

/** Titles go on one line: a line break in a title must not start a line of its own in the prompt. */
function oneLine(text: string, fallback: string): string {
  const flat = text.replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ').trim();
  return flat === '' ? fallback : flat;
}

function sectionTitle(section: PlanSection): string {
  return oneLine(section.title, 'Untitled Section');
}

function subsectionTitle(subsection: PlanSubsection): string {
  return oneLine(subsection.title, 'Untitled Subsection');
}

function finalizedCount(section: PlanSection): number {
  let count = 0;
  for (const subsection of section.subsections) if (subsection.finalized) count += 1;
  return count;
}

function progressNote(section: PlanSection): string {
  return `${finalizedCount(section)} of ${section.subsections.length} subsections finalized`;
}

/** The scope's section and subsection, or {@link ContextScopeError} (CX3). */
function resolveScope(
  plan: readonly PlanSection[],
  scope: ContextScope,
): { section: PlanSection | null; subsection: PlanSubsection | null } {
  if (scope.target === 'document') return { section: null, subsection: null };
  const sectionUuid = scope.sectionUuid?.toLowerCase() ?? null;
  if (scope.target === 'section') {
    const section = plan.find((candidate) => candidate.uuid === sectionUuid);
    if (!section) throw new ContextScopeError('section', scope.sectionUuid);
    return { section, subsection: null };
  }
  const subsectionUuid = scope.subsectionUuid?.toLowerCase() ?? null;
  for (const section of plan) {
    if (sectionUuid !== null && section.uuid !== sectionUuid) continue;
    const subsection = section.subsections.find((candidate) => candidate.uuid === subsectionUuid);
    if (subsection) return { section, subsection };
  }
  throw new ContextScopeError('subsection', scope.subsectionUuid);
}

const NO_SETTINGS: ContextSettings = { developerPrompt: '', userHint: '' };

function settingsOf(map: Map<string, ContextSettings>, uuid: string): ContextSettings {
  return map.get(uuid) ?? NO_SETTINGS;
}

function promptLines(label: string, settings: ContextSettings): string[] {
  const lines: string[] = [];
  if (settings.developerPrompt.trim() !== '') {
    lines.push(`Instructions for ${label}:\n${settings.developerPrompt.trim()}`);
  }
  if (settings.userHint.trim() !== '') {
    lines.push(`What the user was asked to write in ${label}:\n${settings.userHint.trim()}`);
  }
  return lines;
}

function scopePromptsText(
  input: ContextInput,
  section: PlanSection | null,
  subsection: PlanSubsection | null,
): string {
  if (!section) return '';
  const lines = promptLines(
    `the section "${sectionTitle(section)}"`,
    settingsOf(input.settings.sections, section.uuid),
  );
  const inScope = subsection ? [subsection] : section.subsections;
  for (const part of inScope) {
    lines.push(
      ...promptLines(
        `the subsection "${subsectionTitle(part)}"`,
        settingsOf(input.settings.subsections, part.uuid),
      ),
    );
  }
  return lines.length === 0 ? '' : `## Instructions for the part in scope\n${lines.join('\n\n')}`;
}

/**
 * How much of the outline is written (CX4, CX7): every subsection with its uuid; the other sections'
 * subsections by title only; or only the subsections of the section in scope.
 */
type OutlineDetail = 'full' | 'titles' | 'compact';

/** The outline's lines at one level of detail (CX4). */
function outlineLines(
  plan: readonly PlanSection[],
  inScope: PlanSection | null,
  detail: OutlineDetail,
): { header: string; lines: string[] } {
  let total = 0;
  let finalized = 0;
  for (const section of plan) {
    total += section.subsections.length;
    finalized += finalizedCount(section);
  }
  const header = `## Plan outline\nProgress: ${finalized} of ${total} subsections finalized.`;
  const lines: string[] = [];
  plan.forEach((section, index) => {
    const mark = section === inScope ? ' (in scope)' : '';
    lines.push(
      `${index + 1}. ${sectionTitle(section)} [section ${section.uuid}] — ${progressNote(section)}${mark}`,
    );
    const other = section !== inScope;
    if (detail === 'compact' && other) return;
    section.subsections.forEach((subsection, subIndex) => {
      const state = subsection.finalized ? 'finalized' : 'not finalized';
      const uuid = detail === 'titles' && other ? '' : ` [subsection ${subsection.uuid}]`;
      lines.push(`   ${index + 1}.${subIndex + 1} ${subsectionTitle(subsection)}${uuid} — ${state}`);
    });
  });
  return { header, lines };
}

/** One piece of the section text: a heading or a marked block. Only `body` is ever cut (CX5). */
interface Chunk {
  lead: string;
  body: string;
  tokens: number;
}

function chunk(lead: string, body: string): Chunk {
  return { lead, body, tokens: 0 };
}

function chunkText(part: Chunk): string {
  return part.body === '' ? part.lead : `${part.lead}\n${part.body}`;
}

function blockChunks(section: PlanSection | PlanSubsection): Chunk[] {
  return section.blocks.map((block) => {
    const id = nodeIdOf(block);
    const markdown = blocksToMarkdown([block]);
    const body = markdown === '' ? '(empty block)' : markdown;
    return chunk(id === null ? '[block without id]' : `[#${id}]`, body);
  });
}

/** The section in scope as marked Markdown, in chunks (CX5). */
function sectionChunks(section: PlanSection, subsectionInScope: PlanSubsection | null): Chunk[] {
  const chunks: Chunk[] = [
    chunk(
      '## The section in scope, in full\nEach block follows the line with its id marker (its targetNodeId); each subsection heading is followed by its subsection_uuid.',
      '',
    ),
    chunk(`# ${sectionTitle(section)}`, `[section ${section.uuid}; ${progressNote(section)}]`),
    ...blockChunks(section),
  ];
  for (const subsection of section.subsections) {
    const state = subsection.finalized ? 'finalized: do not change' : 'not finalized';
    const scopeMark = subsection === subsectionInScope ? '; in scope' : '';
    chunks.push(
      chunk(
        `## ${subsectionTitle(subsection)}`,
        `[subsection_uuid ${subsection.uuid}; ${state}${scopeMark}]`,
      ),
    );
    chunks.push(...blockChunks(subsection));
  }
  // Estimated together: one tokenizer call for the whole section (CX9).
  const estimates = estimatePieces(chunks.map(chunkText));
  chunks.forEach((part, index) => {
    part.tokens = (estimates[index] as number) + 1;
  });
  return chunks;
}

function chunksText(chunks: readonly Chunk[]): string {
  return chunks.map(chunkText).join('\n\n');
}

/** The chunks that fit in `limit` tokens, the last one cut inside its body, and a truncation note (CX5). */
function truncateChunks(chunks: readonly Chunk[], limit: number, noteTokens: number): Chunk[] {
  const kept: Chunk[] = [];
  let used = noteTokens;
  for (const part of chunks) {
    if (used + part.tokens <= limit) {
      kept.push(part);
      used += part.tokens;
      continue;
    }
    const room = limit - used - countTokens(part.lead) - 2;
    // Less than a sentence is not worth keeping.
    if (room >= 16 && part.body !== '') {
      const cut = decodeHead(encodeTokens(part.body), room);
      if (cut !== '') kept.push({ lead: part.lead, body: `${cut}…`, tokens: room + 2 });
    }
    break;
  }
  return kept;
}

/** One other section in the digest: a header line and its first words (CX6). */
interface DigestEntry {
  header: string;
  /** Plain text, enough characters for {@link DIGEST_TOKENS_PER_SECTION} tokens. */
  text: string;
  headerTokens: number;
  /** Estimated, at most {@link DIGEST_TOKENS_PER_SECTION}. */
  textTokens: number;
  /** The text's tokens, encoded when the entry is written. */
  encoded?: number[];
}

function digestEntries(plan: readonly PlanSection[], inScope: PlanSection | null): DigestEntry[] {
  const entries = plan
    .filter((section) => section !== inScope)
    .map(
      (section): DigestEntry => ({
        header: `- ${sectionTitle(section)} [section ${section.uuid}; ${progressNote(section)}]:`,
        // Plenty of characters for the tokens wanted, so no section is read further than that.
        text: sectionPlainText(section, DIGEST_TOKENS_PER_SECTION * 8),
        headerTokens: 0,
        textTokens: 0,
      }),
    );
  const headers = estimatePieces(entries.map((entry) => entry.header));
  const texts = estimatePieces(entries.map((entry) => entry.text));
  entries.forEach((entry, index) => {
    entry.headerTokens = (headers[index] as number) + 1;
    entry.textTokens = Math.min(DIGEST_TOKENS_PER_SECTION, texts[index] as number);
  });
  return entries;
}

const DIGEST_HEADER =
  '## The rest of the plan, in brief\nThe beginning of every other section (shortened; not for proposals: their blocks are not shown).';

function digestTokens(
  entries: readonly DigestEntry[],
  cap: number,
  count: number,
  headerTokens: number,
): number {
  if (count === 0) return 0;
  let total = headerTokens;
  for (let index = 0; index < count; index += 1) {
    const entry = entries[index] as DigestEntry;
    total += entry.headerTokens + Math.min(cap, entry.textTokens) + 1;
  }
  return total;
}

function digestText(entries: readonly DigestEntry[], cap: number, count: number): string {
  if (count === 0) return '';
  const lines = [DIGEST_HEADER];
  for (let index = 0; index < count; index += 1) {
    const entry = entries[index] as DigestEntry;
    entry.encoded ??= encodeTokens(entry.text).slice(0, DIGEST_TOKENS_PER_SECTION + 1);
    const body = decodeHead(entry.encoded, cap);
    const more = entry.encoded.length > Math.min(cap, DIGEST_TOKENS_PER_SECTION) ? '…' : '';
    lines.push(body === '' ? entry.header : `${entry.header} ${body}${more}`);
  }
  return lines.join('\n');
}

/** The largest per-section cap, then the most entries, whose digest fits in `limit` (CX6). */
function fitDigest(
  entries: readonly DigestEntry[],
  limit: number,
  headerTokens: number,
): { cap: number; count: number } {
  const all = entries.length;
  if (digestTokens(entries, DIGEST_TOKENS_PER_SECTION, all, headerTokens) <= limit) {
    return { cap: DIGEST_TOKENS_PER_SECTION, count: all };
  }
  if (digestTokens(entries, 0, all, headerTokens) <= limit) {
    let low = 0;
    let high = DIGEST_TOKENS_PER_SECTION;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (digestTokens(entries, middle, all, headerTokens) <= limit) low = middle;
      else high = middle - 1;
    }
    return { cap: low, count: all };
  }
  let count = 0;
  let used = headerTokens;
  for (const entry of entries) {
    if (used + entry.headerTokens + 1 > limit) break;
    used += entry.headerTokens + 1;
    count += 1;
  }
  return { cap: 0, count };
}

/** A history message as text, for counting and for the debug view. */
function messageText(message: ChatPromptMessage): string {
  switch (message.role) {
    case 'user':
      return message.content;
    case 'assistant':
      return message.toolCalls.length === 0
        ? message.content
        : `${message.content}\n${JSON.stringify(message.toolCalls)}`;
    default:
      return JSON.stringify(message.results);
  }
}

function historyText(messages: readonly ChatPromptMessage[]): string {
  return messages.map((message) => `${message.role}: ${messageText(message)}`).join('\n\n');
}

/** Where the longest suffix of messages that fits `limit` starts; it never starts with tool results (CX7). */
function historyStart(
  tokens: readonly number[],
  messages: readonly ChatPromptMessage[],
  limit: number,
): number {
  let start = messages.length;
  let used = 0;
  while (start > 0 && used + (tokens[start - 1] as number) <= limit) {
    start -= 1;
    used += tokens[start] as number;
  }
  // Tool results without the call they answer are refused by providers.
  while (start < messages.length && messages[start]?.role === 'tool') start += 1;
  return start;
}

function scopeBrief(
  input: ContextInput,
  section: PlanSection | null,
  subsection: PlanSubsection | null,
): ScopeBrief {
  const subsectionBrief = (part: PlanSubsection): ScopeSubsection => {
    const settings = settingsOf(input.settings.subsections, part.uuid);
    return {
      uuid: part.uuid,
      title: part.title,
      userHint: settings.userHint,
      developerPrompt: settings.developerPrompt,
      finalized: part.finalized,
      markdown: blocksToMarkdown(part.blocks),
      blocks: part.blocks.map((block) => ({
        nodeId: nodeIdOf(block),
        type: typeof block.type === 'string' ? block.type : '',
        markdown: blocksToMarkdown([block]),
      })),
    };
  };
  const sectionSettings = section ? settingsOf(input.settings.sections, section.uuid) : NO_SETTINGS;
  return {
    documentTitle: input.document.title,
    target: input.scope.target,
    section: section
      ? {
          uuid: section.uuid,
          title: section.title,
          userHint: sectionSettings.userHint,
          developerPrompt: sectionSettings.developerPrompt,
        }
      : null,
    subsections: subsection
      ? [subsectionBrief(subsection)]
      : (section?.subsections ?? []).map(subsectionBrief),
  };
}

/** What the cuttable parts get within `available` tokens, in the order CX7 cuts them. */
interface Allocation {
  historyStart: number;
  digest: { cap: number; count: number };
  sectionChunks: Chunk[];
  sectionTruncated: boolean;
  outlineDetail: OutlineDetail;
  outlineLines: number;
}

/**
 * Assembles the prompt of one chat turn (`SPEC.md` CX1–CX12): the system prompt from the global and
 * blueprint prompts, the tool instructions, the scope's prompts and hints, the outline with progress,
 * the section in scope with block markers and a digest of the rest, then the history and the new
 * message, cut to `budgetTokens`. Pure; throws only {@link ContextScopeError}.
 */
export function assembleChatContext(input: ContextInput): AssembledContext {
  const plan = readPlan(input.document.content);
  const { section, subsection } = resolveScope(plan, input.scope);
  const budget = Math.max(0, Math.floor(input.budgetTokens));

  // Fixed parts: never cut (CX10).
  const globalText = input.globalSystemPrompt.trim();
  const blueprintText =
    input.blueprint && input.blueprint.systemPrompt.trim() !== ''
      ? `## About this plan (from its blueprint "${oneLine(input.blueprint.title, 'Untitled')}")\n${input.blueprint.systemPrompt.trim()}`
      : '';
  const instructions = instructionsText(input.provider, input.options);
  const scopePrompts = scopePromptsText(input, section, subsection);
  const documentLine = `The plan is titled "${oneLine(input.document.title, 'Untitled')}".`;
  const fixed = {
    global: countTokens(globalText),
    blueprint: countTokens(blueprintText),
    instructions: countTokens(instructions),
    scopePrompts: countTokens(scopePrompts),
    documentLine: countTokens(documentLine),
    message: countTokens(input.message),
  };
  const fixedTokens =
    fixed.global +
    fixed.blueprint +
    fixed.instructions +
    fixed.scopePrompts +
    fixed.documentLine +
    fixed.message +
    8;

  // Cuttable parts, estimated once with few tokenizer calls (CX9).
  const historyTokens = estimatePieces(input.history.map(messageText)).map((tokens) => tokens + 1);
  const outlines = {
    full: outlineLines(plan, section, 'full'),
    titles: outlineLines(plan, section, 'titles'),
    compact: outlineLines(plan, section, 'compact'),
  };
  const estimateLines = (lines: readonly string[]) => estimatePieces(lines).map((tokens) => tokens + 1);
  const outlineTokens = {
    full: estimateLines(outlines.full.lines),
    titles: estimateLines(outlines.titles.lines),
    compact: estimateLines(outlines.compact.lines),
  };
  const outlineHeaderTokens = countTokens(outlines.full.header) + 1;
  const outlineNoteTokens = countTokens(TRUNCATED_OUTLINE_NOTE) + 1;
  const allSectionChunks = section ? sectionChunks(section, subsection) : [];
  const sectionNoteTokens = countTokens(TRUNCATED_SECTION_NOTE) + 2;
  const entries = digestEntries(plan, section);
  const digestHeaderTokens = countTokens(DIGEST_HEADER) + 1;
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const fullSectionTokens = sum(allSectionChunks.map((part) => part.tokens));
  const outlineSums = {
    full: outlineHeaderTokens + sum(outlineTokens.full),
    titles: outlineHeaderTokens + sum(outlineTokens.titles),
    compact: outlineHeaderTokens + sum(outlineTokens.compact),
  };
  const digestLimit = Math.floor(budget * DIGEST_BUDGET_SHARE);

  const allocate = (available: number): Allocation => {
    let room = available;
    // Other sections' subsections lose their uuids, then leave, when the outline and the section do not fit.
    const outlineDetail: OutlineDetail =
      outlineSums.full + fullSectionTokens <= room
        ? 'full'
        : outlineSums.titles + fullSectionTokens <= room
          ? 'titles'
          : 'compact';
    const lineTokens = outlineTokens[outlineDetail];
    const outlineNeed = outlineSums[outlineDetail];
    const digestWanted = fitDigest(entries, digestLimit, digestHeaderTokens);
    const digestNeed = digestTokens(entries, digestWanted.cap, digestWanted.count, digestHeaderTokens);
    // History goes first, oldest first.
    const start = historyStart(
      historyTokens,
      input.history,
      room - outlineNeed - fullSectionTokens - digestNeed,
    );
    room -= sum(historyTokens.slice(start));
    // Then the digest shrinks.
    const digest = fitDigest(
      entries,
      Math.min(digestLimit, room - outlineNeed - fullSectionTokens),
      digestHeaderTokens,
    );
    room -= digestTokens(entries, digest.cap, digest.count, digestHeaderTokens);
    // Then the section is cut, keeping its start.
    let chunks = allSectionChunks;
    let sectionTruncated = false;
    if (fullSectionTokens > room - outlineNeed) {
      chunks = truncateChunks(allSectionChunks, Math.max(0, room - outlineNeed), sectionNoteTokens);
      sectionTruncated = true;
    }
    room -= sum(chunks.map((part) => part.tokens)) + (sectionTruncated ? sectionNoteTokens : 0);
    // Last, the end of the outline.
    let lines = lineTokens.length;
    if (outlineNeed > room) {
      let used = outlineHeaderTokens + outlineNoteTokens;
      lines = 0;
      while (lines < lineTokens.length && used + (lineTokens[lines] as number) <= room) {
        used += lineTokens[lines] as number;
        lines += 1;
      }
    }
    return {
      historyStart: start,
      digest,
      sectionChunks: chunks,
      sectionTruncated,
      outlineDetail,
      outlineLines: lines,
    };
  };

  const build = (allocation: Allocation) => {
    const outline = outlines[allocation.outlineDetail];
    const outlineCut = allocation.outlineLines < outline.lines.length;
    const outlineText =
      allocation.outlineLines === 0 && outlineCut
        ? ''
        : [
            outline.header,
            ...outline.lines.slice(0, allocation.outlineLines),
            ...(outlineCut ? [TRUNCATED_OUTLINE_NOTE] : []),
          ].join('\n');
    const sectionText =
      allocation.sectionChunks.length === 0
        ? ''
        : `${chunksText(allocation.sectionChunks)}${allocation.sectionTruncated ? `\n\n${TRUNCATED_SECTION_NOTE}` : ''}`;
    const digest = digestText(entries, allocation.digest.cap, allocation.digest.count);
    const history = input.history.slice(allocation.historyStart);
    const texts: Record<ContextPartName, string> = {
      global: globalText,
      blueprint: blueprintText,
      instructions,
      scope_prompts: scopePrompts,
      outline: outlineText === '' ? '' : `${documentLine}\n${outlineText}`,
      section: sectionText,
      digest,
      history: historyText(history),
      message: input.message,
    };
    // The real count of what was built: each cuttable part once per round (CX8, CX9).
    const tokens: Record<ContextPartName, number> = {
      global: fixed.global,
      blueprint: fixed.blueprint,
      instructions: fixed.instructions,
      scope_prompts: fixed.scopePrompts,
      outline: texts.outline === '' ? 0 : countTokens(texts.outline),
      section: countTokens(texts.section),
      digest: countTokens(texts.digest),
      history: countTokens(history.map(messageText).join('\n')) + history.length,
      message: fixed.message,
    };
    const systemParts: Array<[string, number]> = [
      [texts.global, tokens.global],
      [texts.blueprint, tokens.blueprint],
      [texts.instructions, tokens.instructions],
      [texts.scope_prompts, tokens.scope_prompts],
      texts.outline === '' ? [documentLine, fixed.documentLine] : [texts.outline, tokens.outline],
      [texts.section, tokens.section],
      [texts.digest, tokens.digest],
    ];
    const kept = systemParts.filter(([text]) => text !== '');
    const system = kept.map(([text]) => text).join('\n\n');
    // One token for each blank line between parts.
    const systemTokens = sum(kept.map(([, count]) => count)) + Math.max(0, kept.length - 1);
    const total = systemTokens + tokens.history + tokens.message + 1;
    return { texts, tokens, system, history, total };
  };

  let available = budget - fixedTokens;
  let allocation = allocate(Math.max(0, available));
  let built = build(allocation);
  // Estimate, then verify the real count; shrink by what it overshot (CX9).
  for (let round = 0; round < VERIFY_ROUNDS && built.total > budget && available > 0; round += 1) {
    available -= built.total - budget + 4 * (round + 1);
    allocation = allocate(Math.max(0, available));
    built = build(allocation);
  }
  if (built.total > budget) {
    // The last resort: only what is never cut (CX10).
    allocation = allocate(0);
    built = build(allocation);
  }

  const outlineSource = outlines[allocation.outlineDetail];
  const keptEntries = entries.slice(0, allocation.digest.count);
  const truncated: Record<ContextPartName, boolean> = {
    global: false,
    blueprint: false,
    instructions: false,
    scope_prompts: false,
    outline:
      allocation.outlineLines < outlineSource.lines.length ||
      (allocation.outlineDetail !== 'full' &&
        outlineSource.lines.join('\n') !== outlines.full.lines.join('\n')),
    section: allocation.sectionTruncated,
    digest:
      allocation.digest.count < entries.length ||
      (allocation.digest.cap < DIGEST_TOKENS_PER_SECTION &&
        keptEntries.some((entry) => (entry.encoded?.length ?? 0) > allocation.digest.cap)),
    history: allocation.historyStart > 0,
    message: false,
  };
  const parts: ContextPart[] = CONTEXT_PART_NAMES.map((name) => ({
    name,
    tokens: built.tokens[name],
    truncated: truncated[name],
    text: built.texts[name],
  }));
  return {
    system: built.system,
    messages: [...built.history, { role: 'user', content: input.message }],
    scope: scopeBrief(input, section, subsection),
    parts,
    totalTokens: built.total,
    budgetTokens: budget,
    overBudget: built.total > budget,
  };
}
