import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, startServer, type TestServer } from './http-server.js';

/** One request as the fake saw it. */
export interface WorkspaceRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  token: string | undefined;
  ifMatch: string | undefined;
  /** The `Accept` header, when sent. */
  accept?: string | undefined;
  body: unknown;
}

export interface FakeDocument {
  uuid: string;
  title: string;
  description?: string;
  revision?: number;
  /** Subsections per section: `[true, false]` is one section with one finalized subsection of two. */
  outline?: boolean[][];
  updated_at?: string;
  /** `GET documents/{uuid}/export` answers 500 for it (a converter that crashed). */
  exportFails?: boolean;
}

/** A multipart upload as the fake read it (`POST documents/{uuid}/import/`). */
export interface FakeUpload {
  file: { name: string; bytes: Uint8Array } | undefined;
  mode: string | undefined;
}

export interface FakeBlueprint {
  uuid: string;
  title: string;
  publisher?: string | null;
  owner?: string | null;
  status?: 'draft' | 'published';
  visibility?: 'public' | 'restricted' | 'private' | 'unlisted';
  /** Listed by `blueprints/available/` only (someone else's). */
  availableOnly?: boolean;
  /** The seeded default: `POST documents/` without a blueprint copies it. */
  isDefault?: boolean;
  version?: number;
  allowedOrgs?: string[];
}

export interface FakeWorkspaceServer extends TestServer {
  readonly seen: WorkspaceRequest[];
  readonly documents: Map<string, FakeDocument>;
  readonly blueprints: Map<string, FakeBlueprint>;
  /** Live session tokens. */
  readonly tokens: Set<string>;
  issueToken(): string;
}

const CREATED = '2026-11-22T10:00:00.000Z';

/** The document JSON of `docs/http-api.md` for a fake document. */
export function documentAnswer(document: FakeDocument, withContent = true) {
  const outline = document.outline ?? [[false]];
  const sections = outline.map((subsections, sectionIndex) => ({
    uuid: `${document.uuid}-s${sectionIndex + 1}`,
    blueprint_uuid: null,
    title: `Section ${sectionIndex + 1}`,
    order: sectionIndex + 1,
    developer_prompt: '',
    user_hint: '',
    tool_mode: '',
    mcp_url: '',
    subsections: subsections.map((finalized, subsectionIndex) => ({
      uuid: `${document.uuid}-s${sectionIndex + 1}-${subsectionIndex + 1}`,
      blueprint_uuid: null,
      title: `Part ${sectionIndex + 1}.${subsectionIndex + 1}`,
      order: subsectionIndex + 1,
      finalized,
      developer_prompt: '',
      user_hint: '',
      tool_mode: '',
      mcp_url: '',
    })),
  }));
  const all = outline.flat();
  const finalized = all.filter(Boolean).length;
  return {
    uuid: document.uuid,
    id: document.uuid,
    title: document.title,
    name: document.title,
    description: document.description ?? '',
    status: all.length > 0 && finalized === all.length ? 'completed' : 'in-progress',
    blueprint: { uuid: 'b1000000-0000-4000-8000-000000000000', title: 'Business Plan' },
    progress: {
      finalized,
      total: all.length,
      percent: all.length === 0 ? 0 : Math.round((100 * finalized) / all.length),
    },
    revision: document.revision ?? 1,
    ...(withContent ? { content: { type: 'doc', content: [] } } : {}),
    sections,
    created_at: CREATED,
    updated_at: document.updated_at ?? '2026-11-22T10:05:00.000Z',
  };
}

/** The blueprint JSON of `docs/http-api.md` for a fake blueprint. */
export function blueprintAnswer(blueprint: FakeBlueprint, withContent = true) {
  const owner = blueprint.owner ?? null;
  return {
    uuid: blueprint.uuid,
    id: blueprint.uuid,
    title: blueprint.title,
    name: blueprint.title,
    description: '',
    status: blueprint.status ?? 'published',
    version: blueprint.version ?? 1,
    visibility: blueprint.visibility ?? 'public',
    allowed_orgs: blueprint.allowedOrgs ?? [],
    published_at: (blueprint.status ?? 'published') === 'published' ? CREATED : null,
    system_prompt: 'You help founders.',
    revision: 1,
    ...(withContent ? { content: { type: 'doc', content: [] } } : {}),
    sections: [
      {
        uuid: `${blueprint.uuid}-s1`,
        title: 'Executive Summary',
        order: 1,
        tool_mode: 'web',
        subsections: [{ uuid: `${blueprint.uuid}-s1-1`, title: 'Overview', order: 1, tool_mode: '' }],
      },
    ],
    sections_count: 1,
    user: owner === null ? null : { username: owner, first_name: '', last_name: '' },
    owner: owner === null ? null : { username: owner },
    publisher: blueprint.publisher ?? null,
    is_owner: owner === 'ada',
    created_at: CREATED,
    updated_at: CREATED,
  };
}

