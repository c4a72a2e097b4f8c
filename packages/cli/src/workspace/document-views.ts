import {
  DOCUMENT_TEXTS,
  type DocumentDetail,
  type DocumentSummary,
  documentTitle,
  formatProgress,
  formatProgressShort,
  type ListPage,
  statusLabel,
} from '@planwright/sdk';
import { terminalLines, terminalText } from '../display/terminal-text.js';
import { formatTable } from '../display/text-table.js';
import { formatTimestamp } from '../display/timestamp.js';
import { formatFields } from '../output.js';
import { outlineLines } from './outline-lines.js';

/** Widest a title may be in a list before it is cut with `…`. */
export const LIST_TITLE_WIDTH = 40;

/** Which page was asked for, to say whether there are more. */
export interface PageRequest {
  page: number;
  pageSize: number | undefined;
}

/** `planwright documents list` for people: a table, then a line about further pages. */
export function documentListLines(page: ListPage<DocumentSummary>, request: PageRequest): string[] {
  if (page.items.length === 0) {
    return request.page > 1
      ? [`No documents on page ${request.page} (${page.total} in all).`]
      : [
          'No documents yet.',
          'Create one with `planwright documents create --blueprint <uuid>` (see `planwright blueprints list --available`).',
        ];
  }
  const table = formatTable(
    [
      { header: 'UUID', value: (document: DocumentSummary) => document.uuid },
      {
        header: 'TITLE',
        value: (document) => documentTitle({ title: terminalText(document.title) }),
        maxWidth: LIST_TITLE_WIDTH,
      },
      { header: 'STATUS', value: (document) => statusLabel(document.status) },
      { header: 'PROGRESS', value: (document) => formatProgressShort(document.progress) },
      { header: 'UPDATED', value: (document) => formatTimestamp(document.updated_at) },
    ],
    page.items,
  );
  return [...table, ...pageFooter(page, request, 'documents', 'planwright documents list')];
}

/** `3 of 41 documents (page 2). Next: … --page 3`, when the list does not fit on one page. */
export function pageFooter(
  page: ListPage<unknown>,
  request: PageRequest,
  noun: string,
  command: string,
): string[] {
  if (page.total <= page.items.length && request.page === 1) return [];
  const size = request.pageSize ?? page.items.length;
  const more = (request.page - 1) * size + page.items.length < page.total;
  const sizeFlag = request.pageSize === undefined ? '' : ` --page-size ${request.pageSize}`;
  return [
    '',
    `${page.items.length} of ${page.total} ${noun} (page ${request.page}).${more ? ` Next: \`${command} --page ${request.page + 1}${sizeFlag}\`` : ''}`,
  ];
}

/** `planwright documents show` for people: fields, description, outline with finalized marks. */
export function documentDetailLines(document: DocumentDetail): string[] {
  const { progress } = document;
  const description =
    document.description.trim() === '' ? [DOCUMENT_TEXTS.noDescription] : terminalLines(document.description);
  return [
    documentTitle({ title: terminalText(document.title) }),
    ...formatFields([
      ['UUID', terminalText(document.uuid)],
      ['Status', terminalText(statusLabel(document.status))],
      ['Progress', `${progress.percent}% (${formatProgress(progress)})`],
      [
        'Blueprint',
        document.blueprint ? terminalText(document.blueprint.title || document.blueprint.uuid) : 'none',
      ],
      ['Created', formatTimestamp(document.created_at)],
      ['Updated', formatTimestamp(document.updated_at)],
      ['Revision', document.revision === null ? '-' : String(document.revision)],
    ]),
    '',
    'Description:',
    ...description.map((line) => `  ${line}`),
    '',
    'Outline:',
    ...outlineLines(document.sections, 'finalized'),
  ];
}
