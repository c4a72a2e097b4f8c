import {
  createPlanwrightExtensions,
  type DocumentJson,
  getPlanwrightSchema,
  normalizeDocument,
  PLANWRIGHT_EXTENSIONS,
  PlanwrightLink,
  Section,
} from '@planwright/sdk/model';
import { getSchema, type JSONContent, Node } from '@tiptap/core';
import { describe, expect, it } from 'vitest';
import {
  checkedJson,
  countingIds,
  documentOf,
  paragraph,
  section,
  specDocument,
  text,
} from '../support/model-documents.js';

function defaults(attrs: Record<string, { default?: unknown }>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(attrs).map(([name, attr]) => [name, attr.default]));
}

describe('the schema (M1, M2)', () => {
  const schema = getPlanwrightSchema();

  it('M1: has exactly the nodes and marks of spec 001 §3, under Tiptap’s names', () => {
    expect(Object.keys(schema.nodes).sort()).toEqual(
      [
        'blockquote',
        'bulletList',
        'codeBlock',
        'doc',
        'hardBreak',
        'heading',
        'horizontalRule',
        'listItem',
        'orderedList',
        'paragraph',
        'section',
        'sectionHeading',
        'subsection',
        'subsectionHeading',
        'text',
      ].sort(),
    );
    expect(Object.keys(schema.marks)).toEqual(['link', 'bold', 'italic', 'underline', 'strike', 'code']);
    expect(schema.topNodeType.name).toBe('doc');
  });

  it('M1: content expressions keep sections and subsections out of blocks', () => {
    expect(schema.nodes.doc?.spec.content).toBe('section+');
    expect(schema.nodes.section?.spec.content).toBe('sectionHeading block* subsection*');
    expect(schema.nodes.subsection?.spec.content).toBe('subsectionHeading block*');
    expect(schema.nodes.sectionHeading?.spec.content).toBe('text*');
    expect(schema.nodes.sectionHeading?.spec.marks).toBe('');
    expect(schema.nodes.subsectionHeading?.spec.marks).toBe('');
    expect(schema.nodes.section?.isInGroup('block')).toBe(false);
    expect(schema.nodes.subsection?.isInGroup('block')).toBe(false);
    expect(schema.nodes.blockquote?.spec.content).toBe('block+');
    expect(schema.nodes.listItem?.spec.content).toBe('paragraph block*');
    // The default block (what ProseMirror fills with) is the paragraph.
    expect(schema.nodes.blockquote?.contentMatch.defaultType?.name).toBe('paragraph');
  });

  it('M1, M2: attributes and their defaults', () => {
    const attrs = (name: string) => defaults(schema.nodes[name]?.spec.attrs ?? {});
    expect(attrs('section')).toEqual({ uuid: null, blueprint_uuid: null, id: null, model: null });
    expect(attrs('subsection')).toEqual({ uuid: null, blueprint_uuid: null, finalized: false });
    expect(attrs('sectionHeading')).toEqual({ level: 1 });
    expect(attrs('subsectionHeading')).toEqual({ level: 2 });
    expect(attrs('paragraph')).toEqual({ indent: 0, nodeId: null });
    expect(attrs('heading')).toEqual({ level: 3, nodeId: null });
    expect(attrs('bulletList')).toEqual({ nodeId: null });
    expect(attrs('orderedList')).toEqual({ start: 1, type: null, nodeId: null });
    expect(attrs('listItem')).toEqual({ nodeId: null });
    expect(attrs('blockquote')).toEqual({ nodeId: null });
    expect(attrs('codeBlock')).toEqual({ language: null, nodeId: null });
    expect(attrs('horizontalRule')).toEqual({});
    expect(attrs('hardBreak')).toEqual({});
    expect(attrs('text')).toEqual({});
    expect(defaults(schema.marks.link?.spec.attrs ?? {})).toEqual({
      href: null,
      target: '_blank',
      rel: 'noopener noreferrer nofollow',
      class: null,
      title: null,
    });
    expect(schema.marks.code?.spec.excludes).toBe('_');
  });

  it('M2: is built once', () => {
    expect(getPlanwrightSchema()).toBe(schema);
  });

  it('M1: the spec 001 §3 document round-trips through nodeFromJSON().toJSON() unchanged', () => {
    const doc = specDocument();
    expect(checkedJson(doc)).toEqual(doc);
  });

  it('M1: the JSON types are Tiptap JSONContent', () => {
    const doc: DocumentJson = specDocument();
    const content: JSONContent = doc;
    expect(content.type).toBe('doc');
  });

  it('M1: a section inside a blockquote does not pass the schema', () => {
    const doc = documentOf(section(1, 'A'));
    const bad = {
      ...doc,
      content: [
        {
          ...doc.content[0],
          content: [...(doc.content[0]?.content ?? []), { type: 'blockquote', content: [section(2, 'B')] }],
        },
      ],
    };
    expect(() => checkedJson(bad)).toThrow();
    // …and normalisation repairs it (M6c).
    const result = normalizeDocument(bad, { generateId: countingIds() });
    expect(result.ok && checkedJson(result.doc)).toEqual(result.ok && result.doc);
  });

  it('M1: heading levels outside 3–4 are not rendered as h1/h2', () => {
    const heading = schema.nodes.heading;
    expect(heading?.spec.parseDOM?.map((rule) => rule.tag)).toEqual(['h3', 'h4']);
  });

  it('M2: the paragraph renders its indent as 24 px per level', () => {
    const node = schema.nodeFromJSON(paragraph('p-1', [text('x')], 3));
    const spec = schema.nodes.paragraph?.spec.toDOM?.(node) as unknown as [string, Record<string, string>];
    expect(spec[1]).toMatchObject({ 'data-indent': 3, style: 'margin-left: 72px', 'data-node-id': 'p-1' });
  });

  it('M2: nodeId is not read from pasted HTML and not kept on split', () => {
    const paragraphSpec = schema.nodes.paragraph?.spec;
    const rule = paragraphSpec?.parseDOM?.[0];
    expect(rule?.getAttrs).toBeTypeOf('function');
    const extension = PLANWRIGHT_EXTENSIONS.nodeId;
    const [global] = extension.config.addGlobalAttributes?.call({} as never) ?? [];
    expect(global?.attributes.nodeId).toMatchObject({ default: null, keepOnSplit: false });
    expect(global?.attributes.nodeId?.parseHTML?.({} as HTMLElement)).toBeNull();
  });

  it('M13: the link extension uses the Planwright href rule', () => {
    const isAllowedUri = PlanwrightLink.options.isAllowedUri;
    const context = { defaultValidate: () => true, protocols: [], defaultProtocol: 'https' };
    expect(isAllowedUri('https://example.com', context)).toBe(true);
    expect(isAllowedUri('javascript:alert(1)', context)).toBe(false);
    expect(isAllowedUri('notion://page', context)).toBe(true);
    expect(isAllowedUri('Notion://page', context)).toBe(false);
  });
});

describe('createPlanwrightExtensions', () => {
  it('swaps in an extended node under the same name and keeps the schema', () => {
    const extended = Section.extend({ draggable: true });
    const extensions = createPlanwrightExtensions({ section: extended });
    expect(extensions).toContain(extended);
    expect(extensions).not.toContain(Section);
    const schema = getSchema(extensions);
    expect(schema.nodes.section?.spec.draggable).toBe(true);
    expect(Object.keys(schema.nodes)).toEqual(Object.keys(getPlanwrightSchema().nodes));
  });

  it('refuses a replacement with another name', () => {
    expect(() => createPlanwrightExtensions({ section: Node.create({ name: 'chapter' }) })).toThrow(
      /named "chapter"/,
    );
  });
});
