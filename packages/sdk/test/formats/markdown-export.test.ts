import { documentToMarkdown, markdownToDocument } from '@planwright/sdk/formats';
import type { BlockJson, DocumentJson, InlineJson, MarkJson, SubsectionJson } from '@planwright/sdk/model';
import { describe, expect, it } from 'vitest';
import { countingIds, uuid } from '../support/model-documents.js';

let next = 0;
const nodeId = () => {
  next += 1;
  return `n${next}`;
};
const t = (text: string, ...marks: MarkJson[]): InlineJson =>
  marks.length === 0 ? { type: 'text', text } : { type: 'text', text, marks };
const p = (...content: InlineJson[]): BlockJson => ({
  type: 'paragraph',
  attrs: { indent: 0, nodeId: nodeId() },
  ...(content.length ? { content } : {}),
});
const item = (...content: BlockJson[]) => ({
  type: 'listItem' as const,
  attrs: { nodeId: nodeId() },
  content: content as [BlockJson & { type: 'paragraph' }, ...BlockJson[]],
});
const bullets = (...items: ReturnType<typeof item>[]): BlockJson => ({
  type: 'bulletList',
  attrs: { nodeId: nodeId() },
  content: items,
});
const ordered = (start: number, ...items: ReturnType<typeof item>[]): BlockJson => ({
  type: 'orderedList',
  attrs: { start, type: null, nodeId: nodeId() },
  content: items,
});
const link = (href: string, title: string | null = null): MarkJson => ({
  type: 'link',
  attrs: { href, target: '_blank', rel: 'noopener noreferrer nofollow', class: null, title },
});
const bold: MarkJson = { type: 'bold' };
const italic: MarkJson = { type: 'italic' };

function doc(blocks: BlockJson[], title = 'Plan', subsections: SubsectionJson[] = []): DocumentJson {
  return {
    type: 'doc',
    content: [
      {
        type: 'section',
        attrs: { uuid: uuid(1), blueprint_uuid: null, id: null, model: null },
        content: [
          {
            type: 'sectionHeading',
            attrs: { level: 1 },
            ...(title ? { content: [{ type: 'text', text: title }] } : {}),
          },
          ...blocks,
          ...subsections,
        ],
      },
    ],
  };
}

function sub(title: string, blocks: BlockJson[], finalized = false): SubsectionJson {
  return {
    type: 'subsection',
    attrs: { uuid: uuid(2), blueprint_uuid: null, finalized },
    content: [
      { type: 'subsectionHeading', attrs: { level: 2 }, content: [{ type: 'text', text: title }] },
      ...blocks,
    ],
  };
}

