import { outlineOf } from '@planwright/sdk';
import {
  createDocumentContent,
  type DocumentJson,
  deleteSection,
  deleteSubsection,
  insertSectionAfter,
  insertSubsection,
  moveSectionTo,
  moveSubsectionTo,
  renameSection,
  renameSubsection,
  type StructureResult,
  setSubsectionFinalized,
} from '@planwright/sdk/model';
import {
  createFakeServer,
  currentUser,
  type FakeServer,
  json,
  type SeenRequest,
} from '../support/fake-server';
import { blueprintFixture, documentFixture, serveWorkspace } from '../support/fake-workspace';

/** The little of `node:fs` the corpus needs. The web project has no Node types, so it is loaded untyped. */
interface CorpusFs {
  readFileSync(path: URL, encoding: 'utf8'): string;
}

const fs = (await import(/* @vite-ignore */ `node:${'fs'}`)) as CorpusFs;

/**
 * A file of the shared test corpus, beside the repository in `../shared/corpus` (PLANWRIGHT_CORPUS_DIR
 * overrides it, as for the SDK's tests). A missing corpus fails the test: it is never skipped.
 */
export function readCorpusFile(relative: string): string {
  const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env;
  const dir = env?.PLANWRIGHT_CORPUS_DIR;
  // Not `new URL(literal, import.meta.url)`: Vite would turn that into an asset import of a file outside the app.
  const here = import.meta.url;
  const root = dir
    ? `file://${dir.endsWith('/') ? dir : `${dir}/`}`
    : new URL('../../../../../shared/corpus/', here);
  const url = new URL(relative, root);
  return fs.readFileSync(url, 'utf8');
}

/** The Big List of Naughty Strings from the shared corpus. */
export function hostileStrings(): string[] {
  return JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];
}

/** Section and subsection uuids of {@link planContent}. */
export const IDS = {
  market: '10000000-0000-4000-8000-000000000001',
  size: '10000000-0000-4000-8000-000000000011',
  rivals: '10000000-0000-4000-8000-000000000012',
  product: '10000000-0000-4000-8000-000000000002',
  finance: '10000000-0000-4000-8000-000000000003',
  forecast: '10000000-0000-4000-8000-000000000031',
} as const;

/** A plan of three sections: Market (Size, Rivals), Product (no subsections), Finance (Forecast, finalized). */
export function planContent(): DocumentJson {
  let next = 0;
  return createDocumentContent(
    [
      {
        uuid: IDS.market,
        title: 'Market',
        subsections: [
          { uuid: IDS.size, title: 'Size' },
          { uuid: IDS.rivals, title: '' },
        ],
      },
      { uuid: IDS.product, title: 'Product', subsections: [] },
      {
        uuid: IDS.finance,
        title: 'Finance',
        subsections: [{ uuid: IDS.forecast, title: 'Forecast', finalized: true }],
      },
    ],
    { generateId: () => `20000000-0000-4000-8000-${String(++next).padStart(12, '0')}` },
  );
}

export const SESSION = { token: 'token-1', email: 'ada@example.com', name: 'Ada Lovelace' };

type Row = Record<string, unknown>;

/** The settings of a section or subsection (`docs/http-api.md`), kept per uuid in a row's `settings`. */
const SETTING_FIELDS = ['developer_prompt', 'user_hint', 'tool_mode', 'mcp_url'] as const;

function settingsFor(row: Row | undefined, uuid: string): Row {
  const stored = (row?.settings as Record<string, Row> | undefined)?.[uuid] ?? {};
  return { developer_prompt: '', user_hint: '', tool_mode: '', mcp_url: '', ...stored };
}

