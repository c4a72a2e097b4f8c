import { readFileSync } from 'node:fs';
import { createDocumentContent, type DocumentJson, type NewSectionContent } from '@planwright/sdk/model';
import { corpusPath } from '../../../../../tests/support/corpus-path.mjs';
import type { ContextInput, ContextSettings } from '../../../src/ai/context/assemble-context.js';
import type { ProviderInfo } from '../../../src/ai/providers/ai-provider.js';

/** The Big List of Naughty Strings from the shared corpus. */
export const hostileStrings = JSON.parse(
  readFileSync(corpusPath('hostile-strings/blns.json'), 'utf8'),
) as string[];

/** A model provider that can do everything. */
export const CAPABLE_PROVIDER: ProviderInfo = {
  name: 'openai',
  model: 'gpt-4.1-mini',
  label: 'OpenAI gpt-4.1-mini',
  offline: false,
  supports: { webAccess: true, research: true, tools: true },
};

/** The offline drafter: tools, no web. */
export const OFFLINE_PROVIDER: ProviderInfo = {
  name: 'offline',
  model: 'offline-drafter',
  label: 'Offline drafts (no AI model)',
  offline: true,
  supports: { webAccess: false, research: false, tools: true },
};

/** The n-th test uuid (distinct, well-formed, lowercase). */
export function testUuid(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** A deterministic id generator for normalisation. */
export function idGenerator(prefix = 'n'): () => string {
  let next = 0;
  return () => {
    next += 1;
    return `${prefix}${next}`;
  };
}

export function paragraph(text: string) {
  return {
    type: 'paragraph' as const,
    attrs: { indent: 0, nodeId: null },
    ...(text === '' ? {} : { content: [{ type: 'text' as const, text }] }),
  };
}

export interface PlanSpec {
  title?: string;
  sections: Array<{
    title: string;
    paragraphs?: string[];
    subsections: Array<{ title: string; paragraphs?: string[]; finalized?: boolean }>;
  }>;
}

/** A normalised document from a compact description; uuids are testUuid(1), (2), … in reading order. */
export function buildDocument(spec: PlanSpec): DocumentJson {
  let n = 0;
  const sections: NewSectionContent[] = spec.sections.map((section) => ({
    uuid: testUuid(++n),
    title: section.title,
    ...(section.paragraphs ? { content: section.paragraphs.map(paragraph) } : {}),
    subsections: section.subsections.map((subsection) => ({
      uuid: testUuid(++n),
      title: subsection.title,
      finalized: subsection.finalized === true,
      ...(subsection.paragraphs ? { content: subsection.paragraphs.map(paragraph) } : {}),
    })),
  }));
  return createDocumentContent(sections, { generateId: idGenerator() });
}

/** A context input over `content` with a generous budget; override what a test is about. */
export function contextInput(content: DocumentJson, overrides: Partial<ContextInput> = {}): ContextInput {
  return {
    globalSystemPrompt: 'You are the test assistant.',
    blueprint: { title: 'Business Plan', systemPrompt: 'This plan persuades investors.' },
    document: { uuid: testUuid(999_999), title: 'Acme plan', content },
    settings: {
      sections: new Map<string, ContextSettings>(),
      subsections: new Map<string, ContextSettings>(),
    },
    scope: { target: 'document', sectionUuid: null, subsectionUuid: null },
    history: [],
    message: 'Please improve this.',
    budgetTokens: 100_000,
    provider: CAPABLE_PROVIDER,
    options: { webAccess: false, research: false },
    ...overrides,
  };
}

/** Every `[#id]` marker in a text. */
export function markersIn(text: string): string[] {
  return [...text.matchAll(/\[#([^\]\s]*)\]/g)].map((match) => match[1] as string);
}

/** Every block nodeId of the bodies of a section and its subsections (the blocks CX5 marks). */
export function bodyNodeIds(doc: DocumentJson, sectionUuid: string): string[] {
  const section = doc.content.find((node) => node.attrs.uuid === sectionUuid);
  if (!section) return [];
  const ids: string[] = [];
  for (const child of section.content.slice(1)) {
    if (child.type === 'subsection') {
      for (const block of child.content.slice(1)) {
        if ('attrs' in block && block.attrs && 'nodeId' in block.attrs && block.attrs.nodeId)
          ids.push(block.attrs.nodeId);
      }
    } else if ('attrs' in child && child.attrs && 'nodeId' in child.attrs && child.attrs.nodeId) {
      ids.push(child.attrs.nodeId);
    }
  }
  return ids;
}
