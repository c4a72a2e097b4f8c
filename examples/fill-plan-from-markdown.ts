/**
 * Creates a plan from a blueprint and fills it from a folder of Markdown files, one per section or
 * subsection, matched by title: the way to move a plan drafted in an editor or a wiki into Planwright.
 *
 *   PLANWRIGHT_EMAIL=… PLANWRIGHT_PASSWORD=… npx tsx examples/fill-plan-from-markdown.ts <folder> <plan title> [server-url]
 *
 * A file's title is its first line when that is a `# Heading`, else its name without the extension and
 * an order prefix (`02-market-analysis.md` → "market analysis"); case, spaces and punctuation do not
 * count. A subsection title wins over a section title. A section's file fills the text before its
 * subsections. PLANWRIGHT_BLUEPRINT names the blueprint by title (default: the server's default one).
 * When a file matches no part, or more than one, or cannot be read, no plan is kept (the new one is
 * deleted again) and the script exits 1 with one line per problem. Otherwise it prints the new plan's uuid and what each file filled.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createPlanwrightClient, type DocumentDetail, preferredBlueprint } from '@planwright/sdk';
import type { BlockJson, DocumentJson } from '@planwright/sdk/model';
import { applyFullSubsection, proposalContentToBlocks } from '@planwright/sdk/proposals';
import { failureLine, serverUrl, signInFromEnvironment } from './example-support.js';

/** One Markdown file: the title it is matched by and the text that fills the part. */
interface MarkdownPart {
  file: string;
  title: string;
  text: string;
}

/** Where a file goes: a section's own text or a subsection's. */
type Target = { kind: 'section' | 'subsection'; uuid: string; title: string };

/** Titles compare without case, accents, spaces or punctuation: "Market Analysis" = "market-analysis". */
function titleKey(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Reads every `.md` file of `folder`, in name order. */
function readParts(folder: string): MarkdownPart[] {
  const files = readdirSync(folder).filter((name) => name.toLowerCase().endsWith('.md'));
  return files.sort().map((name) => {
    const raw = readFileSync(join(folder, name), 'utf8').replace(/^\uFEFF/, '');
    const heading = /^#\s+(.+?)\s*#*\s*(?:\r?\n|$)/.exec(raw);
    if (heading?.[1]) return { file: name, title: heading[1], text: raw.slice(heading[0].length) };
    return { file: name, title: basename(name, '.md').replace(/^\d+[\s._-]*/, ''), text: raw };
  });
}

/** Every section and subsection of `content` by title key; a key used twice maps to all its parts. */
function targetsByTitle(content: DocumentJson): Map<string, Target[]> {
  const targets = new Map<string, Target[]>();
  const add = (target: Target) => {
    const key = titleKey(target.title);
    targets.set(key, [...(targets.get(key) ?? []), target]);
  };
  const subsectionTargets: Target[] = [];
  for (const section of content.content) {
    const title = section.content[0].content?.map((text) => text.text).join('') ?? '';
    for (const child of section.content.slice(1)) {
      if (child.type !== 'subsection') continue;
      const heading = child.content[0].content?.map((text) => text.text).join('') ?? '';
      subsectionTargets.push({ kind: 'subsection', uuid: child.attrs.uuid, title: heading });
    }
    add({ kind: 'section', uuid: section.attrs.uuid, title });
  }
  // A subsection title wins: drop a section of the same title rather than calling it ambiguous.
  for (const target of subsectionTargets) targets.delete(titleKey(target.title));
  for (const target of subsectionTargets) add(target);
  return targets;
}

/** `content` with the text before the subsections of section `uuid` replaced by `blocks`. */
function withSectionText(content: DocumentJson, uuid: string, blocks: BlockJson[]): DocumentJson {
  return {
    ...content,
    content: content.content.map((section) => {
      if (section.attrs.uuid !== uuid) return section;
      const [heading, ...rest] = section.content;
      return {
        ...section,
        content: [heading, ...blocks, ...rest.filter((node) => node.type === 'subsection')],
      };
    }),
  };
}

/** Fills `content` from `parts`, or answers every problem found (and no content). */
function fill(
  content: DocumentJson,
  parts: MarkdownPart[],
): { content: DocumentJson; lines: string[] } | string[] {
  const targets = targetsByTitle(content);
  const problems: string[] = [];
  const lines: string[] = [];
  const used = new Set<string>();
  let filled = content;
  for (const part of parts) {
    const matches = targets.get(titleKey(part.title)) ?? [];
    const target = matches[0];
    if (!target) {
      problems.push(`${part.file}: no section or subsection is titled "${part.title}"`);
      continue;
    }
    if (matches.length > 1) {
      problems.push(
        `${part.file}: "${part.title}" names ${matches.length} parts of the plan; rename the file`,
      );
      continue;
    }
    if (used.has(target.uuid)) {
      problems.push(`${part.file}: "${target.title}" is filled by another file already`);
      continue;
    }
    used.add(target.uuid);
    const proposal = { format: 'markdown' as const, text: part.text };
    if (target.kind === 'subsection') {
      // The same rule the AI's proposals follow: Markdown headings land as headings 3 and 4.
      const result = applyFullSubsection(filled, {
        tool: 'propose_full_subsection',
        target: target.uuid,
        content: proposal,
      });
      if (!result.ok) problems.push(`${part.file}: ${result.message}`);
      else filled = result.document;
    } else {
      const blocks = proposalContentToBlocks(proposal);
      if (!blocks.ok) problems.push(`${part.file}: ${blocks.message}`);
      else filled = withSectionText(filled, target.uuid, blocks.blocks);
    }
    lines.push(`${part.file} → ${target.kind} "${target.title}"`);
  }
  return problems.length > 0 ? problems : { content: filled, lines };
}

const [folder, title, serverArgument] = process.argv.slice(2);
const baseUrl = serverUrl(serverArgument);
const client = createPlanwrightClient({ baseUrl });

try {
  if (!folder || !title)
    throw new Error('usage: fill-plan-from-markdown.ts <folder> <plan title> [server-url]');
  const parts = readParts(folder);
  if (parts.length === 0) throw new Error(`${folder} holds no .md file`);
  await signInFromEnvironment(client);

  const blueprints = (await client.blueprints.available({ pageSize: 100 })).items;
  const wanted = process.env.PLANWRIGHT_BLUEPRINT;
  const blueprint = wanted
    ? blueprints.find((candidate) => titleKey(candidate.title) === titleKey(wanted))
    : preferredBlueprint(blueprints);
  if (!blueprint) throw new Error(`no blueprint ${wanted ? `titled "${wanted}"` : 'available'}`);

  // The plan's outline (and its uuids) exist once it is created: fill locally, then save once.
  const draft: DocumentDetail = await client.documents.create({ blueprint: blueprint.uuid, title });
  const outcome = draft.content ? fill(draft.content, parts) : ['the new plan came back without content'];
  if (Array.isArray(outcome)) {
    await client.documents.delete(draft.uuid);
    for (const problem of outcome) console.error(problem);
    process.exitCode = 1;
  } else {
    const saved = await client.documents.update(
      draft.uuid,
      { content: outcome.content },
      { ifMatch: draft.revision ?? undefined },
    );
    for (const line of outcome.lines) console.log(line);
    console.log(
      `Created "${saved.title}" (${saved.uuid}) from "${blueprint.title}": ${outcome.lines.length} parts filled.`,
    );
  }
} catch (error) {
  console.error(`${baseUrl}: ${failureLine(error)}`);
  process.exitCode = 1;
}