function sectionAnswer(content: DocumentJson, uuid: string, row?: Row): Row | undefined {
  const section = outlineOf(content).sections.find((candidate) => candidate.uuid === uuid);
  if (!section) return undefined;
  return {
    uuid: section.uuid,
    title: section.title,
    order: section.order,
    ...settingsFor(row, section.uuid),
    subsections: section.subsections.map((subsection) => ({
      uuid: subsection.uuid,
      title: subsection.title,
      order: subsection.order,
      finalized: subsection.finalized,
      ...settingsFor(row, subsection.uuid),
    })),
  };
}

function subsectionAnswer(
  content: DocumentJson,
  sectionUuid: string,
  uuid: string,
  row?: Row,
): Row | undefined {
  const section = sectionAnswer(content, sectionUuid, row);
  const subsections = (section?.subsections ?? []) as Row[];
  return subsections.find((candidate) => candidate.uuid === uuid);
}

/** A row's `sections` as the server answers them: the outline of its content with each part's settings. */
export function sectionsOfRow(row: Row): Row[] {
  const content = row.content as DocumentJson;
  return outlineOf(content).sections.flatMap((section): Row[] => {
    const answer = sectionAnswer(content, section.uuid, row);
    return answer ? [answer] : [];
  });
}

/**
 * Stores the settings fields of a section or subsection write; `true` when any was sent. The MCP rule of
 * `docs/http-api.md`: a URL with another mode is refused (400 naming `mcp_url`), other modes store `''`.
 */
function storeSettings(row: Row, uuid: string, body: Row): boolean | Response {
  const sent = SETTING_FIELDS.filter((field) => typeof body[field] === 'string');
  if (sent.length === 0) return false;
  const next = {
    ...settingsFor(row, uuid),
    ...Object.fromEntries(sent.map((field) => [field, body[field]])),
  };
  if (next.tool_mode !== 'mcp' && next.mcp_url !== '') {
    return json(
      {
        detail: 'Invalid input: mcp_url',
        code: 'invalid',
        errors: [{ param: 'mcp_url', code: 'mcp_disabled', message: 'Enable MCP to set a URL.' }],
      },
      400,
    );
  }
  row.settings = { ...(row.settings as Record<string, Row> | undefined), [uuid]: next };
  return true;
}

/** The uuid a create command answered. */
function createdUuid(result: StructureResult<object>): string {
  return result.ok && 'uuid' in result && typeof result.uuid === 'string' ? result.uuid : '';
}

function notFound(what: string): Response {
  return json({ detail: `${what} not found.`, code: 'not_found' }, 404);
}

function stale(row: Row, request: SeenRequest): Response | undefined {
  const ifMatch = request.headers.get('if-match');
  if (ifMatch === null || ifMatch === '*') return undefined;
  if (Number(ifMatch.replaceAll('"', '')) === row.revision) return undefined;
  return json(
    {
      detail: 'This document was changed since you loaded it.',
      code: 'revision_mismatch',
      current_revision: row.revision,
    },
    412,
  );
}

/**
 * The section and subsection calls of `docs/http-api.md` on top of `serveWorkspace`'s documents (or blueprints):
 * each changes the stored content tree with the SDK's own structure commands (and settings), checks `If-Match`
 * and bumps the revision, and answers as the contract says (creates carry the parent; updates the item; deletes
 * 204). The row's `sections` follow. Also the global system prompt.
 */
