import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DocumentVersion } from '@planwright/sdk';
import { diffDocuments, documentDiffToMarkdown } from '@planwright/sdk/formats';
import type { DocumentJson } from '@planwright/sdk/model';
import { sendJson, startJsonServer, type TestServer } from './http-server.js';
import { documentAnswer, type WorkspaceRequest } from './workspace-server.js';

/** A version as the fake keeps it: what lists show, and the content it holds. */
export type FakeVersion = DocumentVersion & { content: DocumentJson };

/** A plan with versions, as the signed-in caller sees it. */
export interface FakeVersionedPlan {
  uuid: string;
  title: string;
  /** The caller's role: viewers and commenters list and read versions, but may not keep or restore them. */
  role: 'owner' | 'editor' | 'commenter' | 'viewer';
  revision: number;
  content: DocumentJson;
  progress: { finalized: number; total: number };
  /** Newest first, as the server lists them. */
  versions: FakeVersion[];
}

export interface FakeVersionsServer extends TestServer {
  readonly seen: WorkspaceRequest[];
  readonly plans: Map<string, FakeVersionedPlan>;
  readonly tokens: Set<string>;
  issueToken(): string;
}

/** Who the fake's signed-in caller is, as versions name the person who kept them. */
export const FAKE_KEEPER = { username: 'ada', first_name: 'Ada', last_name: 'Lovelace' } as const;

/** When the fake keeps a version (each one a minute after the previous). */
const KEPT_FROM = Date.parse('2026-11-22T12:00:00.000Z');

/**
 * The versions calls of `docs/http-api.md` "Versions" the CLI uses, over in-memory plans: 401 without a live
 * token, 404 `not_found` for an unknown plan or version, 404 `not_permitted` (with the server's reason) for a
 * viewer or commenter keeping or restoring, 409 `version_name_taken` (case aside), `{data, meta.pagination}`
 * lists with `page`/`page_size`, versions found by id or name (case aside), a restore that keeps the plan
 * as it was first (`before_restore`) and answers the document, and the comparison `GET documents/{uuid}/diff/`
 * (`from`, `to` defaulting to `now`, `format=md`) made by the SDK's `diffDocuments`, as the server makes it.
 */
