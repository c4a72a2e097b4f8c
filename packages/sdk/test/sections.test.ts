import {
  createPlanwrightClient,
  type DocumentDetail,
  InvalidInputError,
  ResponseValidationError,
  RevisionConflictError,
} from '@planwright/sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { reply, useRecordingServer } from './support/recording-server.js';
import {
  BLUEPRINT_UUID,
  blueprintJson,
  bodyOf,
  DOC_UUID,
  documentJson,
  SECTION_UUID,
  SUBSECTION_UUID,
  sectionJson,
  subsectionJson,
} from './support/workspace-fixtures.js';

const server = useRecordingServer((_req, res) => reply(res, 200, sectionJson(), { etag: '"5"' }));
const client = () => createPlanwrightClient({ baseUrl: server.origin });

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

const S = `/api/v1/documents/${DOC_UUID}/sections/`;
const B = `/api/v1/blueprints/${BLUEPRINT_UUID}/sections/`;

describe('sections', () => {
  it('creates a section with title, order and after, and returns it with the parent document', async () => {
    const parent = documentJson({ revision: 6 });
    server.handle((_req, res) => reply(res, 201, { ...sectionJson({ subsections: [] }), document: parent }));
    const created = await client().documents.sections.create(DOC_UUID, { title: ' Market ', order: 2 });
    expect(server.last()).toMatchObject({ method: 'POST', url: S });
    expect(bodyOf(server.last())).toEqual({ title: 'Market', order: 2 });
    expectTypeOf(created.parent).toEqualTypeOf<DocumentDetail | null>();
    expect(created).toMatchObject({ uuid: SECTION_UUID, subsections: [], revision: 6 });
    expect(created.parent?.uuid).toBe(DOC_UUID);

    await client().documents.sections.create(DOC_UUID, { title: null, after: SECTION_UUID });
    expect(bodyOf(server.last())).toEqual({ title: null, after: SECTION_UUID });
    await client().documents.sections.create(DOC_UUID);
    expect(bodyOf(server.last())).toEqual({});
  });

  it('leaves out an order below 1 (spec 001 §7) and refuses fractions', async () => {
    server.handle((_req, res) => reply(res, 201, sectionJson()));
    await client().documents.sections.create(DOC_UUID, { order: 0 });
    expect(bodyOf(server.last())).toEqual({});
    const created = await client().documents.sections.create(DOC_UUID, { order: -3 });
    expect(created.parent).toBeNull();
    expect(bodyOf(server.last())).toEqual({});
    const error = await rejectionOf(client().documents.sections.create(DOC_UUID, { order: 1.5 }));
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('reads a blueprint parent under blueprint, for blueprint sections', async () => {
    server.handle((_req, res) => reply(res, 201, { ...sectionJson(), blueprint: blueprintJson() }));
    const created = await client().blueprints.sections.create(BLUEPRINT_UUID, { title: 'Team' });
    expect(server.last().url).toBe(B);
    expect(created.parent?.publisher).toBe('Planwright Studio');
  });

  it('points at the parent when its detail is malformed', async () => {
    server.handle((_req, res) => reply(res, 201, { ...sectionJson(), document: { title: 'no id' } }));
    const error = await rejectionOf(client().documents.sections.create(DOC_UUID));
    expect(ResponseValidationError.isInstance(error)).toBe(true);
    expect((error as ResponseValidationError).issues.map((issue) => issue.path)).toContainEqual([
      'document',
      'uuid',
    ]);
  });

  it('gets, updates, replaces content and deletes a section, with the revision from the ETag', async () => {
    const sections = client().documents.sections;
    const got = await sections.get(DOC_UUID, SECTION_UUID);
    expect(got).toMatchObject({ uuid: SECTION_UUID, revision: 5, subsections: [{ uuid: SUBSECTION_UUID }] });
    await sections.update(
      DOC_UUID,
      SECTION_UUID,
      { title: 'New', order: 3, user_hint: 'Hint' },
      { ifMatch: 5 },
    );
    const content = {
      type: 'section' as const,
      attrs: { uuid: SECTION_UUID, blueprint_uuid: null, id: null, model: null },
      content: [{ type: 'sectionHeading' as const, attrs: { level: 1 as const } }] as [never],
    };
    await sections.replaceContent(DOC_UUID, SECTION_UUID, content as never);
    server.handle((_req, res) => reply(res, 204));
    await sections.delete(DOC_UUID, SECTION_UUID, { ifMatch: 6 });
    expect(
      server.requests.map((r) => [r.method, r.url, r.headers['if-match'] ?? null, bodyOf(r) ?? null]),
    ).toEqual([
      ['GET', `${S}${SECTION_UUID}/`, null, null],
      ['PATCH', `${S}${SECTION_UUID}/`, '"5"', { title: 'New', order: 3, user_hint: 'Hint' }],
      ['PUT', `${S}${SECTION_UUID}/content/`, null, { content }],
      ['DELETE', `${S}${SECTION_UUID}/`, '"6"', null],
    ]);
  });

  it('refuses a content node that is not a section', async () => {
    const error = await rejectionOf(
      client().documents.sections.replaceContent(DOC_UUID, SECTION_UUID, { type: 'doc' } as never),
    );
    expect(InvalidInputError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('checks the MCP rule when the change names the tool mode (spec 001 §2)', async () => {
    const sections = client().blueprints.sections;
    for (const [changes, message] of [
      [{ tool_mode: 'web', mcp_url: 'https://mcp.example' }, 'Enable MCP to set a URL.'],
      [{ tool_mode: 'mcp', mcp_url: 'not a url' }, 'Please enter a valid URL (http:// or https://).'],
      [
        { tool_mode: 'mcp', mcp_url: 'javascript:alert(1)' },
        'Please enter a valid URL (http:// or https://).',
      ],
      [{ tool_mode: 'shell' }, undefined],
    ] as const) {
      const error = await rejectionOf(sections.update(BLUEPRINT_UUID, SECTION_UUID, changes as never));
      expect(InvalidInputError.isInstance(error), JSON.stringify(changes)).toBe(true);
      if (message) expect((error as InvalidInputError).issues[0]?.message).toBe(message);
    }
    expect(server.requests).toHaveLength(0);
    await sections.update(BLUEPRINT_UUID, SECTION_UUID, {
      tool_mode: 'mcp',
      mcp_url: ' https://mcp.example/x ',
    });
    expect(bodyOf(server.last())).toEqual({ tool_mode: 'mcp', mcp_url: 'https://mcp.example/x' });
    // MCP chosen before its URL is known: sent, as the server keeps '' until then.
    await sections.update(BLUEPRINT_UUID, SECTION_UUID, { tool_mode: 'mcp', mcp_url: '  ' });
    expect(bodyOf(server.last())).toEqual({ tool_mode: 'mcp', mcp_url: '' });
  });

  it('a 409 last_section on delete and a 412 come through as errors', async () => {
    server.handle((_req, res) =>
      reply(res, 409, { detail: 'A document needs a section.', code: 'last_section' }),
    );
    const last = await rejectionOf(client().documents.sections.delete(DOC_UUID, SECTION_UUID));
    expect(last).toMatchObject({ status: 409, serverCode: 'last_section' });
    server.handle((_req, res) => reply(res, 412, { current_revision: 9 }));
    const conflict = await rejectionOf(
      client().documents.sections.update(DOC_UUID, SECTION_UUID, { title: 'x' }, { ifMatch: 2 }),
    );
    expect(RevisionConflictError.isInstance(conflict) && conflict.currentRevision).toBe(9);
  });
});

describe('subsections', () => {
  const sub = `${S}${SECTION_UUID}/subsections/`;

  it('creates a subsection and returns it with its section and the parent', async () => {
    server.handle((_req, res) =>
      reply(res, 201, {
        ...subsectionJson(),
        section: { ...sectionJson(), document: documentJson({ revision: 11 }) },
      }),
    );
    const created = await client().documents.sections.subsections.create(DOC_UUID, SECTION_UUID, {
      title: 'Pricing',
      order: 0,
    });
    expect(server.last()).toMatchObject({ method: 'POST', url: sub });
    expect(bodyOf(server.last())).toEqual({ title: 'Pricing' });
    expect(created).toMatchObject({ uuid: SUBSECTION_UUID, revision: 11 });
    expect(created.section?.uuid).toBe(SECTION_UUID);
    expect(created.parent?.revision).toBe(11);
  });

  it('gets, updates (finalized included) and deletes a subsection', async () => {
    server.handle((_req, res) => reply(res, 200, subsectionJson({ finalized: true }), { etag: '"3"' }));
    const subsections = client().documents.sections.subsections;
    expect(await subsections.get(DOC_UUID, SECTION_UUID, SUBSECTION_UUID)).toMatchObject({
      finalized: true,
      revision: 3,
    });
    await subsections.update(DOC_UUID, SECTION_UUID, SUBSECTION_UUID, { finalized: true }, { ifMatch: 3 });
    server.handle((_req, res) => reply(res, 204));
    await subsections.delete(DOC_UUID, SECTION_UUID, SUBSECTION_UUID);
    expect(
      server.requests.map((r) => [r.method, r.url, r.headers['if-match'] ?? null, bodyOf(r) ?? null]),
    ).toEqual([
      ['GET', `${sub}${SUBSECTION_UUID}/`, null, null],
      ['PATCH', `${sub}${SUBSECTION_UUID}/`, '"3"', { finalized: true }],
      ['DELETE', `${sub}${SUBSECTION_UUID}/`, null, null],
    ]);
  });

  it('refuses bad identifiers in any position', async () => {
    const subsections = client().blueprints.sections.subsections;
    for (const args of [
      ['..', SECTION_UUID, SUBSECTION_UUID],
      [BLUEPRINT_UUID, '.', SUBSECTION_UUID],
      [BLUEPRINT_UUID, SECTION_UUID, ''],
    ] as const) {
      const [parent, section, subsection] = args;
      const error = await rejectionOf(subsections.get(parent, section, subsection));
      expect(InvalidInputError.isInstance(error), args.join(' ')).toBe(true);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('rejects a subsection answer without an identifier', async () => {
    server.handle((_req, res) => reply(res, 200, { title: 'nameless' }));
    const error = await rejectionOf(client().documents.sections.subsections.get(DOC_UUID, SECTION_UUID, 'x'));
    expect(ResponseValidationError.isInstance(error)).toBe(true);
  });
});
