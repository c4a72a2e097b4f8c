import { type FakeServer, json, type SeenRequest } from './fake-server';

/** The manual clock's start (see `ManualClock`): fixtures are dated relative to it. */
export const NOW = Date.UTC(2026, 0, 15, 9, 0, 0);

/** An ISO time `minutes` before {@link NOW}. */
export function minutesAgo(minutes: number): string {
  return new Date(NOW - minutes * 60_000).toISOString();
}

type Row = Record<string, unknown>;

/** The seeded default blueprint as the server answers it (`docs/http-api.md` "Blueprints"). */
export function defaultBlueprint(overrides: Row = {}): Row {
  return blueprintFixture({
    uuid: 'bp-default',
    title: 'Business Plan',
    description: 'An investor-ready business plan.',
    status: 'published',
    visibility: 'public',
    published_at: minutesAgo(60 * 24 * 30),
    sections_count: 9,
    user: null,
    owner: null,
    publisher: 'Planwright Studio',
    is_owner: false,
    ...overrides,
  });
}

/** A blueprint answer; by default a private draft owned by the caller. */
export function blueprintFixture(overrides: Row = {}): Row {
  return {
    uuid: 'bp-1',
    title: 'Seed round plan',
    description: '',
    status: 'draft',
    version: 1,
    visibility: 'private',
    allowed_orgs: [],
    published_at: null,
    system_prompt: '',
    revision: 1,
    sections_count: 1,
    user: { username: 'ada', first_name: 'Ada', last_name: 'Lovelace' },
    owner: { username: 'ada' },
    publisher: null,
    is_owner: true,
    created_at: minutesAgo(60 * 24 * 3),
    updated_at: minutesAgo(60),
    ...overrides,
  };
}

/** A document answer (a list item carries the same without `content`). */
export function documentFixture(overrides: Row = {}): Row {
  return {
    uuid: 'doc-1',
    title: 'Acme plan',
    description: '',
    status: 'in-progress',
    blueprint: { uuid: 'bp-default', title: 'Business Plan' },
    progress: { finalized: 3, total: 26, percent: 12 },
    revision: 4,
    sections: [],
    created_at: minutesAgo(60 * 24 * 2),
    updated_at: minutesAgo(5),
    ...overrides,
  };
}

/** An activity entry (`docs/http-api.md` "Activity"). */
export function activityFixture(overrides: Row = {}): Row {
  return {
    id: 'act-1',
    actor: { first_name: 'Ada', username: 'ada' },
    actor_label: 'Ada',
    verb: 'renamed',
    message: 'renamed the document to "Acme plan"',
    target: 'document',
    object_id: 'doc-1',
    target_label: 'Acme plan',
    child_target_label: null,
    child_content_type_label: null,
    content_type_label: 'document',
    content_app_label: 'documents',
    severity: 'info',
    level: 1,
    created_at: minutesAgo(5),
    ...overrides,
  };
}

/** `count` activity entries, newest first, a minute apart. */
export function activities(count: number, overrides: Row = {}): Row[] {
  return Array.from({ length: count }, (_, index) =>
    activityFixture({
      id: `act-${index + 1}`,
      message: `entry ${index + 1}`,
      created_at: minutesAgo(index + 1),
      ...overrides,
    }),
  );
}

/** A list answer of the contract: `{data, meta: {pagination}}`. */
export function listAnswer(
  items: readonly unknown[],
  total = items.length,
  page = 1,
  pageSize = 20,
): Response {
  return json({ data: items, meta: { pagination: { total, page, page_size: pageSize } } });
}

function notFound(what: 'Document' | 'Blueprint'): Response {
  return json({ detail: `${what} not found.`, code: 'not_found' }, 404);
}

function withoutContent({ content: _content, ...row }: Row): Row {
  return row;
}

function time(row: Row, field: string): number {
  return Date.parse(String(row[field] ?? row.created_at ?? ''));
}

/** A page of `rows` as `GET …/` answers it: `ordering`, `page`, `page_size` as the contract says. */
function page(rows: readonly Row[], request: SeenRequest): Response {
  const ordering = request.query.get('ordering') ?? '-updated_at';
  const field = ordering.replace(/^-/, '');
  const sign = ordering.startsWith('-') ? -1 : 1;
  const sorted = [...rows].sort((a, b) =>
    field === 'title'
      ? sign * String(a.title).localeCompare(String(b.title))
      : sign * (time(a, field) - time(b, field)),
  );
  const number = Number(request.query.get('page') ?? 1);
  const size = Number(request.query.get('page_size') ?? 20);
  const items = sorted.slice((number - 1) * size, number * size).map(withoutContent);
  return listAnswer(items, rows.length, number, size);
}