export async function startFakeVersionsServer(
  initial: { plans?: FakeVersionedPlan[] } = {},
): Promise<FakeVersionsServer> {
  const plans = new Map((initial.plans ?? []).map((plan) => [plan.uuid, plan]));
  const tokens = new Set<string>();
  const seen: WorkspaceRequest[] = [];
  let kept = 0;

  const keep = (plan: FakeVersionedPlan, kind: FakeVersion['kind'], name: string | null): FakeVersion => {
    const version: FakeVersion = {
      id: randomUUID(),
      name,
      kind,
      title: plan.title,
      revision: plan.revision,
      progress: { ...plan.progress },
      created_by: { ...FAKE_KEEPER },
      created_at: new Date(KEPT_FROM + 60_000 * kept++).toISOString(),
      content: structuredClone(plan.content),
    };
    plan.versions.unshift(version);
    return version;
  };

  const handle = (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? '';
    const token = header(request, 'x-session-token');
    seen.push({ method, url: request.url ?? '', token, ifMatch: undefined, body });
    if (token === undefined || !tokens.has(token)) {
      return sendJson(response, 401, {
        detail: 'Authentication credentials were not provided.',
        code: 'not_authenticated',
      });
    }
    const diff = /^\/api\/v1\/documents\/([^/]+)\/diff\/$/.exec(url.pathname);
    if (diff && method === 'GET') {
      const compared = plans.get(decodeURIComponent(diff[1] ?? ''));
      if (!compared) return sendJson(response, 404, { detail: 'Document not found.', code: 'not_found' });
      return answerDiff(response, compared, url.searchParams);
    }
    const match = /^\/api\/v1\/documents\/([^/]+)\/versions\/(?:([^/]+)\/(restore\/)?)?$/.exec(url.pathname);
    const plan = match ? plans.get(decodeURIComponent(match[1] ?? '')) : undefined;
    if (!match || !plan) return sendJson(response, 404, { detail: 'Document not found.', code: 'not_found' });
    const wanted = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
    const mayEdit = plan.role === 'owner' || plan.role === 'editor';
    const notPermitted = () =>
      sendJson(response, 404, {
        detail: 'Your role on this document does not let you change it.',
        code: 'not_permitted',
      });

    if (wanted === undefined) {
      if (method === 'GET') {
        const page = Number(url.searchParams.get('page') ?? '1');
        const size = Number(url.searchParams.get('page_size') ?? '20');
        return sendJson(response, 200, {
          data: plan.versions.slice((page - 1) * size, page * size).map(withoutContent),
          meta: { pagination: { total: plan.versions.length, page, page_size: size } },
        });
      }
      if (method === 'POST') {
        if (!mayEdit) return notPermitted();
        const name = String((body as { name?: unknown } | undefined)?.name ?? '').trim();
        if (plan.versions.some((version) => version.name?.toLowerCase() === name.toLowerCase())) {
          return sendJson(response, 409, {
            detail: `This document already has a version named “${name}”.`,
            code: 'version_name_taken',
          });
        }
        return sendJson(response, 201, withoutContent(keep(plan, 'named', name)));
      }
    }

    const version = plan.versions.find(
      (candidate) =>
        candidate.id === wanted?.toLowerCase() || candidate.name?.toLowerCase() === wanted?.toLowerCase(),
    );
    if (method === 'POST' && match[3] !== undefined && !mayEdit) return notPermitted();
    if (!version) {
      return sendJson(response, 404, {
        detail: 'Version not found: it was never kept, or was removed after its retention.',
        code: 'not_found',
      });
    }
    if (method === 'GET' && match[3] === undefined) return sendJson(response, 200, version);
    if (method === 'POST' && match[3] !== undefined) {
      keep(plan, 'before_restore', null);
      plan.title = version.title;
      plan.content = structuredClone(version.content);
      plan.progress = { ...version.progress };
      plan.revision += 1;
      response.setHeader('etag', `"${plan.revision}"`);
      return sendJson(response, 200, {
        ...documentAnswer({ uuid: plan.uuid, title: plan.title, revision: plan.revision }),
        role: plan.role,
        content: plan.content,
      });
    }
    sendJson(response, 404, { detail: 'Not found.', code: 'not_found' });
  };

  const server = await startJsonServer(handle);
  return {
    ...server,
    seen,
    plans,
    tokens,
    issueToken() {
      const token = `token-${randomUUID()}`;
      tokens.add(token);
      return token;
    },
  };
}

/** `GET documents/{uuid}/diff/` over a plan the caller sees: 400 without `from`, 404 for a version it lacks. */
function answerDiff(response: ServerResponse, plan: FakeVersionedPlan, query: URLSearchParams): void {
  const from = query.get('from')?.trim() ?? '';
  const to = query.get('to')?.trim() || 'now';
  if (from === '') {
    sendJson(response, 400, {
      detail: 'Invalid input: from',
      code: 'invalid',
      errors: [{ param: 'from', message: 'Name a version (its id or name) or now' }],
    });
    return;
  }
  const side = (ref: string) => {
    if (ref.toLowerCase() === 'now')
      return { label: 'now', ref: { now: true as const }, content: plan.content };
    const version = plan.versions.find(
      (candidate) =>
        candidate.id === ref.toLowerCase() || candidate.name?.toLowerCase() === ref.toLowerCase(),
    );
    if (!version) return undefined;
    const label =
      version.name !== null ? `“${version.name}”` : `the ${version.kind} version of ${version.created_at}`;
    return { label, ref: withoutContent(version), content: version.content };
  };
  const [before, after] = [side(from), side(to)];
  if (!before || !after) {
    sendJson(response, 404, {
      detail: 'Version not found: it was never kept, or was removed after its retention.',
      code: 'not_found',
    });
    return;
  }
  const changes = diffDocuments(before.content, after.content);
  if (query.get('format') === 'md') {
    response.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' });
    response.end(documentDiffToMarkdown(changes, { from: before.label, to: after.label }));
    return;
  }
  sendJson(response, 200, { from: before.ref, to: after.ref, ...changes });
}

/** A version as lists answer it: without its content. */
export function withoutContent({ content: _content, ...version }: FakeVersion): DocumentVersion {
  return version;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}