export function serveSections(
  server: FakeServer,
  documents: Map<string, Row>,
  resource: 'documents' | 'blueprints' = 'documents',
) {
  const parentKey = resource === 'documents' ? 'document' : 'blueprint';
  const base = `/api/v1/${resource}/:uuid/sections/`;
  const write = (
    request: SeenRequest,
    change: (content: DocumentJson, row: Row) => StructureResult<object> | Response,
    answer: (content: DocumentJson, row: Row, result: StructureResult<object>) => Response,
  ): Response => {
    const row = documents.get(request.params.uuid ?? '');
    if (!row) return notFound('Document');
    const refused = stale(row, request);
    if (refused) return refused;
    const result = change(row.content as DocumentJson, row);
    if (result instanceof Response) return result;
    if (!result.ok) {
      return result.reason === 'last_section'
        ? json({ detail: 'A document keeps at least one section.', code: 'last_section' }, 409)
        : notFound('Section');
    }
    if (result.changed) Object.assign(row, { content: result.doc, revision: Number(row.revision) + 1 });
    row.sections = sectionsOfRow(row);
    return answer(row.content as DocumentJson, row, result);
  };
  const etag = (row: Row) => ({ etag: `"${String(row.revision)}"` });
  const body = (request: SeenRequest) => (request.body ?? {}) as Row;

  server
    .on(`POST ${base}`, (request) =>
      write(
        request,
        (content) => {
          const { title, after, order } = body(request);
          const inserted = insertSectionAfter(content, typeof after === 'string' ? after : null, {
            title: typeof title === 'string' ? title : null,
          });
          if (!inserted.ok || typeof order !== 'number') return inserted;
          const moved = moveSectionTo(inserted.doc, inserted.uuid, order);
          return moved.ok ? { ...moved, uuid: inserted.uuid, changed: true } : moved;
        },
        (content, row, result) =>
          json({ ...sectionAnswer(content, createdUuid(result), row), [parentKey]: row }, 201, etag(row)),
      ),
    )
    .on(`PATCH ${base}:sid/`, (request) =>
      write(
        request,
        (content, row) => {
          const { title, order } = body(request);
          const sid = request.params.sid ?? '';
          if (!sectionAnswer(content, sid)) return notFound('Section');
          const settings = storeSettings(row, sid, body(request));
          if (settings instanceof Response) return settings;
          let result: StructureResult = { ok: true, doc: content, changed: settings };
          if (typeof title === 'string') result = renameSection(content, sid, title);
          if (result.ok && typeof order === 'number') {
            const moved = moveSectionTo(result.doc, sid, order);
            result = moved.ok ? { ...moved, changed: moved.changed || result.changed } : moved;
          }
          return result;
        },
        (content, row) => json(sectionAnswer(content, request.params.sid ?? '', row), 200, etag(row)),
      ),
    )
    .on(`DELETE ${base}:sid/`, (request) =>
      write(
        request,
        (content) => deleteSection(content, request.params.sid ?? ''),
        (_content, row) => new Response(null, { status: 204, headers: etag(row) }),
      ),
    )
    .on(`POST ${base}:sid/subsections/`, (request) =>
      write(
        request,
        (content) => {
          const { title, order } = body(request);
          return insertSubsection(content, request.params.sid ?? '', {
            title: typeof title === 'string' ? title : null,
            order: typeof order === 'number' ? order : null,
          });
        },
        (content, row, result) => {
          const sid = request.params.sid ?? '';
          const created = subsectionAnswer(content, sid, createdUuid(result), row);
          return json(
            { ...created, section: { ...sectionAnswer(content, sid, row), [parentKey]: row } },
            201,
            etag(row),
          );
        },
      ),
    )
    .on(`PATCH ${base}:sid/subsections/:sub/`, (request) =>
      write(
        request,
        (content, row) => {
          const { title, order, finalized } = body(request);
          const sub = request.params.sub ?? '';
          if (!subsectionAnswer(content, request.params.sid ?? '', sub)) return notFound('Subsection');
          const settings = storeSettings(row, sub, body(request));
          if (settings instanceof Response) return settings;
          let result: StructureResult = { ok: true, doc: content, changed: settings };
          if (typeof title === 'string') result = renameSubsection(content, sub, title);
          if (result.ok && typeof order === 'number') result = moveSubsectionTo(result.doc, sub, order);
          if (result.ok && typeof finalized === 'boolean')
            result = setSubsectionFinalized(result.doc, sub, finalized);
          return result.ok ? { ...result, changed: true } : result;
        },
        (content, row) =>
          json(
            subsectionAnswer(content, request.params.sid ?? '', request.params.sub ?? '', row),
            200,
            etag(row),
          ),
      ),
    )
    .on(`DELETE ${base}:sid/subsections/:sub/`, (request) =>
      write(
        request,
        (content) => {
          if (!subsectionAnswer(content, request.params.sid ?? '', request.params.sub ?? '')) {
            return notFound('Subsection');
          }
          return deleteSubsection(content, request.params.sub ?? '');
        },
        (_content, row) => new Response(null, { status: 204, headers: etag(row) }),
      ),
    )
    .on(
      'GET /api/v1/apps/global-system-prompt/',
      json({ global_system_prompt: 'You are a careful business-plan assistant.\n<b>not bold</b>' }),
    );
}