/** The `If-Match` check of the contract: 412 with the current revision when it no longer holds. */
function staleWrite(row: Row, request: SeenRequest): Response | undefined {
  const ifMatch = request.headers.get('if-match');
  if (ifMatch === null || ifMatch === '*') return undefined;
  const sent = Number(ifMatch.replace(/^W\//, '').replaceAll('"', ''));
  if (sent === row.revision) return undefined;
  return json(
    {
      detail: 'This document was changed since you loaded it.',
      code: 'revision_mismatch',
      current_revision: row.revision,
    },
    412,
  );
}

function detail(row: Row): Response {
  return json(row, 200, { etag: `"${String(row.revision)}"` });
}

export interface WorkspaceSeed {
  documents?: Row[];
  blueprints?: Row[];
  activities?: Row[];
  organizations?: Row[];
}

/**
 * A stateful stand-in for the documents, blueprints, activity and organisation calls of
 * `docs/http-api.md`, on top of `server`: writes change what later reads answer, `If-Match` is checked,
 * unknown uuids answer 404. A test replaces any single route afterwards with `server.on(...)`.
 */
export function serveWorkspace(server: FakeServer, seed: WorkspaceSeed = {}) {
  const documents = new Map((seed.documents ?? []).map((row) => [String(row.uuid), { ...row }]));
  const blueprints = new Map((seed.blueprints ?? []).map((row) => [String(row.uuid), { ...row }]));
  const feed = [...(seed.activities ?? [])];
  const organizations = [...(seed.organizations ?? [])];
  let created = 0;
  const stamp = new Date(NOW).toISOString();

  const available = () =>
    [...blueprints.values()].filter(
      (row) => row.is_owner === true || (row.status === 'published' && row.visibility === 'public'),
    );

  server
    .on('GET /api/v1/documents/', (request) => page([...documents.values()], request))
    .on('POST /api/v1/documents/', (request) => {
      const body = (request.body ?? {}) as { blueprint?: string | null };
      // No blueprint: the server's seeded default, which exists whatever the list said.
      const blueprint =
        body.blueprint === undefined || body.blueprint === null
          ? (blueprints.get('bp-default') ?? defaultBlueprint())
          : blueprints.get(String(body.blueprint));
      if (!blueprint) {
        return json(
          {
            detail: 'Invalid input.',
            errors: [{ param: 'blueprint', code: 'invalid', message: 'Unknown blueprint.' }],
          },
          400,
        );
      }
      created += 1;
      const row = documentFixture({
        uuid: `doc-new-${created}`,
        title: blueprint.title,
        blueprint: { uuid: blueprint.uuid, title: blueprint.title },
        progress: { finalized: 0, total: 26, percent: 0 },
        revision: 1,
        created_at: stamp,
        updated_at: stamp,
      });
      documents.set(String(row.uuid), row);
      return json(row, 201, { etag: '"1"' });
    })
    .on('GET /api/v1/documents/:uuid/', (request) => {
      const row = documents.get(request.params.uuid ?? '');
      return row ? detail(row) : notFound('Document');
    })
    .on('PATCH /api/v1/documents/:uuid/', (request) => {
      const row = documents.get(request.params.uuid ?? '');
      if (!row) return notFound('Document');
      const stale = staleWrite(row, request);
      if (stale) return stale;
      Object.assign(row, request.body as Row, { revision: Number(row.revision) + 1, updated_at: stamp });
      return detail(row);
    })
    .on('DELETE /api/v1/documents/:uuid/', (request) => {
      const row = documents.get(request.params.uuid ?? '');
      if (!row) return notFound('Document');
      const stale = staleWrite(row, request);
      if (stale) return stale;
      documents.delete(String(row.uuid));
      return new Response(null, { status: 204 });
    })
    .on('GET /api/v1/blueprints/', (request) =>
      page(
        [...blueprints.values()].filter((row) => row.is_owner === true),
        request,
      ),
    )
    .on('GET /api/v1/blueprints/available/', (request) => page(available(), request))
    .on('POST /api/v1/blueprints/', () => {
      created += 1;
      const row = blueprintFixture({
        uuid: `bp-new-${created}`,
        title: 'Untitled Blueprint',
        created_at: stamp,
        updated_at: stamp,
      });
      blueprints.set(String(row.uuid), row);
      return json(row, 201, { etag: '"1"' });
    })
    .on('GET /api/v1/blueprints/:uuid/', (request) => {
      const row = blueprints.get(request.params.uuid ?? '');
      return row ? detail(row) : notFound('Blueprint');
    })
    .on('PATCH /api/v1/blueprints/:uuid/', (request) => {
      const row = blueprints.get(request.params.uuid ?? '');
      if (row?.is_owner !== true) return notFound('Blueprint');
      const stale = staleWrite(row, request);
      if (stale) return stale;
      Object.assign(row, request.body as Row, { revision: Number(row.revision) + 1, updated_at: stamp });
      return detail(row);
    })
    .on('DELETE /api/v1/blueprints/:uuid/', (request) => {
      const row = blueprints.get(request.params.uuid ?? '');
      if (row?.is_owner !== true) return notFound('Blueprint');
      blueprints.delete(String(row.uuid));
      return new Response(null, { status: 204 });
    })
    .on('GET /api/v1/activities/activities/', (request) => {
      const target = request.query.get('target');
      const objectId = request.query.get('object_id');
      const rows = feed.filter(
        (row) => (!target || row.target === target) && (!objectId || row.object_id === objectId),
      );
      return listAnswer(rows.slice(0, Number(request.query.get('page_size') ?? 20)), rows.length);
    })
    .on('GET /api/v1/organizations/', () => listAnswer(organizations));

  return { documents, blueprints, activities: feed, organizations };
}
