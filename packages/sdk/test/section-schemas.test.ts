import { sectionsOutlineSchema } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';

// `docs/http-api.md`: list items carry each section as an outline (uuid, title, order, subsections with
// finalized in documents), details add blueprint_uuid and the settings.
const listItemSections = [
  {
    uuid: 's1',
    title: 'Market',
    order: 1,
    subsections: [{ uuid: 'u1', title: 'Size', order: 1, finalized: true }],
  },
];

const detailSections = [
  {
    uuid: 's1',
    blueprint_uuid: 'b1',
    title: 'Market',
    order: 1,
    developer_prompt: 'Be concrete.',
    user_hint: 'Who buys?',
    tool_mode: 'mcp',
    mcp_url: 'https://mcp.example.com',
    subsections: [
      {
        uuid: 'u1',
        blueprint_uuid: 'b2',
        title: 'Size',
        order: 1,
        finalized: true,
        developer_prompt: '',
        user_hint: 'Bottom-up.',
        tool_mode: 'web',
        mcp_url: '',
      },
    ],
  },
];

describe('sectionsOutlineSchema', () => {
  it('reads a list item’s outline: no settings means empty settings, no blueprint_uuid means null', () => {
    expect(sectionsOutlineSchema.parse(listItemSections)).toEqual([
      {
        uuid: 's1',
        blueprint_uuid: null,
        title: 'Market',
        order: 1,
        developer_prompt: '',
        user_hint: '',
        tool_mode: '',
        mcp_url: '',
        subsections: [
          {
            uuid: 'u1',
            blueprint_uuid: null,
            title: 'Size',
            order: 1,
            finalized: true,
            developer_prompt: '',
            user_hint: '',
            tool_mode: '',
            mcp_url: '',
          },
        ],
      },
    ]);
  });

  it('reads a detail’s sections with their settings', () => {
    const [section] = sectionsOutlineSchema.parse(detailSections);
    expect(section).toMatchObject({
      blueprint_uuid: 'b1',
      developer_prompt: 'Be concrete.',
      tool_mode: 'mcp',
      mcp_url: 'https://mcp.example.com',
    });
    expect(section?.subsections[0]).toMatchObject({
      blueprint_uuid: 'b2',
      user_hint: 'Bottom-up.',
      tool_mode: 'web',
    });
  });

  it('reads blueprint subsections, which have no finalized, as not finalized', () => {
    const [section] = sectionsOutlineSchema.parse([
      { uuid: 's1', title: 'Market', order: 1, subsections: [{ uuid: 'u1', title: 'Size', order: 1 }] },
    ]);
    expect(section?.subsections[0]?.finalized).toBe(false);
  });
});