/** A fake server with the signed-in user, one document with {@link planContent}, and the section calls. */
export function setupWorkspace(overrides: Row = {}) {
  const server = createFakeServer().on('GET /api/v1/app/me/', json(currentUser()));
  const { documents } = serveWorkspace(server, {
    documents: [documentFixture({ content: planContent(), revision: 4, ...overrides })],
  });
  serveSections(server, documents);
  const document = () => documents.get('doc-1') as Row;
  return { server, documents, document };
}

/** The uuids of the stored document's sections (or of one section's subsections), in order. */
export function storedOrder(row: Row, sectionUuid?: string): string[] {
  const outline = outlineOf(row.content);
  if (sectionUuid === undefined) return outline.sections.map((section) => section.uuid);
  return (
    outline.sections
      .find((section) => section.uuid === sectionUuid)
      ?.subsections.map((subsection) => subsection.uuid) ?? []
  );
}

/** The blueprint the blueprint editor's tests open: {@link planContent}, with a hint and a developer prompt on Market. */
export function setupBlueprintWorkspace(overrides: Row = {}) {
  const server = createFakeServer().on('GET /api/v1/app/me/', json(currentUser()));
  const { blueprints } = serveWorkspace(server, {
    blueprints: [
      blueprintFixture({
        content: planContent(),
        revision: 4,
        system_prompt: 'Write for seed investors.',
        settings: {
          [IDS.market]: { user_hint: 'Who buys, and how many of them?', developer_prompt: 'Cite sources.' },
          [IDS.size]: { tool_mode: 'mcp', mcp_url: 'https://mcp.example.com/sse' },
        },
        ...overrides,
      }),
    ],
  });
  const blueprint = () => blueprints.get('bp-1') as Row;
  blueprint().sections = sectionsOfRow(blueprint());
  serveSections(server, blueprints, 'blueprints');
  return { server, blueprints, blueprint };
}

/** A multipart body the SDK sent (the fake server records JSON bodies only). */
export interface SentForm {
  path: string;
  form: FormData;
}

/** A tiny Markdown outline reader for the fake import: `# ` lines are sections, `## ` lines subsections. */
function markdownSections(markdown: string, prefix: string) {
  let next = 0;
  const uuid = () => `30000000-0000-4000-8000-${String(++next).padStart(12, '0')}`;
  const sections: Array<{
    uuid: string;
    title: string;
    subsections: Array<{ uuid: string; title: string }>;
  }> = [];
  for (const line of markdown.split('\n')) {
    const section = /^# (.+)$/.exec(line);
    const subsection = /^## (.+)$/.exec(line);
    if (section?.[1])
      sections.push({ uuid: uuid(), title: `${prefix}${section[1].trim()}`, subsections: [] });
    else if (subsection?.[1]) {
      if (sections.length === 0) sections.push({ uuid: uuid(), title: `${prefix}Untitled`, subsections: [] });
      sections.at(-1)?.subsections.push({ uuid: uuid(), title: `${prefix}${subsection[1].trim()}` });
    }
  }
  return sections;
}

