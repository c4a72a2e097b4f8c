import { readFileSync } from 'node:fs';
import {
  ApiError,
  AuthRequiredError,
  type BlueprintDetail,
  type BlueprintVisibility,
  createPlanwrightClient,
  type DocumentDetail,
  InvalidInputError,
  MemoryTokenStore,
  type PlanwrightClient,
  preferredBlueprint,
  RevisionConflictError,
  type Section,
} from '@planwright/sdk';
import {
  type DocumentJson,
  deleteSection,
  deleteSubsection,
  insertSectionAfter,
  insertSubsection,
  moveSectionTo,
  moveSubsectionTo,
  outlineOf,
  type ParagraphJson,
  renameSection,
  renameSubsection,
  type StructureResult,
  setSubsectionFinalized,
} from '@planwright/sdk/model';
import { lastKeyFor } from '@planwright/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from '../support/corpus.js';
import { apiErrorOf, rejectionOf } from '../support/sdk-accounts.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The SDK's documents, blueprints, sections, organisations, activity and system-prompt calls against
 * the real server over real HTTP: docs/http-api.md read by both halves and checked against each other.
 * One server for the file (PGlite takes seconds to start); every test signs up the users it needs.
 */
const GLOBAL_PROMPT = 'You help founders write investor-ready plans.\nCite your sources.';
const PASSWORD = 'a-sturdy-harbour-passphrase';

/**
 * The server's clock runs ahead of the real one by `skew`: the server allows 20 sign-ups a minute from
 * one address, and this file signs up more than that, so every 15 sign-ups its clock moves on a minute.
 */
let skew = 0;
const serverNow = () => Date.now() + skew;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: { PLANWRIGHT_GLOBAL_SYSTEM_PROMPT: GLOBAL_PROMPT },
    now: () => new Date(serverNow()),
  });
});
afterAll(async () => {
  await server?.close();
});

interface Account {
  client: PlanwrightClient;
  email: string;
  /** The local part of the address: how other users see this one. */
  username: string;
}

let counter = 0;
/** A new verified, signed-in account. */
async function signUp(prefix: string): Promise<Account> {
  if (++counter % 15 === 0) skew += 61_000;
  const username = `${prefix}-${counter}`;
  const email = `${username}@example.com`;
  const client = createPlanwrightClient({ baseUrl: server.url, tokenStore: new MemoryTokenStore() });
  expect((await client.auth.signup({ email, password: PASSWORD, terms_agreement: true })).kind).toBe(
    'pending',
  );
  const key = await lastKeyFor(server.outboxDir, email, '/account/verify-email/');
  expect((await client.auth.verifyEmail(key)).kind).toBe('authenticated');
  return { client, email, username };
}

/** A client that never signed in: no token is sent. */
const anonymous = () => createPlanwrightClient({ baseUrl: server.url });

/** The `param` of each field error of a 400 answer. */
function fieldParams(error: ApiError): string[] {
  const errors = (error.data as { errors?: { param?: unknown }[] } | undefined)?.errors ?? [];
  return errors.map((entry) => String(entry.param));
}

/** A 404 as the contract says it: not found, in the words of the resource. */
async function expectNotFound(promise: Promise<unknown>, detail = 'Document not found.') {
  const error = await apiErrorOf(promise, 404);
  expect(error.serverCode).toBe('not_found');
  expect(error.detail).toBe(detail);
}

/** The structure command's document; fails the test with its reason otherwise. */
function applied(result: StructureResult): DocumentJson {
  if (!result.ok) throw new Error(`structure command failed: ${result.reason}`);
  return result.doc;
}

function contentOf(document: { content: DocumentJson | null }): DocumentJson {
  if (document.content === null) throw new Error('the answer carried no content');
  return document.content;
}

/** What the outline of the rows says: uuid, title, order, finalized; settings left out. */
function rowsShape(sections: readonly Section[]) {
  return sections.map((section) => ({
    uuid: section.uuid,
    title: section.title,
    order: section.order,
    subsections: section.subsections.map(({ uuid, title, order, finalized }) => ({
      uuid,
      title,
      order,
      finalized,
    })),
  }));
}

/** The same shape, read from a content tree. */
function treeShape(content: DocumentJson) {
  return outlineOf(content).sections.map((section) => ({
    uuid: section.uuid,
    title: section.title,
    order: section.order,
    subsections: section.subsections.map(({ uuid, title, order, finalized }) => ({
      uuid,
      title,
      order,
      finalized,
    })),
  }));
}

/** A section or a subsection. */
type Part = Section | Section['subsections'][number];

/** Every section and subsection by its uuid. */
function partsById(sections: readonly Section[]): Map<string, Part> {
  const parts = new Map<string, Part>();
  for (const section of sections) {
    parts.set(section.uuid, section);
    for (const subsection of section.subsections) parts.set(subsection.uuid, subsection);
  }
  return parts;
}

function settingsOf(part: Part) {
  const { developer_prompt, user_hint, tool_mode, mcp_url } = part;
  return { developer_prompt, user_hint, tool_mode, mcp_url };
}

/** The first paragraph of the tree, wherever it is (a section's body or a subsection's). */
function firstParagraphOf(content: DocumentJson): ParagraphJson {
  const visit = (node: unknown): ParagraphJson | undefined => {
    if (typeof node !== 'object' || node === null) return undefined;
    const { type, content: children } = node as { type?: unknown; content?: unknown };
    if (type === 'paragraph') return node as ParagraphJson;
    return Array.isArray(children) ? children.map(visit).find((found) => found !== undefined) : undefined;
  };
  const paragraph = visit(content);
  if (!paragraph) throw new Error('the tree has no paragraph');
  return paragraph;
}

function firstOf<T>(items: readonly T[], what: string): T {
  const item = items[0];
  if (item === undefined) throw new Error(`expected at least one ${what}`);
  return item;
}

/** Every page of `blueprints/available/` for this client. */
async function allAvailable(client: PlanwrightClient) {
  const items: BlueprintDetail['uuid'][] = [];
  for (let page = 1; ; page++) {
    const answer = await client.blueprints.available({ page, pageSize: 100 });
    items.push(...answer.items.map((blueprint) => blueprint.uuid));
    if (answer.items.length < 100) return items;
  }
}

let defaultBlueprintCache: BlueprintDetail | undefined;
/** The seeded default blueprint, as anyone reads it. */
async function defaultBlueprint(): Promise<BlueprintDetail> {
  if (defaultBlueprintCache) return defaultBlueprintCache;
  const { items } = await anonymous().blueprints.available({ pageSize: 100 });
  const flagged = items.filter((blueprint) => blueprint.is_default);
  expect(flagged).toHaveLength(1);
  defaultBlueprintCache = await anonymous().blueprints.get(firstOf(flagged, 'default blueprint').uuid);
  return defaultBlueprintCache;
}

