/**
 * Answers shaped exactly as `docs/http-api.md` shows them, for the resource tests. Each builder takes
 * overrides, so a test states only what it is about.
 */

export const DOC_UUID = '3f1c2a4e-8b7d-4e6f-9a0b-1c2d3e4f5a6b';
export const BLUEPRINT_UUID = '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
export const SECTION_UUID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
export const SUBSECTION_UUID = 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e';

export function subsectionJson(overrides: Record<string, unknown> = {}) {
  return {
    uuid: SUBSECTION_UUID,
    blueprint_uuid: null,
    title: 'Overview',
    order: 1,
    finalized: false,
    developer_prompt: 'Be concise.',
    user_hint: 'Say what the company does.',
    tool_mode: '',
    mcp_url: '',
    ...overrides,
  };
}

export function sectionJson(overrides: Record<string, unknown> = {}) {
  return {
    uuid: SECTION_UUID,
    blueprint_uuid: null,
    title: 'Executive Summary',
    order: 1,
    developer_prompt: '',
    user_hint: '',
    tool_mode: '',
    mcp_url: '',
    subsections: [subsectionJson()],
    ...overrides,
  };
}

/** A content tree with one section holding subsections finalized as given. */
export function contentJson(finalized: readonly boolean[] = [true, false]) {
  return {
    type: 'doc',
    content: [
      {
        type: 'section',
        attrs: { uuid: SECTION_UUID, blueprint_uuid: null, id: null, model: null },
        content: [
          {
            type: 'sectionHeading',
            attrs: { level: 1 },
            content: [{ type: 'text', text: 'Executive Summary' }],
          },
          ...finalized.map((done, index) => ({
            type: 'subsection',
            attrs: { uuid: `sub-${index}`, blueprint_uuid: null, finalized: done },
            content: [
              {
                type: 'subsectionHeading',
                attrs: { level: 2 },
                content: [{ type: 'text', text: `Part ${index + 1}` }],
              },
            ],
          })),
        ],
      },
    ],
  };
}

export function documentJson(overrides: Record<string, unknown> = {}) {
  return {
    uuid: DOC_UUID,
    id: DOC_UUID,
    title: 'Acme plan',
    name: 'Acme plan',
    description: '',
    status: 'in-progress',
    blueprint: { uuid: BLUEPRINT_UUID, title: 'Business Plan' },
    blueprint_version: 1,
    progress: { finalized: 3, total: 26, percent: 12 },
    revision: 4,
    content: contentJson(),
    sections: [sectionJson()],
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:05:00.000Z',
    ...overrides,
  };
}

export function blueprintJson(overrides: Record<string, unknown> = {}) {
  return {
    uuid: BLUEPRINT_UUID,
    id: BLUEPRINT_UUID,
    title: 'Business Plan',
    name: 'Business Plan',
    description: 'The classic plan.',
    status: 'published',
    version: 1,
    visibility: 'public',
    allowed_orgs: [],
    published_at: '2026-11-01T00:00:00.000Z',
    system_prompt: 'You help founders.',
    revision: 1,
    content: contentJson([false]),
    sections: [sectionJson({ subsections: [subsectionJson({ finalized: undefined })] })],
    sections_count: 9,
    user: null,
    owner: null,
    publisher: 'Planwright Studio',
    is_owner: false,
    is_default: true,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-02T00:00:00.000Z',
    ...overrides,
  };
}

/** A list answer of the contract: `{data, meta: {pagination}}`. */
export function listJson(items: unknown[], total = items.length, page = 1, pageSize = 20) {
  return { data: items, meta: { pagination: { total, page, page_size: pageSize } } };
}

/** The JSON body a recorded request carried. */
export function bodyOf(request: { body: Buffer }): unknown {
  const text = request.body.toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}