/** The Markdown the fake export answers: the outline's titles as headings. */
export function outlineMarkdown(content: DocumentJson): string {
  return outlineOf(content)
    .sections.flatMap((section) => [
      `# ${section.title}`,
      ...section.subsections.map((subsection) => `## ${subsection.title}`),
    ])
    .join('\n\n');
}

/** What the fake conversion service answers: a .docx starts with a zip's `PK\x03\x04`. */
export const FAKE_DOCX = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);

/**
 * The import and export calls of `docs/http-api.md` "Import and export" on top of {@link serveWorkspace}'s
 * documents: `POST documents/{uuid}/import/` reads the multipart `file` (only its `# ` and `## ` lines, as
 * Markdown) and `mode`: merge appends the sections titled "(Imported) …", replace swaps the content; the
 * answer is the document plus `import_report`. `GET documents/{uuid}/export` answers the outline as
 * Markdown; the conversion token and export answer {@link FAKE_DOCX} (or text for text formats). The
 * server's fetch is wrapped so multipart bodies are kept in `forms`.
 */
export function serveImportExport(server: FakeServer, documents: Map<string, Row>) {
  const forms: SentForm[] = [];
  const fetch = server.fetch;
  server.fetch = ((input: RequestInfo | URL, init: RequestInit = {}) => {
    if (init.body instanceof FormData) forms.push({ path: new URL(String(input)).pathname, form: init.body });
    return fetch(input, init);
  }) as typeof globalThis.fetch;
  const notes = [
    { code: 'image_dropped', message: '2 images were dropped: documents hold text only.', count: 2 },
    { code: 'table_flattened', message: '1 table became paragraphs.', count: 1 },
  ];
  let tokens = 0;

  server
    .on('POST /api/v1/documents/:uuid/import/', async (request) => {
      const row = documents.get(request.params.uuid ?? '');
      if (!row) return json({ detail: 'Document not found.', code: 'not_found' }, 404);
      const sent = forms.at(-1)?.form;
      const file = sent?.get('file');
      if (!(file instanceof Blob)) return json({ detail: 'No file was sent.', code: 'invalid' }, 400);
      const mode = sent?.get('mode');
      const text = await file.text();
      let next = 0;
      const generateId = () => `40000000-0000-4000-8000-${String(++next).padStart(12, '0')}`;
      const imported = createDocumentContent(
        markdownSections(text, mode === 'replace' ? '' : '(Imported) '),
        { generateId },
      );
      const content =
        mode === 'replace'
          ? imported
          : {
              ...(row.content as DocumentJson),
              content: [...(row.content as DocumentJson).content, ...imported.content],
            };
      Object.assign(row, { content, revision: Number(row.revision) + 1 });
      row.sections = sectionsOfRow(row);
      return json({ ...row, import_report: { format: 'md', notes } }, 200, {
        etag: `"${String(row.revision)}"`,
      });
    })
    .on('GET /api/v1/documents/:uuid/export', (request) => {
      const row = documents.get(request.params.uuid ?? '');
      if (!row) return json({ detail: 'Document not found.', code: 'not_found' }, 404);
      return new Response(outlineMarkdown(row.content as DocumentJson), {
        headers: { 'content-type': 'text/markdown; charset=utf-8' },
      });
    })
    .on('POST /api/v1/apps/tiptap/convert/jwt/', () => {
      tokens += 1;
      return json({ token: `convert-token-${tokens}`, expires_in: 300 });
    })
    .on('POST /api/v1/apps/tiptap/convert/export/', (request) => {
      const { format, content } = (request.body ?? {}) as { format?: string; content?: DocumentJson };
      if (format === 'docx') {
        return new Response(FAKE_DOCX, {
          headers: {
            'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          },
        });
      }
      return new Response(content ? outlineMarkdown(content) : '', {
        headers: { 'content-type': format === 'html' ? 'text/html; charset=utf-8' : 'text/plain' },
      });
    });
  return { forms };
}
