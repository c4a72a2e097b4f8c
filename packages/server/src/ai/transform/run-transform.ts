import {
  documentToHtml,
  documentToMarkdown,
  FormatError,
  type HtmlParser,
  markdownToDocument,
} from '@planwright/sdk/formats';
import type { BlockJson } from '@planwright/sdk/model';
import { proposalContentToBlocks } from '@planwright/sdk/proposals';
import { z } from 'zod';
import { HttpError } from '../../http/http-error.js';
import { loadHtmlParser } from '../html-parser.js';
import {
  type AiProvider,
  AiProviderError,
  type TokenUsage,
  type TransformAction,
} from '../providers/ai-provider.js';
import { cleanTransformOutput, transformPrompt } from './transform-prompts.js';
import type { TransformItemInput, TransformRequest } from './transform-request.js';

/** One structured item as answered (spec 001 §3 "AI transform item"). */
export interface TransformedItem {
  subsection_uuid: string;
  title: string;
  content_html: string;
}

/** What one request produced, before the route adds the provider. */
export type TransformOutcome =
  | { mode: 'text'; transformedText: string; usage: TokenUsage }
  | { mode: 'structured'; items: TransformedItem[]; usage: TokenUsage };

/** Placeholder uuids of the scratch subsection blocks are written in and read from (never answered). */
const SCRATCH_SECTION = '00000000-0000-4000-8000-00000000b001';
const SCRATCH_SUBSECTION = '00000000-0000-4000-8000-00000000b002';
/** Structured items are transformed a few at a time: fast enough, and kind to the provider's rate limit. */
const ITEM_CONCURRENCY = 4;
/** Longest title answered, like the model's titles (code points). */
const TITLE_MAX_LENGTH = 200;
/** A title is neither extended nor shortened: those actions are about a body of text. */
const TITLE_UNCHANGED_BY: ReadonlySet<TransformAction> = new Set(['extend', 'shorten']);

/** A provider's answer is untrusted: checked before it is used. */
const providerResultSchema = z.object({
  text: z.string(),
  usage: z
    .object({
      inputTokens: z.number().nonnegative().nullable().catch(null),
      outputTokens: z.number().nonnegative().nullable().catch(null),
    })
    .catch({ inputTokens: null, outputTokens: null }),
});

function addUsage(total: TokenUsage, usage: TokenUsage): void {
  if (usage.inputTokens !== null) total.inputTokens = (total.inputTokens ?? 0) + usage.inputTokens;
  if (usage.outputTokens !== null) total.outputTokens = (total.outputTokens ?? 0) + usage.outputTokens;
}

/** Options of {@link runTransform}. */
export interface RunTransformOptions {
  provider: AiProvider;
  signal: AbortSignal;
  /** Receives the usage of every finished provider call, also when a later one fails. */
  onUsage?: (usage: TokenUsage) => void;
  /** Text mode: the answer so far as the provider writes it (TR57), before the final clean-up. */
  onText?: (text: string) => void;
}

/**
 * Runs one validated request through the provider (SPEC TR40–TR46). Text mode transforms `text`;
 * structured mode reads each item's HTML as Markdown, transforms it (and its title when asked), and
 * writes it back as HTML under spec 001 §5's structured rule: headings only of levels 3 and 4.
 *
 * @throws {AiProviderError} when the provider fails or answers nothing usable.
 * @throws {HttpError} 400 when an item's HTML cannot be read.
 */
export async function runTransform(
  request: TransformRequest,
  options: RunTransformOptions,
): Promise<TransformOutcome> {
  const usage: TokenUsage = { inputTokens: null, outputTokens: null };
  const call = async (text: string, title: boolean, onText?: (delta: string) => void): Promise<string> => {
    // A cancelled request starts no further calls (structured mode makes several).
    if (options.signal.aborted) throw new AiProviderError('cancelled', 'The transform was cancelled.');
    const prompts = transformPrompt(request.action, text, request.customPrompt, { title });
    const raw = await options.provider.transform({
      action: request.action,
      text,
      selection: request.mode === 'text',
      customPrompt: request.customPrompt,
      system: prompts.system,
      prompt: prompts.prompt,
      signal: options.signal,
      ...(onText ? { onText } : {}),
    });
    const parsed = providerResultSchema.safeParse(raw);
    if (!parsed.success) throw new AiProviderError('bad_response', 'The AI answered in an unexpected shape.');
    addUsage(usage, parsed.data.usage);
    options.onUsage?.(parsed.data.usage);
    const cleaned = cleanTransformOutput(parsed.data.text, text);
    if (cleaned.trim() === '') throw new AiProviderError('bad_response', 'The AI answered with no text.');
    return cleaned;
  };

  if (request.mode === 'text') {
    let soFar = '';
    const onText = options.onText;
    const transformedText = await call(
      request.text,
      false,
      onText
        ? (delta) => {
            soFar += delta;
            onText(soFar);
          }
        : undefined,
    );
    return { mode: 'text', transformedText, usage };
  }
  const parseHtml = await loadHtmlParser();
  const items = await mapLimited(request.items, ITEM_CONCURRENCY, (item, index) =>
    transformItem(item, index, request.action, call, parseHtml),
  );
  return { mode: 'structured', items, usage };
}

