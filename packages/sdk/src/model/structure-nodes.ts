import { mergeAttributes, Node } from '@tiptap/core';

/** Reads a `data-*` attribute, null when absent. */
function dataAttribute(element: HTMLElement, name: string): string | null {
  return element.getAttribute(`data-${name}`);
}

/**
 * A section: a level-1 heading, blocks, then subsections. Not in the `block` group, so nothing but the
 * document can hold one (a quote or a list never contains a section).
 */
export const Section = Node.create({
  name: 'section',
  content: 'sectionHeading block* subsection*',
  defining: true,
  isolating: true,

  addAttributes() {
    return {
      uuid: {
        default: null,
        parseHTML: (element) => dataAttribute(element, 'uuid'),
        renderHTML: (attributes) => (attributes.uuid ? { 'data-uuid': attributes.uuid } : {}),
      },
      blueprint_uuid: {
        default: null,
        parseHTML: (element) => dataAttribute(element, 'blueprint-uuid'),
        renderHTML: (attributes) =>
          attributes.blueprint_uuid ? { 'data-blueprint-uuid': attributes.blueprint_uuid } : {},
      },
      id: { default: null, rendered: false },
      model: { default: null, rendered: false },
    };
  },

  parseHTML() {
    return [{ tag: 'section[data-type="section"]' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['section', mergeAttributes({ 'data-type': 'section' }, HTMLAttributes), 0];
  },
});

/** A subsection of a section: a level-2 heading, then blocks. `finalized` locks it in the editor. */
export const Subsection = Node.create({
  name: 'subsection',
  content: 'subsectionHeading block*',
  defining: true,
  isolating: true,

  addAttributes() {
    return {
      uuid: {
        default: null,
        parseHTML: (element) => dataAttribute(element, 'uuid'),
        renderHTML: (attributes) => (attributes.uuid ? { 'data-uuid': attributes.uuid } : {}),
      },
      blueprint_uuid: {
        default: null,
        parseHTML: (element) => dataAttribute(element, 'blueprint-uuid'),
        renderHTML: (attributes) =>
          attributes.blueprint_uuid ? { 'data-blueprint-uuid': attributes.blueprint_uuid } : {},
      },
      finalized: {
        default: false,
        parseHTML: (element) => dataAttribute(element, 'finalized') === 'true',
        renderHTML: (attributes) => (attributes.finalized ? { 'data-finalized': 'true' } : {}),
      },
    };
  },

  parseHTML() {
    return [{ tag: 'section[data-type="subsection"]' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['section', mergeAttributes({ 'data-type': 'subsection' }, HTMLAttributes), 0];
  },
});

/** The title of a section: plain text (formatting is off in titles, spec 001 §2), rendered as `<h1>`. */
export const SectionHeading = Node.create({
  name: 'sectionHeading',
  content: 'text*',
  marks: '',
  defining: true,

  addAttributes() {
    return { level: { default: 1, rendered: false } };
  },

  parseHTML() {
    return [{ tag: 'h1' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['h1', HTMLAttributes, 0];
  },
});

/** The title of a subsection: plain text, rendered as `<h2>`. */
export const SubsectionHeading = Node.create({
  name: 'subsectionHeading',
  content: 'text*',
  marks: '',
  defining: true,

  addAttributes() {
    return { level: { default: 2, rendered: false } };
  },

  parseHTML() {
    return [{ tag: 'h2' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ['h2', HTMLAttributes, 0];
  },
});
