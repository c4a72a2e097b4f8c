import {
  BLUEPRINT_TEXTS,
  type BlueprintDetail,
  type BlueprintSummary,
  blueprintTitle,
  type ListPage,
  publisherLabel,
  statusLabel,
} from '@planwright/sdk';
import { terminalLines, terminalText } from '../display/terminal-text.js';
import { formatTable } from '../display/text-table.js';
import { formatTimestamp } from '../display/timestamp.js';
import { formatFields } from '../output.js';
import { LIST_TITLE_WIDTH, type PageRequest, pageFooter } from './document-views.js';
import { outlineLines } from './outline-lines.js';

/** Widest a publisher may be in a list. */
const PUBLISHER_WIDTH = 24;

/** `planwright blueprints list [--available]` for people. */
export function blueprintListLines(
  page: ListPage<BlueprintSummary>,
  request: PageRequest & { available: boolean },
): string[] {
  if (page.items.length === 0) {
    if (request.page > 1) return [`No blueprints on page ${request.page} (${page.total} in all).`];
    return request.available
      ? ['No blueprints available.']
      : ['You have no blueprints yet. `planwright blueprints list --available` shows the ones you can use.'];
  }
  const table = formatTable(
    [
      { header: 'UUID', value: (blueprint: BlueprintSummary) => blueprint.uuid },
      {
        header: 'TITLE',
        value: (blueprint) => blueprintTitle({ title: terminalText(blueprint.title) }),
        maxWidth: LIST_TITLE_WIDTH,
      },
      { header: 'STATUS', value: (blueprint) => statusLabel(blueprint.status) },
      { header: 'VISIBILITY', value: (blueprint) => blueprint.visibility },
      { header: 'VERSION', value: (blueprint) => String(blueprint.version) },
      { header: 'PUBLISHER', value: (blueprint) => publisherLabel(blueprint), maxWidth: PUBLISHER_WIDTH },
      { header: 'UPDATED', value: (blueprint) => formatTimestamp(blueprint.updated_at) },
    ],
    page.items,
  );
  const command = `planwright blueprints list${request.available ? ' --available' : ''}`;
  return [...table, ...pageFooter(page, request, 'blueprints', command)];
}

/** `planwright blueprints show` for people: fields, description, system prompt and outline. */
export function blueprintDetailLines(blueprint: BlueprintDetail): string[] {
  const description =
    blueprint.description.trim() === ''
      ? [BLUEPRINT_TEXTS.noDescription]
      : terminalLines(blueprint.description);
  const fields: Array<readonly [string, string]> = [
    ['UUID', terminalText(blueprint.uuid)],
    ['Status', statusLabel(blueprint.status)],
    ['Version', String(blueprint.version)],
    ['Visibility', blueprint.visibility],
    ['Publisher', terminalText(publisherLabel(blueprint))],
    [
      'Published',
      blueprint.published_at === null ? 'not published' : formatTimestamp(blueprint.published_at),
    ],
  ];
  if (blueprint.visibility === 'restricted') {
    fields.push([
      'Organisations',
      blueprint.allowed_orgs.length === 0 ? 'none' : terminalText(blueprint.allowed_orgs.join(', ')),
    ]);
  }
  fields.push(
    ['Sections', String(blueprint.sections_count)],
    ['Yours', blueprint.is_owner ? 'yes' : 'no'],
    ['Created', formatTimestamp(blueprint.created_at)],
    ['Updated', formatTimestamp(blueprint.updated_at)],
  );
  const prompt = blueprint.system_prompt.trim() === '' ? ['(none)'] : terminalLines(blueprint.system_prompt);
  return [
    blueprintTitle({ title: terminalText(blueprint.title) }),
    ...formatFields(fields),
    '',
    'Description:',
    ...description.map((line) => `  ${line}`),
    '',
    'System prompt:',
    ...prompt.map((line) => `  ${line}`),
    '',
    'Outline:',
    ...outlineLines(blueprint.sections, 'settings'),
  ];
}
