import { readFileSync } from 'node:fs';
import { outlineOf } from '@planwright/sdk/model';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { corpusPath } from '../../../../tests/support/corpus-path.mjs';
import type { SignedInUser } from './signed-in-user.js';
import type { TestApp } from './test-app.js';

/** The Big List of Naughty Strings from the shared corpus. */
export const hostileStrings = JSON.parse(
  readFileSync(corpusPath('hostile-strings/blns.json'), 'utf8'),
) as string[];

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One call to `/api/v1/<path>` as `as` (anonymous without), with a JSON body and extra headers. */
export async function call(
  t: TestApp,
  method: Method,
  path: string,
  options: { as?: SignedInUser | undefined; body?: unknown; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url: `/api/v1/${path}`,
    headers: { ...(options.as ? options.as.headers : {}), ...options.headers },
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
  });
}

/** The seeded default blueprint's uuid, from `blueprints/available/` as anonymous. */
export async function defaultBlueprintId(t: TestApp): Promise<string> {
  const res = await call(t, 'GET', 'blueprints/available/?page_size=100');
  const found = (res.json().data as Array<{ uuid: string; title: string; owner: unknown }>).find(
    (bp) => bp.title === 'Business Plan' && bp.owner === null,
  );
  if (!found) throw new Error('the default blueprint is not available');
  return found.uuid;
}

/** A new document of `user` made from `blueprint` (the default when left out). */
export async function createDocument(
  t: TestApp,
  user: SignedInUser,
  body: { blueprint?: string; title?: string } = {},
) {
  const res = await call(t, 'POST', 'documents/', {
    as: user,
    body: {
      blueprint: body.blueprint ?? (await defaultBlueprintId(t)),
      ...(body.title ? { title: body.title } : {}),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** What the rows of an answer say, in the outline's terms, to compare with `outlineOf(content)`. */
export function rowsOutline(answer: {
  sections: Array<{
    uuid: string;
    blueprint_uuid: string | null;
    title: string;
    order: number;
    subsections: Array<{
      uuid: string;
      blueprint_uuid: string | null;
      title: string;
      order: number;
      finalized?: boolean;
    }>;
  }>;
}) {
  return answer.sections.map((section) => ({
    uuid: section.uuid,
    blueprintUuid: section.blueprint_uuid,
    title: section.title,
    order: section.order,
    subsections: section.subsections.map((subsection) => ({
      uuid: subsection.uuid,
      blueprintUuid: subsection.blueprint_uuid,
      title: subsection.title,
      order: subsection.order,
      finalized: subsection.finalized ?? false,
    })),
  }));
}

/** The outline of a content tree, in the same terms as {@link rowsOutline}. */
export function treeOutline(content: unknown) {
  return outlineOf(content).sections.map((section) => ({
    uuid: section.uuid,
    blueprintUuid: section.blueprintUuid,
    title: section.title,
    order: section.order,
    subsections: section.subsections.map((subsection) => ({
      uuid: subsection.uuid,
      blueprintUuid: subsection.blueprintUuid,
      title: subsection.title,
      order: subsection.order,
      finalized: subsection.finalized,
    })),
  }));
}

/** Asserts that an answer's rows say exactly what its content tree says. */
export function expectRowsMatchTree(answer: Parameters<typeof rowsOutline>[0] & { content: unknown }): void {
  expect(rowsOutline(answer)).toEqual(treeOutline(answer.content));
}