describe('the default blueprint and new documents', () => {
  it('lists exactly one default blueprint, the studio’s Business Plan with 9 sections, preferred by the SDK', async () => {
    const { items } = await anonymous().blueprints.available({ pageSize: 100 });
    const seeded = await defaultBlueprint();
    expect(preferredBlueprint(items)?.uuid).toBe(seeded.uuid);
    expect(seeded).toMatchObject({
      title: 'Business Plan',
      status: 'published',
      visibility: 'public',
      publisher: 'Planwright Studio',
      user: null,
      owner: null,
      is_owner: false,
      is_default: true,
      sections_count: 9,
    });
    expect(seeded.sections).toHaveLength(9);
    expect(seeded.system_prompt.trim()).not.toBe('');
    expect(seeded.published_at).not.toBeNull();
    expect(rowsShape(seeded.sections)).toEqual(treeShape(contentOf(seeded)));
  });

  it('makes a document from it: sections, subsections, settings and content copied; title defaults to the blueprint’s', async () => {
    const { client } = await signUp('creator');
    const seeded = await defaultBlueprint();
    const document = await client.documents.create({ blueprint: seeded.uuid });

    expect(document).toMatchObject({
      title: 'Business Plan',
      description: '',
      status: 'in-progress',
      blueprint: { uuid: seeded.uuid, title: 'Business Plan' },
      revision: 1,
    });
    expect(document.sections).toHaveLength(9);
    const subsections = document.sections.flatMap((section) => section.subsections);
    expect(document.progress).toEqual({ finalized: 0, total: subsections.length, percent: 0 });
    expect(subsections.length).toBeGreaterThan(9);
    expect(rowsShape(document.sections)).toEqual(treeShape(contentOf(document)));

    // Each part points at the blueprint part it was copied from, with the same title and settings.
    const blueprintParts = partsById(seeded.sections);
    for (const section of document.sections) {
      const source = blueprintParts.get(section.blueprint_uuid ?? '');
      expect(source, section.title).toBeDefined();
      expect(section.title).toBe(source?.title);
      expect(settingsOf(section)).toEqual(source && settingsOf(source));
      for (const subsection of section.subsections) {
        const sourceSub = blueprintParts.get(subsection.blueprint_uuid ?? '');
        expect(subsection.title).toBe(sourceSub?.title);
        expect(settingsOf(subsection)).toEqual(sourceSub && settingsOf(sourceSub));
        expect(subsection.finalized).toBe(false);
      }
    }
    expect(document.sections.some((section) => section.developer_prompt.trim() !== '')).toBe(true);

    // A second copy is a separate document with the same structure.
    const titled = await client.documents.create({ blueprint: seeded.uuid, title: '  Acme plan ' });
    expect(titled.title).toBe('Acme plan');
    expect(titled.uuid).not.toBe(document.uuid);
    expect(titled.sections.map((section) => section.blueprint_uuid)).toEqual(
      document.sections.map((section) => section.blueprint_uuid),
    );
  });

  it('refuses a blueprint that does not exist or is not one the caller may use, naming the field', async () => {
    const { client } = await signUp('refused');
    const { client: other } = await signUp('drafter');
    const draft = await other.blueprints.create({ title: 'Somebody’s draft' });
    for (const blueprint of ['00000000-0000-4000-8000-000000000000', draft.uuid, 'not-a-uuid']) {
      const error = await apiErrorOf(client.documents.create({ blueprint }), 400);
      expect(fieldParams(error)).toContain('blueprint');
    }
    expect((await client.documents.list()).total).toBe(0);
    // The SDK says so itself before sending anything.
    expect(InvalidInputError.isInstance(await rejectionOf(client.documents.create({ blueprint: ' ' })))).toBe(
      true,
    );
  });
});