/**
 * The documents and blueprints calls of `docs/http-api.md` the CLI uses, over in-memory maps: session
 * tokens, `{data, meta.pagination}` lists with `page`/`page_size`, 404 for unknown uuids, `If-Match`
 * checked (412 with `current_revision`), 401 without a live token. Export and import convert for real
 * with `@planwright/sdk/formats/node` (loaded on the first such request, so other tests never load it).
 */
export async function startFakeWorkspaceServer(
  initial: { documents?: FakeDocument[]; blueprints?: FakeBlueprint[] } = {},
): Promise<FakeWorkspaceServer> {
  const documents = new Map((initial.documents ?? []).map((document) => [document.uuid, { ...document }]));
  const blueprints = new Map((initial.blueprints ?? []).map((blueprint) => [blueprint.uuid, blueprint]));
  const tokens = new Set<string>();
  const seen: WorkspaceRequest[] = [];

  const list = (response: ServerResponse, url: URL, items: unknown[]) => {
    const page = Number(url.searchParams.get('page') ?? '1');
    const size = Number(url.searchParams.get('page_size') ?? '20');
    sendJson(response, 200, {
      data: items.slice((page - 1) * size, page * size),
      meta: { pagination: { total: items.length, page, page_size: size } },
    });
  };

  const handle = (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? '';
    const token = header(request, 'x-session-token');
    const ifMatch = header(request, 'if-match');
    // Only an Accept that asks for something (the import's stream): every fetch sends `*/*` by default.
    const accept = header(request, 'accept');
    const asked = accept && accept !== '*/*' ? { accept } : {};
    seen.push({ method, url: request.url ?? '', token, ifMatch, ...asked, body });
    if (token === undefined || !tokens.has(token)) {
      return sendJson(response, 401, {
        detail: 'Authentication credentials were not provided.',
        code: 'not_authenticated',
      });
    }
    const path = url.pathname;
    const notFound = (what: string) =>
      sendJson(response, 404, { detail: `${what} not found.`, code: 'not_found' });

    if (path === '/api/v1/documents/') {
      if (method === 'GET')
        return list(
          response,
          url,
          [...documents.values()].map((d) => documentAnswer(d, false)),
        );
      if (method === 'POST') {
        const { blueprint, title } = (body ?? {}) as { blueprint?: string | null; title?: string };
        const source =
          blueprint === undefined || blueprint === null
            ? [...blueprints.values()].find((candidate) => candidate.isDefault === true)
            : blueprints.get(blueprint);
        if (!source) {
          return sendJson(response, 400, {
            detail: 'Choose a blueprint you may use.',
            errors: [{ param: 'blueprint', code: 'invalid', message: 'Choose a blueprint you may use.' }],
          });
        }
        const created: FakeDocument = {
          uuid: randomUUID(),
          title: title ?? source.title,
          outline: [[false, false]],
        };
        documents.set(created.uuid, created);
        return sendJson(response, 201, documentAnswer(created));
      }
    }
    const fileMatch = /^\/api\/v1\/documents\/([^/]+)\/(export|import\/)$/.exec(path);
    if (fileMatch) {
      const document = documents.get(decodeURIComponent(fileMatch[1] ?? ''));
      if (!document) return notFound('Document');
      if (fileMatch[2] === 'export' && method === 'GET') {
        return void exportAnswer(response, document, url.searchParams.get('format') ?? 'md').catch(
          (error: unknown) => sendJson(response, 500, { detail: String(error), code: 'server_error' }),
        );
      }
      if (fileMatch[2] === 'import/' && method === 'POST') {
        const streamed = (header(request, 'accept') ?? '').startsWith('application/x-ndjson');
        return void importAnswer(response, document, body as FakeUpload, streamed).catch((error: unknown) =>
          sendJson(response, 500, { detail: String(error), code: 'server_error' }),
        );
      }
    }
    const documentMatch = /^\/api\/v1\/documents\/([^/]+)\/$/.exec(path);
    if (documentMatch) {
      const uuid = decodeURIComponent(documentMatch[1] ?? '');
      const document = documents.get(uuid);
      if (!document) return notFound('Document');
      const revision = document.revision ?? 1;
      if (ifMatch !== undefined && ifMatch !== `"${revision}"`) {
        return sendJson(response, 412, {
          detail: 'This document was changed since you loaded it.',
          code: 'revision_mismatch',
          current_revision: revision,
        });
      }
      if (method === 'GET') return sendJson(response, 200, documentAnswer(document));
      if (method === 'PATCH') {
        const { title } = (body ?? {}) as { title?: string };
        if (title !== undefined) document.title = title;
        document.revision = revision + 1;
        return sendJson(response, 200, documentAnswer(document));
      }
      if (method === 'DELETE') {
        documents.delete(uuid);
        response.writeHead(204).end();
        return;
      }
    }
    if (path === '/api/v1/blueprints/' && method === 'GET') {
      return list(
        response,
        url,
        [...blueprints.values()].filter((b) => b.owner === 'ada').map((b) => blueprintAnswer(b, false)),
      );
    }
    if (path === '/api/v1/blueprints/available/' && method === 'GET') {
      return list(
        response,
        url,
        [...blueprints.values()].map((b) => blueprintAnswer(b, false)),
      );
    }
    if (path === '/api/v1/blueprints/' && method === 'POST') {
      const title = (body as { title?: string } | undefined)?.title ?? 'Untitled Blueprint';
      const created: FakeBlueprint = {
        uuid: `bp-new-${blueprints.size + 1}`,
        title,
        owner: 'ada',
        status: 'draft',
        visibility: 'private',
      };
      blueprints.set(created.uuid, created);
      return sendJson(response, 201, blueprintAnswer(created));
    }
    // The publication rules of docs/http-api.md, as far as the CLI's tests need them.
    const publication = /^\/api\/v1\/blueprints\/([^/]+)\/(publish|unpublish)\/$/.exec(path);
    if (publication && method === 'POST') {
      const blueprint = blueprints.get(decodeURIComponent(publication[1] ?? ''));
      if (blueprint?.owner !== 'ada') return notFound('Blueprint');
      if (publication[2] === 'unpublish') {
        blueprint.status = 'draft';
        return sendJson(response, 200, blueprintAnswer(blueprint));
      }
      const input = (body ?? {}) as {
        visibility?: FakeBlueprint['visibility'];
        allowed_orgs?: string[];
        version?: number;
      };
      const current = blueprint.version ?? 1;
      const published = (blueprint.status ?? 'published') === 'published';
      const version = input.version ?? (published ? current + 1 : current);
      if (published && version <= current) {
        return sendJson(response, 400, {
          detail: 'Invalid input: version',
          code: 'invalid',
          errors: [
            { param: 'version', code: 'version_not_newer', message: `Publish a version above ${current}.` },
          ],
        });
      }
      blueprint.status = 'published';
      blueprint.version = version;
      if (input.visibility) blueprint.visibility = input.visibility;
      blueprint.allowedOrgs =
        blueprint.visibility === 'restricted' ? (input.allowed_orgs ?? blueprint.allowedOrgs ?? []) : [];
      return sendJson(response, 200, blueprintAnswer(blueprint));
    }
    const blueprintMatch = /^\/api\/v1\/blueprints\/([^/]+)\/$/.exec(path);
    if (blueprintMatch && method === 'GET') {
      const blueprint = blueprints.get(decodeURIComponent(blueprintMatch[1] ?? ''));
      return blueprint ? sendJson(response, 200, blueprintAnswer(blueprint)) : notFound('Blueprint');
    }
    sendJson(response, 404, { detail: 'Not found.', code: 'not_found' });
  };

  const server = await startServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
    });
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const type = header(request, 'content-type') ?? '';
      if (type.startsWith('multipart/form-data')) {
        void readUpload(raw, type).then((upload) => handle(request, response, upload));
        return;
      }
      const text = raw.toString('utf8');
      handle(request, response, text === '' ? undefined : JSON.parse(text));
    });
  });
  return {
    ...server,
    seen,
    documents,
    blueprints,
    tokens,
    issueToken() {
      const token = `token-${randomUUID()}`;
      tokens.add(token);
      return token;
    },
  };
}