async function transformItem(
  item: TransformItemInput,
  index: number,
  action: TransformAction,
  call: (text: string, title: boolean) => Promise<string>,
  parseHtml: HtmlParser,
): Promise<TransformedItem> {
  const markdown = htmlToBodyMarkdown(item.contentHtml, parseHtml, index);
  const body = markdown.trim() === '' ? '' : await call(markdown, false);
  const wantsTitle = item.includeTitle && item.titleText.trim() !== '' && !TITLE_UNCHANGED_BY.has(action);
  const title = wantsTitle
    ? cleanTitle(await call(item.titleText.trim(), true), item.titleText)
    : item.titleText;
  return {
    subsection_uuid: item.subsectionUuid,
    title,
    content_html: body === '' ? item.contentHtml : markdownToStructuredHtml(body),
  };
}

/** A scratch document whose one subsection holds `blocks`, with empty titles. */
function scratchDocument(blocks: readonly unknown[]) {
  return {
    type: 'doc' as const,
    content: [
      {
        type: 'section' as const,
        attrs: { uuid: SCRATCH_SECTION },
        content: [
          { type: 'sectionHeading' as const },
          {
            type: 'subsection' as const,
            attrs: { uuid: SCRATCH_SUBSECTION },
            content: [{ type: 'subsectionHeading' as const }, ...blocks],
          },
        ],
      },
    ],
  };
}

/** An item's HTML as Markdown of its blocks (headings already clamped to 3–4 on the way in). */
export function htmlToBodyMarkdown(html: string, parseHtml: HtmlParser, index = 0): string {
  if (html.trim() === '') return '';
  const read = proposalContentToBlocks({ format: 'html', text: html }, { parseHtml });
  if (!read.ok) {
    throw new HttpError(400, 'invalid', `Invalid input: items.${index}.content_html`, [
      { param: `items.${index}.content_html`, code: 'invalid', message: read.message },
    ]);
  }
  const markdown = documentToMarkdown(scratchDocument(read.blocks) as never);
  // Empty section and subsection titles are written as `#` and `##`: everything after them is the body.
  const prefix = /^#\n\n##\n?\n?/.exec(markdown)?.[0] ?? '';
  return markdown.slice(prefix.length).trimEnd();
}

/**
 * Markdown from the provider as a subsection body in HTML, under the structured rule (SPEC TR43): level-1
 * and level-2 headings (section and subsection titles) become level 3, levels 3–4 stay, 5–6 become 4.
 */
export function markdownToStructuredHtml(markdown: string): string {
  let imported: ReturnType<typeof markdownToDocument>;
  try {
    imported = markdownToDocument(markdown);
  } catch (error) {
    if (error instanceof FormatError)
      throw new AiProviderError('bad_response', 'The AI answer is too large.');
    throw error;
  }
  const synthetic = imported.report.notes.some((note) => note.code === 'untitled_section_added');
  // The "Untitled" title the reader adds for leading content was never written: it is left out.
  const sections = imported.document.content.map((section, index) =>
    synthetic && index === 0 ? { ...section, content: section.content.slice(1) } : section,
  );
  const read = proposalContentToBlocks({
    format: 'tiptap_json',
    json: { type: 'doc', content: sections },
  });
  if (!read.ok) throw new AiProviderError('bad_response', 'The AI answer could not be read as content.');
  return blocksHtml(read.blocks);
}

function blocksHtml(blocks: readonly BlockJson[]): string {
  const html = documentToHtml(scratchDocument(blocks) as never);
  const body =
    /^<section[^>]*><h1[^>]*><\/h1><section[^>]*><h2[^>]*><\/h2>([\s\S]*)<\/section><\/section>$/.exec(
      html,
    )?.[1];
  if (body === undefined)
    throw new AiProviderError('bad_response', 'The AI answer could not be written as HTML.');
  return body;
}

/** A transformed title: one line, no Markdown heading or list marker, no full stop the original lacked. */
function cleanTitle(transformed: string, original: string): string {
  const line =
    transformed
      .split('\n')
      .map((part) => part.trim())
      .find((part) => part !== '') ?? '';
  let title = line
    .replace(/^(?:#{1,6}\s+|[-*+]\s+|\d{1,9}[.)]\s+)/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (title.endsWith('.') && !original.trim().endsWith('.') && !title.endsWith('..'))
    title = title.slice(0, -1);
  const points = Array.from(title);
  if (points.length > TITLE_MAX_LENGTH) title = points.slice(0, TITLE_MAX_LENGTH).join('').trim();
  return title === '' ? original : title;
}

/** Maps with at most `limit` calls running; the first failure rejects (the others' signals are shared). */
async function mapLimited<T, R>(
  values: readonly T[],
  limit: number,
  map: (value: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(values.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < values.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await map(values[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, values.length) }, worker));
  return results;
}