describe('documents: get, update, delete, revisions', () => {
  it('reads with the revision in the body and as the ETag; writes bump it', async () => {
    const { client } = await signUp('reader');
    const created = await client.documents.create({ blueprint: (await defaultBlueprint()).uuid });
    const response = await client.http.raw('GET', `documents/${created.uuid}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"1"');
    expect(((await response.json()) as { revision: number }).revision).toBe(1);

    const fetched = await client.documents.get(created.uuid);
    expect(fetched).toEqual(created);

    const renamed = await client.documents.update(created.uuid, {
      title: 'Acme plan',
      description: 'Seed round.\n\nSecond paragraph.',
    });
    expect(renamed).toMatchObject({
      title: 'Acme plan',
      description: 'Seed round.\n\nSecond paragraph.',
      revision: 2,
    });
    expect(Date.parse(renamed.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    expect(await client.documents.get(created.uuid)).toEqual(renamed);

    // Uppercase uuids name the same document.
    expect((await client.documents.get(created.uuid.toUpperCase())).uuid).toBe(created.uuid);
  });

  it('refuses a stale If-Match with 412 and writes nothing; accepts "N", W/"N", N and *', async () => {
    const { client } = await signUp('racer');
    const document = await client.documents.create({ blueprint: (await defaultBlueprint()).uuid });
    const current = await client.documents.update(document.uuid, { title: 'Changed elsewhere' });
    expect(current.revision).toBe(2);

    const conflict = await rejectionOf(
      client.documents.update(document.uuid, { title: 'Stale edit', description: 'lost' }, { ifMatch: 1 }),
    );
    expect(RevisionConflictError.isInstance(conflict)).toBe(true);
    expect(conflict).toMatchObject({
      status: 412,
      currentRevision: 2,
      serverCode: 'revision_mismatch',
      detail: 'This document was changed since you loaded it.',
    });
    expect(await client.documents.get(document.uuid)).toEqual(current);

    const deleteConflict = await rejectionOf(client.documents.delete(document.uuid, { ifMatch: 1 }));
    expect(RevisionConflictError.isInstance(deleteConflict)).toBe(true);
    expect(await client.documents.get(document.uuid)).toEqual(current);

    // The other spellings of If-Match the contract accepts.
    let revision = 2;
    for (const ifMatch of [`"${revision}"`, `W/"${revision + 1}"`, `${revision + 2}`, '*']) {
      const response = await client.http.raw('PATCH', `documents/${document.uuid}/`, {
        body: { description: `written with If-Match ${ifMatch}` },
        headers: { 'if-match': ifMatch },
      });
      expect(response.status, ifMatch).toBe(200);
      revision += 1;
      expect(response.headers.get('etag')).toBe(`"${revision}"`);
    }

    const fresh = await client.documents.get(document.uuid);
    await client.documents.delete(document.uuid, { ifMatch: fresh.revision ?? undefined });
    await expectNotFound(client.documents.get(document.uuid));
    expect((await client.documents.list()).items.map((item) => item.uuid)).not.toContain(document.uuid);
  });

  it('rebuilds sections and subsections from content that adds, removes, reorders, renames and finalizes', async () => {
    const { client } = await signUp('outliner');
    const document = await client.documents.create({ blueprint: (await defaultBlueprint()).uuid });
    const before = outlineOf(contentOf(document)).sections;
    const [first, second, third] = before;
    const last = before.at(-1);
    if (!first || !second || !third || !last) throw new Error('the default blueprint has 9 sections');
    const [firstSub, secondSub] = first.subsections;
    const lastSubOfThird = third.subsections.at(-1);
    if (!firstSub || !secondSub || !lastSubOfThird) throw new Error('sections have subsections');

    let content = contentOf(document);
    content = applied(deleteSection(content, second.uuid));
    const added = insertSectionAfter(content, first.uuid, { title: 'Traction' });
    if (!added.ok) throw new Error(added.reason);
    content = added.doc;
    content = applied(moveSectionTo(content, last.uuid, 1));
    content = applied(renameSection(content, third.uuid, 'Go-to-Market'));
    content = applied(deleteSubsection(content, secondSub.uuid));
    const addedSub = insertSubsection(content, first.uuid, { title: 'Milestones', order: 1 });
    if (!addedSub.ok) throw new Error(addedSub.reason);
    content = addedSub.doc;
    content = applied(moveSubsectionTo(content, lastSubOfThird.uuid, 1));
    content = applied(renameSubsection(content, firstSub.uuid, 'The short version'));
    content = applied(setSubsectionFinalized(content, firstSub.uuid, true));

    const answer = await client.documents.update(document.uuid, { content }, { ifMatch: 1 });
    expect(answer.revision).toBe(2);
    expect(rowsShape(answer.sections)).toEqual(treeShape(content));
    expect(rowsShape(answer.sections)).toEqual(treeShape(contentOf(answer)));
    expect(answer.sections.map((section) => section.title).slice(0, 3)).toEqual([
      last.title,
      first.title,
      'Traction',
    ]);
    expect(answer.sections.map((section) => section.uuid)).not.toContain(second.uuid);
    expect(answer.progress.finalized).toBe(1);

    // Parts whose uuid survived keep their settings (and blueprint link); new ones start empty.
    const old = partsById(document.sections);
    for (const section of answer.sections) {
      const parts = [section, ...section.subsections];
      for (const part of parts) {
        const previous = old.get(part.uuid);
        if (previous) {
          expect(settingsOf(part)).toEqual(settingsOf(previous));
          expect(part.blueprint_uuid).toBe(previous.blueprint_uuid);
        } else {
          expect([added.uuid, addedSub.uuid]).toContain(part.uuid);
          expect(settingsOf(part)).toEqual({
            developer_prompt: '',
            user_hint: '',
            tool_mode: '',
            mcp_url: '',
          });
        }
      }
    }

    const fresh = await client.documents.get(document.uuid);
    expect(fresh.sections).toEqual(answer.sections);
    expect(fresh.content).toEqual(answer.content);
    expect(fresh.progress).toEqual(answer.progress);
  });

  it('refuses content that cannot be repaired, naming where, and keeps the document', async () => {
    const { client } = await signUp('breaker');
    const document = await client.documents.create({ blueprint: (await defaultBlueprint()).uuid });
    const broken = {
      type: 'doc',
      content: [{ type: 'section', attrs: { uuid: 'not-a-uuid' }, content: 'x' }],
    };
    const response = await client.http.raw('PATCH', `documents/${document.uuid}/`, {
      body: { content: broken },
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code?: string; errors?: { param: string }[] };
    expect(body.code).toBe('invalid_content');
    expect(body.errors?.every((entry) => entry.param.startsWith('content'))).toBe(true);
    expect(await client.documents.get(document.uuid)).toEqual(document);
  });
});

describe('sections and subsections', () => {
  it('creates, reads, changes, moves, replaces and deletes a document’s sections; each write bumps the revision', async () => {
    const { client } = await signUp('sections');
    const document = await client.documents.create({ blueprint: (await defaultBlueprint()).uuid });
    const [first] = document.sections;
    if (!first) throw new Error('no sections');
    const sections = client.documents.sections;

    const appended = await sections.create(document.uuid, {});
    expect(appended).toMatchObject({ title: 'New Section', order: 10, subsections: [], revision: 2 });
    expect(appended.parent?.sections.map((section) => section.uuid).at(-1)).toBe(appended.uuid);
    expect(rowsShape(appended.parent?.sections ?? [])).toEqual(
      treeShape(contentOf(appended.parent ?? document)),
    );

    const afterFirst = await sections.create(document.uuid, { title: 'Traction', after: first.uuid });
    expect(afterFirst).toMatchObject({ title: 'Traction', order: 2, revision: 3 });
    const atTop = await sections.create(document.uuid, { title: 'Foreword', order: 1 });
    expect(atTop).toMatchObject({ order: 1, revision: 4 });
    const pastTheEnd = await sections.create(document.uuid, { title: 'Appendix', order: 99 });
    expect(pastTheEnd).toMatchObject({ order: 13, revision: 5 });

    const read = await sections.get(document.uuid, first.uuid);
    expect(read).toMatchObject({ uuid: first.uuid, title: first.title, order: 2 });
    expect(settingsOf(read)).toEqual(settingsOf(first));

    const changed = await sections.update(document.uuid, afterFirst.uuid, {
      title: 'Traction so far',
      order: 1,
      developer_prompt: 'Use numbers.',
      user_hint: 'Revenue, users, growth.',
      tool_mode: 'mcp',
      mcp_url: 'https://mcp.example.com/tools',
    });
    expect(changed).toMatchObject({
      title: 'Traction so far',
      order: 1,
      developer_prompt: 'Use numbers.',
      tool_mode: 'mcp',
      mcp_url: 'https://mcp.example.com/tools',
      revision: 6,
    });
    // Another mode drops the URL; a URL with another mode is refused.
    expect((await sections.update(document.uuid, afterFirst.uuid, { tool_mode: 'web' })).mcp_url).toBe('');
    const mcpError = await apiErrorOf(
      sections.update(document.uuid, afterFirst.uuid, { mcp_url: 'https://mcp.example.com' }),
      400,
    );
    expect(JSON.stringify(mcpError.data)).toContain('Enable MCP to set a URL.');

    // The tree follows the rows: the renamed heading, the new order.
    let fresh = await client.documents.get(document.uuid);
    expect(rowsShape(fresh.sections)).toEqual(treeShape(contentOf(fresh)));
    expect(fresh.sections[0]?.title).toBe('Traction so far');
    expect(fresh.revision).toBe(7);

    // A stale If-Match writes nothing.
    const stale = await rejectionOf(
      sections.update(document.uuid, first.uuid, { title: 'Nope' }, { ifMatch: 2 }),
    );
    expect(RevisionConflictError.isInstance(stale)).toBe(true);
    expect(await client.documents.get(document.uuid)).toEqual(fresh);

    // Replacing a section's node: its heading and body come from the node.
    const node = contentOf(fresh).content.find((section) => section.attrs.uuid === first.uuid);
    if (!node) throw new Error('section node not found');
    const replacement = structuredClone(node);
    const heading = replacement.content[0];
    if (heading?.type !== 'sectionHeading') throw new Error('a section starts with its heading');
    heading.content = [{ type: 'text', text: 'Summary, rewritten' }];
    const replaced = await sections.replaceContent(document.uuid, first.uuid, replacement, {
      ifMatch: fresh.revision ?? undefined,
    });
    expect(replaced).toMatchObject({ uuid: first.uuid, title: 'Summary, rewritten', revision: 8 });
    fresh = await client.documents.get(document.uuid);
    expect(outlineOf(contentOf(fresh)).sections.find((section) => section.uuid === first.uuid)?.title).toBe(
      'Summary, rewritten',
    );
    // Its uuid must match the section it replaces.
    const mismatched = { ...replacement, attrs: { ...replacement.attrs, uuid: afterFirst.uuid } };
    await apiErrorOf(sections.replaceContent(document.uuid, first.uuid, mismatched), 400);

    await sections.delete(document.uuid, pastTheEnd.uuid);
    await expectNotFound(sections.get(document.uuid, pastTheEnd.uuid), 'Section not found.');
    fresh = await client.documents.get(document.uuid);
    expect(fresh.sections).toHaveLength(12);
    expect(rowsShape(fresh.sections)).toEqual(treeShape(contentOf(fresh)));
  });

  it('creates, reads, moves, finalizes and deletes subsections; progress and status follow', async () => {
    const { client } = await signUp('subsections');
    const blueprint = await client.blueprints.create({ title: 'Tiny plan' });
    const [onlySection] = blueprint.sections;
    if (!onlySection) throw new Error('a new blueprint has one section');
    await client.blueprints.update(blueprint.uuid, { status: 'published' });
    const document = await client.documents.create({ blueprint: blueprint.uuid });
    const [section] = document.sections;
    const [existing] = section?.subsections ?? [];
    if (!section || !existing) throw new Error('one section with one subsection');
    const subsections = client.documents.sections.subsections;

    const created = await subsections.create(document.uuid, section.uuid, { title: 'Risks', order: 1 });
    expect(created).toMatchObject({ title: 'Risks', order: 1, finalized: false, revision: 2 });
    expect(created.section?.subsections.map((sub) => sub.uuid)).toEqual([created.uuid, existing.uuid]);
    expect(created.parent?.revision).toBe(2);
    const appended = await subsections.create(document.uuid, section.uuid);
    expect(appended).toMatchObject({ title: 'New Subsection', order: 3 });

    expect(await subsections.get(document.uuid, section.uuid, created.uuid)).toMatchObject({
      uuid: created.uuid,
      title: 'Risks',
      order: 1,
    });
    const moved = await subsections.update(document.uuid, section.uuid, created.uuid, {
      order: 3,
      title: 'Risks & mitigations',
    });
    expect(moved).toMatchObject({ order: 3, title: 'Risks & mitigations' });

    for (const sub of [existing, appended, created]) {
      await subsections.update(document.uuid, section.uuid, sub.uuid, { finalized: true });
    }
    let fresh = await client.documents.get(document.uuid);
    expect(fresh.progress).toEqual({ finalized: 3, total: 3, percent: 100 });
    expect(fresh.status).toBe('completed');
    expect(rowsShape(fresh.sections)).toEqual(treeShape(contentOf(fresh)));

    await subsections.update(document.uuid, section.uuid, existing.uuid, { finalized: false });
    await subsections.delete(document.uuid, section.uuid, appended.uuid);
    await expectNotFound(
      subsections.get(document.uuid, section.uuid, appended.uuid),
      'Subsection not found.',
    );
    fresh = await client.documents.get(document.uuid);
    expect(fresh.progress).toEqual({ finalized: 1, total: 2, percent: 50 });
    expect(fresh.status).toBe('in-progress');
    expect(rowsShape(fresh.sections)).toEqual(treeShape(contentOf(fresh)));

    // The only section cannot go.
    const last = await apiErrorOf(client.documents.sections.delete(document.uuid, section.uuid), 409);
    expect(last.serverCode).toBe('last_section');
    expect((await client.documents.get(document.uuid)).revision).toBe(fresh.revision);
  });

  it('does the same on an own blueprint, whose subsections have no finalized state', async () => {
    const { client } = await signUp('bpsections');
    const blueprint = await client.blueprints.create();
    expect(blueprint).toMatchObject({
      title: 'Untitled Blueprint',
      status: 'draft',
      visibility: 'private',
      version: 1,
      is_owner: true,
      is_default: false,
      revision: 1,
    });
    expect(rowsShape(blueprint.sections)).toEqual([
      {
        uuid: expect.any(String),
        title: 'New Section',
        order: 1,
        subsections: [{ uuid: expect.any(String), title: 'New Subsection', order: 1, finalized: false }],
      },
    ]);
    const [only] = blueprint.sections;
    if (!only) throw new Error('one section');
    const sections = client.blueprints.sections;

    const last = await apiErrorOf(sections.delete(blueprint.uuid, only.uuid), 409);
    expect(last.serverCode).toBe('last_section');

    const created = await sections.create(blueprint.uuid, { title: 'Market', order: 1 });
    expect(created).toMatchObject({ title: 'Market', order: 1, revision: 2 });
    expect(created.parent?.sections.map((section) => section.title)).toEqual(['Market', 'New Section']);
    const sub = await sections.subsections.create(blueprint.uuid, created.uuid, { title: 'Size' });
    expect(sub).toMatchObject({ title: 'Size', order: 1, revision: 3 });
    const prompt = await sections.subsections.update(blueprint.uuid, created.uuid, sub.uuid, {
      developer_prompt: 'Top-down and bottom-up.',
      tool_mode: 'research',
    });
    expect(prompt).toMatchObject({
      developer_prompt: 'Top-down and bottom-up.',
      tool_mode: 'research',
      revision: 4,
    });
    await sections.delete(blueprint.uuid, only.uuid);

    const fresh = await client.blueprints.get(blueprint.uuid);
    expect(fresh.revision).toBe(5);
    expect(fresh.sections_count).toBe(1);
    expect(rowsShape(fresh.sections)).toEqual(treeShape(contentOf(fresh)));

    // A document made from it copies the settings.
    await client.blueprints.update(blueprint.uuid, { status: 'published' });
    const document = await client.documents.create({ blueprint: blueprint.uuid });
    expect(document.sections[0]?.subsections[0]).toMatchObject({
      title: 'Size',
      blueprint_uuid: sub.uuid,
      developer_prompt: 'Top-down and bottom-up.',
      tool_mode: 'research',
    });
  });
});

describe('blueprints: visibility, ownership, publishing', () => {
  type Viewer = 'owner' | 'member' | 'other' | 'anonymous';
  type Access = 'listed' | 'link' | 'hidden';
  const VISIBILITY: Record<BlueprintVisibility | 'draft', Record<Viewer, Access>> = {
    public: { owner: 'listed', member: 'listed', other: 'listed', anonymous: 'listed' },
    restricted: { owner: 'listed', member: 'listed', other: 'hidden', anonymous: 'hidden' },
    private: { owner: 'listed', member: 'hidden', other: 'hidden', anonymous: 'hidden' },
    unlisted: { owner: 'listed', member: 'link', other: 'link', anonymous: 'link' },
    // Another user's draft is never visible, whatever its visibility.
    draft: { owner: 'listed', member: 'hidden', other: 'hidden', anonymous: 'hidden' },
  };

  it('follows the visibility table for get, available, own lists and writes', async () => {
    const owner = await signUp('vis-owner');
    const member = await signUp('vis-member');
    const other = await signUp('vis-other');
    const organization = await owner.client.organizations.create({ name: 'Visibility Ventures' });
    await owner.client.organizations.addMember(organization.id, { email: member.email });

    const made = new Map<string, BlueprintDetail>();
    for (const visibility of ['public', 'restricted', 'private', 'unlisted'] as const) {
      const blueprint = await owner.client.blueprints.create({ title: `Vis ${visibility}` });
      const published = await owner.client.blueprints.update(blueprint.uuid, {
        status: 'published',
        visibility,
        allowed_orgs: visibility === 'restricted' ? [organization.id] : [],
      });
      expect(published).toMatchObject({ status: 'published', visibility, revision: 2 });
      expect(published.allowed_orgs).toEqual(visibility === 'restricted' ? [organization.id] : []);
      made.set(visibility, published);
    }
    const draft = await owner.client.blueprints.create({ title: 'Vis draft' });
    made.set('draft', await owner.client.blueprints.update(draft.uuid, { visibility: 'public' }));

    const clients: Record<Viewer, PlanwrightClient> = {
      owner: owner.client,
      member: member.client,
      other: other.client,
      anonymous: anonymous(),
    };
    const available = Object.fromEntries(
      await Promise.all(
        Object.entries(clients).map(
          async ([viewer, client]) => [viewer, await allAvailable(client)] as const,
        ),
      ),
    ) as Record<Viewer, string[]>;

    for (const [kind, rules] of Object.entries(VISIBILITY)) {
      const blueprint = made.get(kind);
      if (!blueprint) throw new Error(kind);
      for (const [viewer, access] of Object.entries(rules) as [Viewer, Access][]) {
        const label = `${kind} blueprint, ${viewer}`;
        const client = clients[viewer];
        if (access === 'hidden') {
          await expectNotFound(client.blueprints.get(blueprint.uuid), 'Blueprint not found.');
        } else {
          const seen = await client.blueprints.get(blueprint.uuid);
          expect(seen.uuid, label).toBe(blueprint.uuid);
          expect(seen.is_owner, label).toBe(viewer === 'owner');
          expect(seen.owner, label).toEqual({ username: owner.username });
          expect(JSON.stringify(seen), label).not.toContain(owner.email);
        }
        expect(available[viewer].includes(blueprint.uuid), label).toBe(access === 'listed');

        // Only the owner may change or delete it: everyone else signed in gets 404, anonymous 401.
        if (viewer === 'owner') continue;
        for (const write of [
          () => client.blueprints.update(blueprint.uuid, { title: 'Hijacked' }),
          () => client.blueprints.delete(blueprint.uuid),
          () => client.blueprints.sections.create(blueprint.uuid, { title: 'Injected' }),
        ]) {
          const error = await rejectionOf(write());
          if (viewer === 'anonymous') {
            expect(AuthRequiredError.isInstance(error), label).toBe(true);
          } else {
            expect(ApiError.isInstance(error) && !AuthRequiredError.isInstance(error), label).toBe(true);
            expect((error as ApiError).status, label).toBe(404);
          }
        }
      }
      // Nothing was changed by anyone.
      expect((await owner.client.blueprints.get(blueprint.uuid)).revision).toBe(blueprint.revision);
    }

    // Own lists: everything for the owner, none of it for the others; anonymous has no own list.
    const ownUuids = (await owner.client.blueprints.list({ pageSize: 100 })).items.map((item) => item.uuid);
    expect(ownUuids.sort()).toEqual([...made.values()].map((blueprint) => blueprint.uuid).sort());
    expect((await member.client.blueprints.list()).total).toBe(0);
    expect(AuthRequiredError.isInstance(await rejectionOf(anonymous().blueprints.list()))).toBe(true);

    // Documents may be made from what the caller may use, and only that.
    const use = async (client: PlanwrightClient, kind: string) =>
      client.documents.create({ blueprint: made.get(kind)?.uuid ?? '' });
    expect((await use(member.client, 'restricted')).blueprint?.uuid).toBe(made.get('restricted')?.uuid);
    expect((await use(other.client, 'public')).sections).toHaveLength(1);
    for (const [client, kind] of [
      [other.client, 'restricted'],
      [member.client, 'private'],
      [other.client, 'draft'],
    ] as const) {
      expect(fieldParams(await apiErrorOf(use(client, kind), 400))).toContain('blueprint');
    }
  });

  it('publishes, unpublishes, stores allowed_orgs only for restricted, and refuses organisations the owner is not in', async () => {
    const owner = await signUp('publisher');
    const stranger = await signUp('stranger');
    const mine = await owner.client.organizations.create({ name: 'Mine' });
    const theirs = await stranger.client.organizations.create({ name: 'Theirs' });
    const blueprint = await owner.client.blueprints.create({ title: 'Lean' });
    expect(blueprint.published_at).toBeNull();

    const started = serverNow();
    const published = await owner.client.blueprints.update(blueprint.uuid, {
      status: 'published',
      visibility: 'public',
      allowed_orgs: [mine.id],
      version: 2,
      description: 'A one-page plan.',
      system_prompt: 'Be brief.',
    });
    expect(published).toMatchObject({
      status: 'published',
      allowed_orgs: [],
      version: 2,
      system_prompt: 'Be brief.',
    });
    const publishedAt = Date.parse(published.published_at ?? '');
    expect(publishedAt).toBeGreaterThanOrEqual(started - 1_000);
    expect(publishedAt).toBeLessThanOrEqual(serverNow() + 1_000);

    // Publishing again keeps the date; a date in the future is never stored.
    const again = await owner.client.blueprints.update(blueprint.uuid, {
      status: 'published',
      title: 'Lean 2',
    });
    expect(again.published_at).toBe(published.published_at);
    const future = await owner.client.blueprints.update(blueprint.uuid, {
      status: 'published',
      published_at: '2999-01-01T00:00:00.000Z',
    });
    expect(Date.parse(future.published_at ?? '')).toBeLessThanOrEqual(serverNow() + 1_000);
    // A draft published with a date in the future gets the server's now.
    await owner.client.blueprints.update(blueprint.uuid, { status: 'draft' });
    const republished = await owner.client.blueprints.update(blueprint.uuid, {
      status: 'published',
      published_at: '2999-01-01T00:00:00.000Z',
    });
    expect(Date.parse(republished.published_at ?? '')).toBeGreaterThan(publishedAt - 1);
    expect(Date.parse(republished.published_at ?? '')).toBeLessThanOrEqual(serverNow() + 1_000);

    const restricted = await owner.client.blueprints.update(blueprint.uuid, {
      visibility: 'restricted',
      allowed_orgs: [mine.id],
    });
    expect(restricted.allowed_orgs).toEqual([mine.id]);
    const notMine = await apiErrorOf(
      owner.client.blueprints.update(blueprint.uuid, { visibility: 'restricted', allowed_orgs: [theirs.id] }),
      400,
    );
    expect(fieldParams(notMine)).toContain('allowed_orgs');
    expect((await owner.client.blueprints.get(blueprint.uuid)).allowed_orgs).toEqual([mine.id]);

    const unpublished = await owner.client.blueprints.update(blueprint.uuid, { status: 'draft' });
    expect(unpublished.published_at).toBeNull();

    const activity = await owner.client.activities.list({
      target: 'blueprint',
      objectId: blueprint.uuid,
      level: 1,
    });
    expect(new Set(activity.items.map((entry) => entry.verb))).toEqual(
      new Set(['created', 'published', 'renamed', 'changed visibility', 'unpublished']),
    );
    expect(activity.items.every((entry) => entry.content_type_label === 'blueprint')).toBe(true);
    expect(activity.items.every((entry) => entry.content_app_label === 'blueprints')).toBe(true);
  });

  it('publish makes a new version each time; documents remember theirs; a lower version is refused naming it', async () => {
    const owner = await signUp('versioner');
    const reader = await signUp('version-reader');
    const blueprint = await owner.client.blueprints.create({ title: 'Versioned' });
    const v1 = await owner.client.blueprints.publish(
      blueprint.uuid,
      { visibility: 'public' },
      { ifMatch: 1 },
    );
    expect(v1).toMatchObject({ status: 'published', version: 1, visibility: 'public', revision: 2 });
    const fromV1 = await reader.client.documents.create({ blueprint: blueprint.uuid });
    expect(fromV1.blueprint_version).toBe(1);

    const v2 = await owner.client.blueprints.publish(blueprint.uuid);
    expect(v2.version).toBe(2);
    expect(Date.parse(v2.published_at ?? '')).toBeGreaterThanOrEqual(Date.parse(v1.published_at ?? ''));
    const notNewer = await apiErrorOf(owner.client.blueprints.publish(blueprint.uuid, { version: 2 }), 400);
    expect(fieldParams(notNewer)).toEqual(['version']);
    const lower = await apiErrorOf(owner.client.blueprints.update(blueprint.uuid, { version: 1 }), 400);
    expect(fieldParams(lower)).toEqual(['version']);

    expect((await reader.client.documents.get(fromV1.uuid)).blueprint_version).toBe(1);
    expect((await reader.client.documents.create({ blueprint: blueprint.uuid })).blueprint_version).toBe(2);
    const draft = await owner.client.blueprints.unpublish(blueprint.uuid);
    expect(draft).toMatchObject({ status: 'draft', version: 2, published_at: null });
    // A draft is the owner's alone again.
    expect((await apiErrorOf(reader.client.blueprints.get(blueprint.uuid), 404)).status).toBe(404);
    expect((await reader.client.documents.get(fromV1.uuid)).sections.length).toBeGreaterThan(0);
  });

  it('deletes an own blueprint (documents made from it keep their structure); nobody deletes the default', async () => {
    const owner = await signUp('deleter');
    const user = await signUp('keeper');
    const blueprint = await owner.client.blueprints.create({ title: 'Short-lived' });
    await owner.client.blueprints.update(blueprint.uuid, { status: 'published', visibility: 'public' });
    const document = await user.client.documents.create({ blueprint: blueprint.uuid });

    await owner.client.blueprints.delete(blueprint.uuid);
    await expectNotFound(owner.client.blueprints.get(blueprint.uuid), 'Blueprint not found.');
    const kept = await user.client.documents.get(document.uuid);
    expect(kept.blueprint).toBeNull();
    expect(rowsShape(kept.sections)).toEqual(rowsShape(document.sections));
    expect(kept.sections.map(settingsOf)).toEqual(document.sections.map(settingsOf));
    expect(treeShape(contentOf(kept))).toEqual(treeShape(contentOf(document)));

    const seeded = await defaultBlueprint();
    await expectNotFound(owner.client.blueprints.delete(seeded.uuid), 'Blueprint not found.');
    await expectNotFound(
      owner.client.blueprints.update(seeded.uuid, { title: 'Mine now' }),
      'Blueprint not found.',
    );
    expect((await anonymous().blueprints.get(seeded.uuid)).revision).toBe(seeded.revision);
  });
});

describe('another user’s documents', () => {
  it('answer 404 to every call, as if they did not exist, and the caller stays signed in', async () => {
    const ada = await signUp('ada');
    const mallory = await signUp('mallory');
    const document = await ada.client.documents.create({ blueprint: (await defaultBlueprint()).uuid });
    const [section] = document.sections;
    const [subsection] = section?.subsections ?? [];
    if (!section || !subsection) throw new Error('sections expected');
    const node = contentOf(document).content[0];
    if (!node) throw new Error('content expected');
    const { documents } = mallory.client;

    const calls: [string, () => Promise<unknown>][] = [
      ['get', () => documents.get(document.uuid)],
      ['update', () => documents.update(document.uuid, { title: 'Mine now' })],
      ['update with If-Match', () => documents.update(document.uuid, { title: 'Mine' }, { ifMatch: 1 })],
      ['delete', () => documents.delete(document.uuid)],
      ['sections.create', () => documents.sections.create(document.uuid, { title: 'Injected' })],
      ['sections.get', () => documents.sections.get(document.uuid, section.uuid)],
      ['sections.update', () => documents.sections.update(document.uuid, section.uuid, { title: 'x' })],
      ['sections.replaceContent', () => documents.sections.replaceContent(document.uuid, section.uuid, node)],
      ['sections.delete', () => documents.sections.delete(document.uuid, section.uuid)],
      ['subsections.create', () => documents.sections.subsections.create(document.uuid, section.uuid)],
      [
        'subsections.get',
        () => documents.sections.subsections.get(document.uuid, section.uuid, subsection.uuid),
      ],
      [
        'subsections.update',
        () =>
          documents.sections.subsections.update(document.uuid, section.uuid, subsection.uuid, {
            finalized: true,
          }),
      ],
      [
        'subsections.delete',
        () => documents.sections.subsections.delete(document.uuid, section.uuid, subsection.uuid),
      ],
    ];
    for (const [name, call] of calls) {
      const error = await rejectionOf(call());
      expect(AuthRequiredError.isInstance(error), name).toBe(false);
      expect(ApiError.isInstance(error) && error.status, name).toBe(404);
      expect((error as ApiError).detail, name).toBe('Document not found.');
    }
    // The same answer as for a document that never existed, or a malformed uuid.
    await expectNotFound(documents.get('00000000-0000-4000-8000-000000000000'));
    await expectNotFound(documents.get('not-a-uuid'));

    expect(mallory.client.tokenStore.getToken()).not.toBeNull();
    expect((await mallory.client.auth.me()).email).toBe(mallory.email);
    expect((await documents.list()).total).toBe(0);
    expect((await mallory.client.activities.list({ objectId: document.uuid })).items).toEqual([]);
    expect(await ada.client.documents.get(document.uuid)).toEqual(document);
  });

  it('asks anonymous callers to sign in (401), never 404', async () => {
    const ada = await signUp('anon-target');
    const document = await ada.client.documents.create({ blueprint: (await defaultBlueprint()).uuid });
    for (const call of [
      () => anonymous().documents.get(document.uuid),
      () => anonymous().documents.list(),
      () => anonymous().documents.delete(document.uuid),
      () => anonymous().activities.list(),
      () => anonymous().organizations.list(),
      () => anonymous().systemPrompt.get(),
    ]) {
      const error = await rejectionOf(call());
      expect(AuthRequiredError.isInstance(error)).toBe(true);
      expect((error as AuthRequiredError).status).toBe(401);
    }
  });
});

describe('lists: pages, ordering and bounds', () => {
  it('pages through documents with the right total, and an empty page past the end', async () => {
    const { client } = await signUp('pager');
    const blueprint = (await defaultBlueprint()).uuid;
    const made: DocumentDetail[] = [];
    for (const title of ['Plan B', 'Plan C', 'Plan A'])
      made.push(await client.documents.create({ blueprint, title }));

    const first = await client.documents.list({ pageSize: 2 });
    expect(first.total).toBe(3);
    expect(first.items).toHaveLength(2);
    const second = await client.documents.list({ page: 2, pageSize: 2 });
    expect(second.items).toHaveLength(1);
    expect([...first.items, ...second.items].map((item) => item.uuid).sort()).toEqual(
      made.map((document) => document.uuid).sort(),
    );
    expect(await client.documents.list({ page: 3, pageSize: 2 })).toEqual({ items: [], total: 3 });
    expect(await client.documents.list({ page: 1000 })).toEqual({ items: [], total: 3 });

    const titles = async (ordering: 'title' | '-title' | 'created_at' | '-created_at' | '-updated_at') =>
      (await client.documents.list({ ordering })).items.map((item) => item.title);
    expect(await titles('title')).toEqual(['Plan A', 'Plan B', 'Plan C']);
    expect(await titles('-title')).toEqual(['Plan C', 'Plan B', 'Plan A']);
    expect(await titles('created_at')).toEqual(['Plan B', 'Plan C', 'Plan A']);
    expect(await titles('-created_at')).toEqual(['Plan A', 'Plan C', 'Plan B']);
    await client.documents.update(made[0]?.uuid ?? '', { description: 'touched' });
    expect(await titles('-updated_at')).toEqual(['Plan B', 'Plan A', 'Plan C']);
    // The default is most recently changed first; list items carry no content.
    const listed = await client.documents.list();
    expect(listed.items.map((item) => item.title)).toEqual(['Plan B', 'Plan A', 'Plan C']);
    expect(listed.items[0]).not.toHaveProperty('content');
    expect(listed.items[0]?.sections).toHaveLength(9);
  });

  it('refuses page sizes of 0, 101 or not whole, and bad pages and orderings, naming the parameter', async () => {
    const { client } = await signUp('bounds');
    // The SDK refuses them before sending anything.
    for (const query of [{ pageSize: 0 }, { pageSize: 101 }, { pageSize: 2.5 }, { page: 0 }]) {
      expect(
        InvalidInputError.isInstance(await rejectionOf(client.documents.list(query))),
        JSON.stringify(query),
      ).toBe(true);
    }
    // The server refuses them too, on every list.
    const bad: [string, string | number][] = [
      ['page_size', 0],
      ['page_size', 101],
      ['page_size', '2.5'],
      ['page_size', 'ten'],
      ['page', 0],
      ['page', -1],
      ['page', '1.0'],
      ['ordering', 'password'],
      ['ordering', '-owner__email'],
    ];
    const lists = [
      'documents/',
      'blueprints/',
      'blueprints/available/',
      'organizations/',
      'activities/activities/',
    ];
    for (const path of lists) {
      for (const [param, value] of bad) {
        // The activity feed has no ordering: unknown parameters are ignored there.
        if (path === 'activities/activities/' && param === 'ordering') continue;
        if (path === 'organizations/' && param === 'ordering') continue;
        const error = await apiErrorOf(client.http.get(path, { params: { [param]: value } }), 400);
        expect(fieldParams(error), `${path}?${param}=${value}`).toContain(param);
      }
    }
    // Anonymous callers get the same bounds on what they may list.
    const anonymousError = await apiErrorOf(
      anonymous().http.get('blueprints/available/', { params: { page_size: 101 } }),
      400,
    );
    expect(fieldParams(anonymousError)).toContain('page_size');
    // 1 and 100 are fine.
    expect((await client.documents.list({ pageSize: 1 })).items).toEqual([]);
    expect((await client.blueprints.available({ pageSize: 100 })).total).toBeGreaterThanOrEqual(1);
  });
});

describe('hostile strings from the corpus', () => {
  const strings = JSON.parse(readFileSync(corpusPath('hostile-strings/blns.json'), 'utf8')) as string[];
  const codePoints = (text: string) => [...text].length;
  const TITLE_REFUSED = /[\p{Cc}\p{Cs}]/u;
  const DESCRIPTION_REFUSED = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;
  const titleAccepted = (text: string) => {
    const trimmed = text.trim();
    return trimmed !== '' && codePoints(trimmed) <= 200 && !TITLE_REFUSED.test(trimmed);
  };
  const descriptionAccepted = (text: string) => codePoints(text) <= 5_000 && !DESCRIPTION_REFUSED.test(text);

  /** Sends `body` as it is (not through the SDK's own checks): the answer, or the field error. */
  async function patch(client: PlanwrightClient, path: string, body: Record<string, string>) {
    const response = await client.http.raw('PATCH', path, { body });
    const answer = (await response.json()) as Record<string, unknown> & { errors?: { param: string }[] };
    return { status: response.status, answer };
  }

  it.each([
    ['documents', 'documents/'],
    ['blueprints', 'blueprints/'],
  ])(
    'round-trip in %s’ titles and descriptions exactly, or are refused with a field error',
    async (kind, base) => {
      expect(strings.length).toBeGreaterThan(500);
      const { client } = await signUp(`hostile-${kind}`);
      const uuid =
        kind === 'documents'
          ? (await client.documents.create({ blueprint: (await defaultBlueprint()).uuid })).uuid
          : (await client.blueprints.create()).uuid;
      const path = `${base}${uuid}/`;
      const read = () => (kind === 'documents' ? client.documents.get(uuid) : client.blueprints.get(uuid));
      const mismatches: string[] = [];

      for (const text of strings) {
        const label = JSON.stringify(text).slice(0, 80);
        for (const field of ['title', 'description'] as const) {
          const { status, answer } = await patch(client, path, { [field]: text });
          const accepted = field === 'title' ? titleAccepted(text) : descriptionAccepted(text);
          // Stored trimmed, titles and descriptions alike (docs/http-api.md only says so of titles).
          const expected = text.trim();
          if (accepted) {
            expect(status, `${field} ${label}: ${JSON.stringify(answer)}`).toBe(200);
            if (answer[field] !== expected)
              mismatches.push(`${field} ${label} came back ${JSON.stringify(answer[field])}`);
          } else {
            expect(status, `${field} ${label}`).toBe(400);
            expect(
              answer.errors?.map((entry) => entry.param),
              `${field} ${label}`,
            ).toContain(field);
          }
        }
        // What a fresh read answers is what was stored.
        const fresh = await read();
        if (titleAccepted(text) && fresh.title !== text.trim()) mismatches.push(`read title ${label}`);
        if (descriptionAccepted(text) && fresh.description !== text.trim())
          mismatches.push(`read description ${label}`);
      }
      expect(mismatches).toEqual([]);
    },
  );

  it('are kept in organisation names, which make a slug', async () => {
    const { client } = await signUp('hostile-orgs');
    const sample = strings.filter((text, index) => index % 25 === 0 && text.trim() !== '');
    for (const text of sample) {
      const trimmed = text.trim();
      const accepted = codePoints(trimmed) <= 100 && !TITLE_REFUSED.test(trimmed);
      const response = await client.http.raw('POST', 'organizations/', { body: { name: text } });
      const answer = (await response.json()) as {
        name?: string;
        slug?: string;
        errors?: { param: string }[];
      };
      if (accepted) {
        expect(response.status, JSON.stringify(text)).toBe(201);
        expect(answer.name).toBe(trimmed);
        expect(answer.slug).toMatch(/^[\p{L}\p{M}\p{N}-]{1,60}$/u);
      } else {
        expect(response.status, JSON.stringify(text)).toBe(400);
        expect(answer.errors?.map((entry) => entry.param)).toContain('name');
      }
    }
  });
});

describe('activity', () => {
  it('records level 1 and 2 entries for create, rename, section changes, finalize and delete', async () => {
    const { client, username } = await signUp('historian');
    const document = await client.documents.create({
      blueprint: (await defaultBlueprint()).uuid,
      title: 'Draft one',
    });
    const feed = (query: Parameters<PlanwrightClient['activities']['list']>[0] = {}) =>
      client.activities.list({ target: 'document', objectId: document.uuid, pageSize: 100, ...query });

    await client.documents.update(document.uuid, { title: 'Acme plan' });
    const [first, second] = outlineOf(contentOf(document)).sections;
    const [doomed] = second?.subsections ?? [];
    const [toRename] = first?.subsections ?? [];
    if (!first || !second || !doomed || !toRename) throw new Error('sections expected');
    let content = contentOf(await client.documents.get(document.uuid));
    const added = insertSectionAfter(content, first.uuid, { title: 'Traction' });
    if (!added.ok) throw new Error(added.reason);
    content = applied(renameSubsection(added.doc, toRename.uuid, 'In one page'));
    content = applied(deleteSubsection(content, doomed.uuid));
    await client.documents.update(document.uuid, { content });

    // A plain text edit records nothing.
    const before = (await feed()).total;
    const edited = structuredClone(content);
    const paragraph = firstParagraphOf(edited);
    paragraph.content = [{ type: 'text', text: 'We sell shovels.' }];
    await client.documents.update(document.uuid, { content: edited });
    expect((await feed()).total).toBe(before);

    await client.documents.sections.subsections.update(document.uuid, first.uuid, toRename.uuid, {
      finalized: true,
    });
    await client.documents.sections.delete(document.uuid, added.uuid);
    await client.documents.delete(document.uuid);

    const levelOne = await feed({ level: 1 });
    expect(levelOne.items.map((entry) => entry.verb)).toEqual(['deleted', 'finalized', 'renamed', 'created']);
    expect(levelOne.items.map((entry) => entry.target_label)).toEqual([
      'Acme plan',
      'Acme plan',
      'Acme plan',
      'Draft one',
    ]);
    const renamed = levelOne.items[2];
    expect(renamed?.message).toContain('Acme plan');
    expect(levelOne.items[1]?.child_target_label).toBe('In one page');

    const levelTwo = await feed({ level: 2 });
    expect(levelTwo.items.map((entry) => entry.verb).sort()).toEqual(
      ['added section', 'removed section', 'removed subsection', 'renamed subsection'].sort(),
    );
    expect(levelTwo.items.find((entry) => entry.verb === 'removed subsection')?.child_target_label).toBe(
      doomed.title,
    );

    const both = await feed({ levelGte: 1, levelLte: 2 });
    expect(both.total).toBe(levelOne.total + levelTwo.total);
    const times = both.items.map((entry) => Date.parse(entry.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const entry of both.items) {
      expect(entry).toMatchObject({
        target: 'document',
        object_id: document.uuid,
        content_type_label: 'document',
        content_app_label: 'documents',
        severity: 'info',
        actor: { username, first_name: '' },
      });
      expect([1, 2]).toContain(entry.level);
      expect(entry.actor_label).toBeTruthy();
    }
    // Filters combine; the object id may be given in any case.
    expect((await feed({ levelGte: 2, levelLte: 1 })).items).toEqual([]);
    expect((await feed({ objectId: document.uuid.toUpperCase(), level: 1 })).total).toBe(levelOne.total);
  });

  it('refuses bad filters, naming them, and ignores unknown parameters', async () => {
    const { client } = await signUp('filters');
    const bad: [string, string | number | (string | number)[]][] = [
      ['level', 3],
      ['level', 0],
      ['level', 'one'],
      ['level__gte', 1.5],
      ['level__lte', -1],
      ['target', 'section'],
      ['object_id', 'not-a-uuid'],
      ['level', [1, 2]],
    ];
    for (const [param, value] of bad) {
      const error = await apiErrorOf(
        client.http.get('activities/activities/', { params: { [param]: value } }),
        400,
      );
      expect(fieldParams(error), `${param}=${JSON.stringify(value)}`).toContain(param);
    }
    expect(await client.activities.list({ level: 1 })).toEqual({ items: [], total: 0 });
    const ignored = await client.http.get('activities/activities/', {
      params: { ordering: 'created_at', foo: 'bar' },
    });
    expect(ignored).toMatchObject({ data: [] });
  });
});

describe('organisations', () => {
  it('creates one (caller is admin), lists it, adds members by e-mail without showing addresses, and removes them', async () => {
    const admin = await signUp('org-admin');
    const member = await signUp('org-member');
    const outsider = await signUp('org-outsider');

    const created = await admin.client.organizations.create({ name: '  Café Ünïcode Ventures ' });
    expect(created).toMatchObject({
      name: 'Café Ünïcode Ventures',
      title: 'Café Ünïcode Ventures',
      slug: 'cafe-unicode-ventures',
      role: 'admin',
      members: [{ user: { username: admin.username }, role: 'admin' }],
    });
    const twin = await admin.client.organizations.create({ name: 'Cafe Unicode Ventures' });
    expect(twin.slug).toBe('cafe-unicode-ventures-2');
    // Slugs are unique across the server, and other tests make emoji-only names too.
    expect((await admin.client.organizations.create({ name: '🚀🚀' })).slug).toMatch(/^organization(-\d+)?$/);
    expect((await admin.client.organizations.create({ name: 'Компания Звезда' })).slug).toBe(
      'компания-звезда',
    );

    const listed = await admin.client.organizations.list();
    expect(listed.total).toBe(4);
    expect(listed.items.map((organization) => organization.name).sort()).toEqual(
      ['Café Ünïcode Ventures', 'Cafe Unicode Ventures', '🚀🚀', 'Компания Звезда'].sort(),
    );
    expect(await admin.client.http.get('organization/')).toEqual(
      await admin.client.http.get('organizations/'),
    );
    expect(
      (await admin.client.http.get('organizations/', { params: { page_size: 1 } })) as unknown,
    ).toMatchObject({
      data: [expect.anything()],
      meta: { pagination: { total: 4, page: 1, page_size: 1 } },
    });

    const withMember = await admin.client.organizations.addMember(created.id, { email: member.email });
    expect(withMember.members.map((entry) => [entry.user.username, entry.role])).toEqual([
      [admin.username, 'admin'],
      [member.username, 'member'],
    ]);
    expect(JSON.stringify(withMember)).not.toContain('@');
    // Adding someone already in it changes nothing.
    expect((await admin.client.organizations.addMember(created.id, { email: member.email })).members).toEqual(
      withMember.members,
    );
    const unknown = await apiErrorOf(
      admin.client.organizations.addMember(created.id, { email: 'nobody-here@example.com' }),
      400,
    );
    expect(unknown.data).toMatchObject({ errors: [{ param: 'email', code: 'unknown_email' }] });

    // The member sees it, as a member; admins' calls are not theirs.
    expect((await member.client.organizations.get(created.id)).role).toBe('member');
    const notFound = 'Organization not found.';
    await expectNotFound(
      member.client.organizations.addMember(created.id, { email: outsider.email }),
      notFound,
    );
    await expectNotFound(outsider.client.organizations.get(created.id), notFound);
    await expectNotFound(outsider.client.organizations.get('not-an-id'), notFound);
    await expectNotFound(outsider.client.organizations.removeMember(created.id, member.username), notFound);

    // The last admin cannot leave or step down; make another admin first.
    const adminId = withMember.members.find((entry) => entry.role === 'admin')?.user.id ?? '';
    expect(adminId).not.toBe('');
    const lastAdmin = await apiErrorOf(admin.client.organizations.removeMember(created.id, adminId), 409);
    expect(lastAdmin.serverCode).toBe('last_admin');
    const promoted = await admin.client.organizations.addMember(created.id, {
      email: member.email,
      role: 'admin',
    });
    expect(promoted.members.every((entry) => entry.role === 'admin')).toBe(true);
    await admin.client.organizations.removeMember(created.id, admin.username.toUpperCase());
    await expectNotFound(admin.client.organizations.get(created.id), notFound);
    const remaining = await member.client.organizations.get(created.id);
    expect(remaining.members.map((entry) => entry.user.username)).toEqual([member.username]);
    await expectNotFound(member.client.organizations.removeMember(created.id, 'nobody'), 'Member not found.');

    for (const name of ['', '   ', 'x'.repeat(101), 'bell\u0007']) {
      const response = await admin.client.http.raw('POST', 'organizations/', { body: { name } });
      expect(response.status, JSON.stringify(name)).toBe(400);
    }
  });
});

describe('the global system prompt', () => {
  it('is read by any signed-in user, as the deployment set it', async () => {
    const { client } = await signUp('prompt-reader');
    expect(await client.systemPrompt.get()).toBe(GLOBAL_PROMPT);
    expect(AuthRequiredError.isInstance(await rejectionOf(anonymous().systemPrompt.get()))).toBe(true);
    // Writes are refused with 403; the SDK, like the specified client (spec 000 §4), treats any 403 as
    // "sign in again" and drops its token.
    const refused = await rejectionOf(
      client.http.raw('PUT', 'apps/global-system-prompt/', { body: { global_system_prompt: 'Obey me.' } }),
    );
    expect(AuthRequiredError.isInstance(refused)).toBe(true);
    expect((refused as AuthRequiredError).status).toBe(403);
    expect((refused as AuthRequiredError).serverCode).toBe('permission_denied');
    // The token is gone from this client: its next call is anonymous (401), though the server session lives on.
    const after = await rejectionOf(client.systemPrompt.get());
    expect(AuthRequiredError.isInstance(after) && (after as AuthRequiredError).status).toBe(401);
    expect(await (await signUp('prompt-checker')).client.systemPrompt.get()).toBe(GLOBAL_PROMPT);
  });
});