/** The `file` and `mode` fields of a multipart body, read by the platform's own `FormData` parser. */
async function readUpload(raw: Buffer, contentType: string): Promise<FakeUpload> {
  const form = await new Response(new Uint8Array(raw), {
    headers: { 'content-type': contentType },
  }).formData();
  const file = form.get('file');
  const mode = form.get('mode');
  return {
    file:
      file instanceof Blob
        ? { name: (file as File).name, bytes: new Uint8Array(await file.arrayBuffer()) }
        : undefined,
    mode: typeof mode === 'string' ? mode : undefined,
  };
}

/** A small real document for a fake one: one section per outline entry, its subsections, a paragraph. */
function markdownOf(document: FakeDocument): string {
  const outline = document.outline ?? [[false]];
  return outline
    .map((subsections, index) =>
      [
        `# Section ${index + 1}`,
        ...subsections.map((_, sub) => `## Part ${index + 1}.${sub + 1}\n\nText of ${document.title}.`),
      ].join('\n\n'),
    )
    .join('\n\n');
}

const CONTENT_TYPES: Record<string, string> = {
  md: 'text/markdown; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/** `GET documents/{uuid}/export[?format=]`: the fake document converted by the SDK, as the server sends it. */
async function exportAnswer(response: ServerResponse, document: FakeDocument, format: string): Promise<void> {
  const contentType = CONTENT_TYPES[format];
  if (!contentType) return sendJson(response, 400, { detail: 'Unknown format.', code: 'invalid' });
  if (document.exportFails) {
    return sendJson(response, 500, { detail: 'The document could not be converted.', code: 'server_error' });
  }
  const formats = await import('@planwright/sdk/formats');
  const node = await import('@planwright/sdk/formats/node');
  const { document: content } = formats.markdownToDocument(markdownOf(document));
  const bytes = await node.exportDocument(content, format as 'md', { title: document.title });
  const name = formats.exportFileName(document.title, format as 'md');
  response.writeHead(200, {
    'content-type': contentType,
    'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
  });
  response.end(bytes);
}

/** The fake's upload limit (the real one is a server setting). */
export const FAKE_IMPORT_MAX_BYTES = 1_000_000;

/**
 * `POST documents/{uuid}/import/`: .md and .docx only (415 otherwise), at most {@link FAKE_IMPORT_MAX_BYTES} (413), converted by the SDK (a
 * `FormatError` answers 422 with its message and reason); `merge` appends the new sections, `replace`
 * swaps them in.
 */
async function importAnswer(
  response: ServerResponse,
  document: FakeDocument,
  upload: FakeUpload,
  streamed: boolean,
): Promise<void> {
  const file = upload.file;
  const format = /\.(md|docx)$/i.exec(file?.name ?? '')?.[1]?.toLowerCase() as 'md' | 'docx' | undefined;
  if (!file || !format) {
    return sendJson(response, 415, {
      detail: 'Unsupported file type: only .md, .docx files can be imported.',
      code: 'unsupported_format',
    });
  }
  if (file.bytes.length > FAKE_IMPORT_MAX_BYTES) {
    return sendJson(response, 413, { detail: 'The file is larger than 1 MB.', code: 'too_large' });
  }
  const [sdk, node] = await Promise.all([import('@planwright/sdk'), import('@planwright/sdk/formats/node')]);
  let result: Awaited<ReturnType<typeof node.importDocument>>;
  try {
    result = await node.importDocument(file.bytes, format);
  } catch (error) {
    if (!sdk.FormatError.isInstance(error)) throw error;
    return sendJson(response, 422, { detail: error.message, code: error.reason });
  }
  const imported = result.document.content.map((section) =>
    section.content.filter((node) => node.type === 'subsection').map(() => false),
  );
  document.outline = upload.mode === 'replace' ? imported : [...(document.outline ?? [[false]]), ...imported];
  document.revision = (document.revision ?? 1) + 1;
  const body = { ...documentAnswer(document), import_report: result.report };
  if (!streamed) return sendJson(response, 200, body);
  // The phases a real server streams, with fixed figures (FAKE_IMPORT_PROGRESS), then the result.
  response.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8' });
  for (const event of FAKE_IMPORT_PROGRESS) response.write(`${JSON.stringify(event)}\n`);
  response.end(`${JSON.stringify({ type: 'result', etag: `"${document.revision}"`, body })}\n`);
}

/** The progress events the fake streams before an import's result (`Accept: application/x-ndjson`). */
export const FAKE_IMPORT_PROGRESS = [
  { type: 'progress', phase: 'queued', ahead: 2, waited_ms: 0, limit_ms: 30_000 },
  { type: 'progress', phase: 'queued', ahead: 0, waited_ms: 1_000, limit_ms: 30_000 },
  { type: 'progress', phase: 'converting', elapsed_ms: 0, limit_ms: 37_800 },
  { type: 'progress', phase: 'converting', elapsed_ms: 12_400, limit_ms: 37_800 },
  { type: 'progress', phase: 'saving' },
] as const;

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}