/** The body of the export after the `# Plan` line. */
function body(blocks: BlockJson[]): string {
  return documentToMarkdown(doc(blocks)).replace(/^# Plan\n\n/, '');
}

describe('documentToMarkdown (F13–F19)', () => {
  it('F13: titles as # and ##, headings as ### and ####, sections apart; finalized is not written', () => {
    const heading = (level: 3 | 4, text: string): BlockJson => ({
      type: 'heading',
      attrs: { level, nodeId: nodeId() },
      content: [t(text)],
    });
    const md = documentToMarkdown(
      doc([p(t('Intro'))], 'Plan', [sub('Goals', [heading(3, 'Three'), heading(4, 'Four')], true)]),
    );
    expect(md).toBe('# Plan\n\nIntro\n\n## Goals\n\n### Three\n\n#### Four\n');
    expect(documentToMarkdown(doc([], ''))).toBe('#\n');
  });

  it('F14: text that looks like Markdown is escaped and reads back as text', () => {
    const tricky = [
      '# not a heading',
      '- not a list',
      '1. not a list',
      '> not a quote',
      '*not em*',
      '`not code`',
      '[not](a link)',
      '<b>not html</b>',
      '&amp; not an entity',
      '    not code',
      '---',
      'trailing  ',
      '![not](image)',
      'a_b_c',
      '~~not strike~~',
      '+ x',
      '=== x',
      '2) x',
    ];
    for (const text of tricky) {
      const md = body([p(t(text))]);
      const back = markdownToDocument(documentToMarkdown(doc([p(t(text))])), {
        generateId: countingIds(),
      }).document;
      expect(back.content[0]?.content[1], `${text} → ${md}`).toMatchObject({
        type: 'paragraph',
        content: [{ type: 'text', text }],
      });
    }
    expect(body([p(t('# a * b'))])).toBe('\\# a \\* b\n');
    expect(body([p(t('1. x'))])).toBe('1\\. x\n');
    expect(body([p(t('  x  '))])).toBe('&#32; x &#32;\n');
  });

  it('F15: marks as **, *, ~~ where CommonMark allows them, else as HTML tags; underline as <u>', () => {
    expect(
      body([
        p(
          t('a'),
          t('b', bold),
          t(' '),
          t('i', italic),
          t(' '),
          t('s', { type: 'strike' }),
          t(' '),
          t('u', { type: 'underline' }),
          t(' '),
          t('c', { type: 'code' }),
        ),
      ]),
    ).toBe('a**b** *i* ~~s~~ <u>u</u> `c`\n');
    // A mark that starts or ends with a space cannot be written with `**` (it would not close).
    expect(body([p(t('a'), t(' b ', bold), t('c'))])).toBe('a<strong> b </strong>c\n');
    // Italic right inside bold would make a run of three asterisks: the outer mark becomes a tag.
    expect(body([p(t('x', bold, italic))])).toBe('<strong>*x*</strong>\n');
  });

  it('F16: links with titles, hrefs written so they read back exactly', () => {
    expect(body([p(t('site', link('https://example.com/a?b=c', 'The "site"')))])).toBe(
      '[site](https://example.com/a?b=c "The \\"site\\"")\n',
    );
    expect(body([p(t('x', link('/path with space(1)')))])).toBe('[x](</path with space(1)>)\n');
    expect(body([p(t('x', link('https://a.b/?q=1&copy=2')))])).toBe('[x](<https://a.b/?q=1\\&copy=2>)\n');
  });

  it('F16: hard breaks: backslash inside a paragraph, <br> at its end and in headings; empty paragraphs left out', () => {
    const br: InlineJson = { type: 'hardBreak' };
    expect(
      body([
        p(t('a'), br, t('b'), br),
        p(),
        p(br),
        { type: 'heading', attrs: { level: 3, nodeId: nodeId() }, content: [t('h'), br, t('i')] },
      ]),
    ).toBe('a\\\nb<br>\n\n### h<br>i\n');
  });

  it('F14: text an autolink would read is escaped, so it comes back as text (F5a)', () => {
    const markdown = body([p(t('see https://x.com/a and www.x.com, ada@x.com'))]);
    expect(markdown).toBe('see https\\://x.com/a and www\\.x\\.com, ada\\@x\\.com\n');
    expect(JSON.stringify(markdownToDocument(markdown).document)).not.toContain('"link"');
    expect(body([p(t('www.x.com', link('https://x.com')))])).toBe('[www.x.com](https://x.com)\n');
  });

  it('F16: a paragraph of white space (with or without breaks) is left out, never written as &#32;', () => {
    const br: InlineJson = { type: 'hardBreak' };
    const markdown = body([p(t(' ')), p(t('  '), br, t('\t')), p(t('\u00A0\u2003')), p(t(' kept '))]);
    expect(markdown).toBe('&#32;kept&#32;\n');
    expect(markdown.match(/^&#32;$/m)).toBeNull();
  });

  it('F17: code blocks fenced longer than any backtick run inside, with their language', () => {
    const code = (text: string, language: string | null): BlockJson => ({
      type: 'codeBlock',
      attrs: { language, nodeId: nodeId() },
      content: [{ type: 'text', text }],
    });
    expect(body([code('a ``` b\n````', 'ts'), code('x', null)])).toBe(
      '`````ts\na ``` b\n````\n`````\n\n```\nx\n```\n',
    );
    expect(body([p(t('a `` b', { type: 'code' }))])).toBe('```a `` b```\n');
  });

  it('F18: ordered lists keep their start; nested lists and quotes are indented', () => {
    expect(body([ordered(7, item(p(t('seven')), bullets(item(p(t('inner'))))), item(p(t('eight'))))])).toBe(
      '7. seven\n   - inner\n8. eight\n',
    );
    expect(
      body([
        { type: 'blockquote', attrs: { nodeId: nodeId() }, content: [p(t('q')), bullets(item(p(t('l'))))] },
      ]),
    ).toBe('> q\n>\n> - l\n');
    // Numbers CommonMark cannot read are clamped (it reads at most nine digits, never negative).
    expect(body([ordered(-3, item(p(t('x'))))])).toBe('0. x\n');
  });

  it('F19: adjacent lists of the same kind stay separate lists after a round trip', () => {
    const md = body([
      bullets(item(p(t('a')))),
      bullets(item(p(t('b')))),
      bullets(item(p(t('c')))),
      ordered(1, item(p(t('d')))),
      ordered(1, item(p(t('e')))),
    ]);
    expect(md).toBe('- a\n\n* b\n\n- c\n\n1. d\n\n1) e\n');
    const back = markdownToDocument(`# Plan\n\n${md}`)
      .document.content[0]?.content.slice(1)
      .map((block) => block.type);
    expect(back).toEqual(['bulletList', 'bulletList', 'bulletList', 'orderedList', 'orderedList']);
  });

  it('F19: a rule at the start of a list item does not merge with the marker', () => {
    const md = body([bullets(item(p(), { type: 'horizontalRule' }))]);
    expect(md).toBe('- ___\n');
    expect(markdownToDocument(`# Plan\n\n${md}`).document.content[0]?.content[1]).toMatchObject({
      type: 'bulletList',
      content: [{ content: [{ type: 'paragraph' }, { type: 'horizontalRule' }] }],
    });
  });

  it('F13: a tree that skipped normalisation is written as far as it can be, never a throw', () => {
    const loose = {
      type: 'doc',
      content: [
        {
          type: 'section',
          content: [
            {
              type: 'paragraph',
              content: [{ type: 'text', text: 'x', marks: [{ type: 'shiny' }, link('javascript:alert(1)')] }],
            },
            { type: 'heading' },
            { type: 'orderedList', content: [{ type: 'listItem' }] },
            { type: 'codeBlock' },
          ],
        },
      ],
    } as unknown as DocumentJson;
    expect(documentToMarkdown(loose)).toBe('#\n\nx\n\n###\n\n1.\n\n```\n```\n');
  });

  it('F13: the output ends with one newline and sections are separated by a blank line', () => {
    const two: DocumentJson = {
      type: 'doc',
      content: [...doc([p(t('a'))], 'One').content, ...doc([p(t('b'))], 'Two').content],
    };
    expect(documentToMarkdown(two)).toBe('# One\n\na\n\n# Two\n\nb\n');
  });
});
