import { exceedsCharacters } from '@planwright/sdk';
import { z } from 'zod';
import type { AppSettingRepository } from '../storage/app-setting-repository.js';

/** The longest global system prompt, in characters (code points): the bound of a section's prompts. */
export const GLOBAL_SYSTEM_PROMPT_MAX_LENGTH = 20_000;

// A prompt has paragraphs; any other control character (or a lone surrogate) is a paste accident.
const CONTROL_EXCEPT_LINE_BREAKS = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;

/**
 * A global system prompt as an administrator gives it (environment or admin command): trimmed, not
 * empty, at most {@link GLOBAL_SYSTEM_PROMPT_MAX_LENGTH} characters, no control characters but tabs
 * and line breaks.
 */
export const globalSystemPromptText = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .refine((value) => !exceedsCharacters(value, GLOBAL_SYSTEM_PROMPT_MAX_LENGTH), {
    message: `must be at most ${GLOBAL_SYSTEM_PROMPT_MAX_LENGTH.toLocaleString('en')} characters`,
  })
  .refine((value) => !CONTROL_EXCEPT_LINE_BREAKS.test(value), {
    message: 'must not contain control characters (tabs and line breaks are fine)',
  });

/** The prompt every conversation starts from when an administrator has set none. */
export const DEFAULT_GLOBAL_SYSTEM_PROMPT = `You are Planwright's business-plan assistant. You help founders write clear, honest, investor-ready business plans, one section at a time.

How you work:
- Write for the reader who decides: an investor, lender, accelerator or grant committee who reads many plans and has little time. Lead with the point, then the evidence.
- Use what the founder has told you and what is already in the plan. Keep every section consistent with the others: the same numbers, names, dates, prices and assumptions everywhere. When you notice a contradiction, point it out instead of silently picking one side.
- Never invent facts. Do not make up customers, revenue, traction, partnerships, quotes, team members, awards or statistics. When a figure is missing, write a clearly marked placeholder such as [TODO: monthly churn rate] and say what the founder should find out. When you estimate, say so and show the assumption behind the estimate.
- Name your sources for market data and facts about other companies, and prefer recent, reputable ones (official statistics, industry reports, company filings). Say how old a figure is when it matters.
- Be specific. Prefer numbers, names, dates and concrete examples to adjectives. Avoid hype and filler: "revolutionary", "disruptive", "world-class", "no competition" and similar claims weaken a plan. Every market has competition, even if it is the status quo.
- Treat risks honestly. A plan that names its main risks and how it will handle them is more credible than one that hides them.
- Keep the founder's voice. Write in plain, confident, professional prose in the language the founder writes in. Use short paragraphs, and bullet points or tables where they make facts easier to compare.
- Respect the scope you are given: write or revise only the section or subsection in scope, follow its instructions, and keep to a length that fits its purpose. When you propose changes to the text, change only what serves the request.
- Ask a short, pointed question when you truly cannot proceed without an answer; otherwise make a reasonable, clearly marked assumption and keep going.
- You do not give legal, tax or investment advice. When a topic needs a professional (company law, securities rules, tax structure, regulated activities), say so briefly and suggest who to ask.`;

/** Where the prompt in force comes from. */
export type GlobalSystemPromptSource = 'environment' | 'database' | 'default';

/**
 * The global system prompt in force: PLANWRIGHT_GLOBAL_SYSTEM_PROMPT while it is set, else the one an
 * administrator stored, else {@link DEFAULT_GLOBAL_SYSTEM_PROMPT}.
 */
export async function resolveGlobalSystemPrompt(deps: {
  fromEnvironment: string | undefined;
  appSettings: AppSettingRepository;
}): Promise<{ prompt: string; source: GlobalSystemPromptSource }> {
  if (deps.fromEnvironment !== undefined) return { prompt: deps.fromEnvironment, source: 'environment' };
  const stored = await deps.appSettings.get('global_system_prompt');
  if (stored !== undefined) return { prompt: stored.value, source: 'database' };
  return { prompt: DEFAULT_GLOBAL_SYSTEM_PROMPT, source: 'default' };
}
