import { FormatError, markdownToDocument } from '@planwright/sdk/formats';
import { type BlockJson, type DocumentJson, getPlanwrightSchema, outlineOf } from '@planwright/sdk/model';
import { describe, expect, it } from 'vitest';
import { readCorpusFile } from '../support/corpus.js';
import { countingIds } from '../support/model-documents.js';

function read(markdown: string) {
  const result = markdownToDocument(markdown, { generateId: countingIds() });
  getPlanwrightSchema().nodeFromJSON(result.document).check();
  return result;
}

/** Section and subsection titles, with each body's block types. */
function shape(document: DocumentJson): unknown[] {
  return document.content.map((section) => ({
    title: (section.content[0].content ?? []).map((node) => node.text).join(''),
    blocks: section.content.slice(1).map((child) =>
      child.type === 'subsection'
        ? {
            title: (child.content[0].content ?? []).map((node) => node.text).join(''),
            blocks: child.content.slice(1).map((block) => (block as BlockJson).type),
          }
        : child.type,
    ),
  }));
}

function blocksOf(markdown: string): BlockJson[] {
  return read(markdown).document.content[0]?.content.slice(1) as BlockJson[];
}

function codes(markdown: string): string[] {
  return read(markdown).report.notes.map((note) => note.code);
}

describe('markdownToDocument: structure (F1–F4)', () => {
  it('F1: level 1 starts a section, level 2 a subsection, 3–4 stay headings, 5–6 become 4', () => {
    const { document, report } = read(
      '# One\n\ntext\n\n## Sub\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six\n\n# Two',
    );
    expect(shape(document)).toEqual([
      {
        title: 'One',
        blocks: ['paragraph', { title: 'Sub', blocks: ['heading', 'heading', 'heading', 'heading'] }],
      },
      { title: 'Two', blocks: [] },
    ]);
    const sub = document.content[0]?.content[2];
    const levels =
      sub?.type === 'subsection'
        ? sub.content.slice(1).map((block) => (block.type === 'heading' ? block.attrs.level : 0))
        : [];
    expect(levels).toEqual([3, 4, 4, 4]);
    expect(report.notes).toContainEqual({
      code: 'heading_demoted',
      count: 2,
      message: '2 headings of level 5 or 6 became level 4.',
    });
  });

  it('F1: setext headings count like ATX headings', () => {
    expect(
      outlineOf(read('Plan\n====\n\nIntro\n\nGoals\n-----\n').document).sections.map((s) => [
        s.title,
        s.subsections.map((x) => x.title),
      ]),
    ).toEqual([['Plan', ['Goals']]]);
  });

  it('F2: content before the first level-1 heading goes into a section titled "Untitled"', () => {
    const { document, report } = read('Intro text\n\n## Early sub\n\n# Real');
    expect(shape(document)).toEqual([
      { title: 'Untitled', blocks: ['paragraph', { title: 'Early sub', blocks: [] }] },
      { title: 'Real', blocks: [] },
    ]);
    expect(report.notes.map((note) => note.code)).toEqual(['untitled_section_added']);
    expect(codes('# First\n\ntext')).toEqual([]);
  });

  it('F2: an empty file gives one untitled section and no notes', () => {
    const { document, report } = read('');
    expect(shape(document)).toEqual([{ title: '', blocks: [] }]);
    expect(report).toEqual({ format: 'md', notes: [] });
  });

  it('F3: titles are plain text; their formatting is dropped and reported', () => {
    const { document, report } = read('# A **bold** `title`\n\n## Sub *it*');
    expect(outlineOf(document).sections[0]?.title).toBe('A bold title');
    expect(report.notes).toContainEqual(expect.objectContaining({ code: 'formatting_dropped', count: 2 }));
  });

  it('F4: level-1 and level-2 headings inside quotes and lists become headings 3 and 4', () => {
    const blocks = blocksOf('# S\n\n> # quoted\n>\n> ## sub quoted');
    expect(blocks[0]).toMatchObject({
      type: 'blockquote',
      content: [
        { type: 'heading', attrs: { level: 3 } },
        { type: 'heading', attrs: { level: 4 } },
      ],
    });
    expect(codes('# S\n\n> # quoted')).toContain('content_repaired');
  });
});

describe('markdownToDocument: blocks and marks (F5–F8)', () => {
  it('F5: marks bold, italic, strike, code, link with title, underline from <u>', () => {
    const [paragraph] = blocksOf('# S\n\n**b** *i* ~~s~~ `c` [l](https://x.y "T") <u>u</u>');
    expect(paragraph).toMatchObject({
      type: 'paragraph',
      content: [
        { text: 'b', marks: [{ type: 'bold' }] },
        { text: ' ' },
        { text: 'i', marks: [{ type: 'italic' }] },
        { text: ' ' },
        { text: 's', marks: [{ type: 'strike' }] },
        { text: ' ' },
        { text: 'c', marks: [{ type: 'code' }] },
        { text: ' ' },
        { text: 'l', marks: [{ type: 'link', attrs: { href: 'https://x.y', title: 'T' } }] },
        { text: ' ' },
        { text: 'u', marks: [{ type: 'underline' }] },
      ],
    });
  });

  it('F5: hard breaks (backslash, two spaces, <br>) and soft breaks (a space)', () => {
    const [paragraph] = blocksOf('# S\n\na\\\nb  \nc<br>d\ne');
    expect(paragraph?.type === 'paragraph' && paragraph.content).toEqual([
      { type: 'text', text: 'a' },
      { type: 'hardBreak' },
      { type: 'text', text: 'b' },
      { type: 'hardBreak' },
      { type: 'text', text: 'c' },
      { type: 'hardBreak' },
      { type: 'text', text: 'd e' },
    ]);
  });

  it('F6: nested bullet and ordered lists keep their start', () => {
    const [list] = blocksOf('# S\n\n3. three\n   - nested\n     1. deep\n4. four');
    expect(list).toMatchObject({
      type: 'orderedList',
      attrs: { start: 3 },
      content: [
        {
          type: 'listItem',
          content: [
            { type: 'paragraph' },
            {
              type: 'bulletList',
              content: [{ content: [{ type: 'paragraph' }, { type: 'orderedList', attrs: { start: 1 } }] }],
            },
          ],
        },
        { type: 'listItem' },
      ],
    });
  });

  it('F6: blockquotes, fenced and indented code with language, thematic breaks', () => {
    expect(blocksOf('# S\n\n> q\n\n```ts title="x"\nconst a = 1;\n```\n\n    indented\n\n***')).toMatchObject(
      [
        { type: 'blockquote', content: [{ type: 'paragraph' }] },
        { type: 'codeBlock', attrs: { language: 'ts' }, content: [{ type: 'text', text: 'const a = 1;' }] },
        { type: 'codeBlock', attrs: { language: null }, content: [{ type: 'text', text: 'indented' }] },
        { type: 'horizontalRule' },
      ],
    );
  });

  it('F7: images are dropped with their alt text and reported', () => {
    const { document, report } = read('# S\n\nbefore ![alt text](x.png) after');
    expect(blocksOf('# S\n\nbefore ![alt text](x.png) after')[0]).toMatchObject({
      content: [{ text: 'before  after' }],
    });
    expect(report.notes).toEqual([
      {
        code: 'image_dropped',
        count: 1,
        message: '1 image was dropped (with their alt text): documents hold text only.',
      },
    ]);
    expect(JSON.stringify(document)).not.toContain('alt text');
  });

  it('F7b: a paragraph of images (and dropped tags) leaves no empty or space-only paragraph', () => {
    const { document, report } = read(
      '# S\n\n![a](x.png)\n\n![a](x.png) ![b](y.png)\n\n![a](x.png)\\\n![b](y.png)\n\n[![a](x.png)](https://x.y)\n\n<img src="x.png"> <img src="y.png">\n\n&#32;\n\ntext ![c](z.png)',
    );
    expect(shape(document)).toEqual([{ title: 'S', blocks: ['paragraph', 'paragraph'] }]);
    expect(document.content[0]?.content[2]).toMatchObject({ content: [{ type: 'text', text: 'text ' }] });
    expect(report.notes.find((note) => note.code === 'image_dropped')?.count).toBe(7);
  });

  it('F5a: GFM autolinks (bare URLs, www., e-mail addresses) become links; //host and IPs stay text', () => {
    const { document, report } = read(
      '# S\n\nsee https://x.com/a. and www.x.com, ada@x.com; //host/x 10.0.0.1',
    );
    const paragraph = document.content[0]?.content[1];
    const links =
      paragraph?.type === 'paragraph'
        ? paragraph.content?.flatMap((node) =>
            node.type === 'text'
              ? (node.marks ?? []).map((mark) => [node.text, mark.type === 'link' ? mark.attrs.href : null])
              : [],
          )
        : [];
    expect(links).toEqual([
      ['https://x.com/a', 'https://x.com/a'],
      ['www.x.com', 'http://www.x.com'],
      ['ada@x.com', 'mailto:ada@x.com'],
    ]);
    expect(report.notes).toEqual([]);
    // A bare javascript: URL is not an autolink scheme; a refused one would be reported as link_removed.
    expect(JSON.stringify(read('javascript:alert(1) www.x.com').document)).not.toContain(
      '"href":"javascript',
    );
  });

  it('F6a: task list items keep their checkbox as ☐ / ☑ and are reported; an escaped [ ] stays text', () => {
    const { document, report } = read('# T\n\n- [ ] todo\n- [x] done **b**\n- \\[ ] not\n1. [X]\n');
    const texts = JSON.stringify(document);
    expect(texts).toContain('"text":"☐ todo"');
    expect(texts).toContain('"text":"☑ done "');
    expect(texts).toContain('"text":"[ ] not"');
    expect(texts).toContain('"text":"☑"');
    expect(report.notes).toEqual([
      {
        code: 'task_list_converted',
        count: 3,
        message: '3 task list items kept their checkbox as a ☐ / ☑ character: documents have no checkboxes.',
      },
    ]);
  });

  it('F7c: footnotes are kept as text where written and reported; a one-word note is not a link definition', () => {
    const { document, report } = read(
      '# T\n\nText[^1] and[^n].\n\n[^1]: word\n\n[^n]: A longer note.\n\n```\n[^1]: code\n```\n',
    );
    const texts = JSON.stringify(document);
    expect(texts).toContain('"text":"Text[^1] and[^n]."');
    expect(texts).toContain('"text":"[^1]: word"');
    expect(texts).toContain('"text":"[^n]: A longer note."');
    expect(texts).toContain('"text":"[^1]: code"');
    expect(texts).not.toContain('"href"');
    expect(report.notes).toEqual([
      {
        code: 'footnote_as_text',
        count: 4,
        message:
          'Footnotes were kept as plain text where they were written (2 references such as "[^1]", 2 footnotes as "[^1]: …" paragraphs): documents have no footnotes.',
      },
    ]);
  });

  it('F7: raw HTML: mark tags are read, other tags dropped, block text kept, scripts removed', () => {
    const { document, report } = read(
      '# S\n\n<div class="x">\n<b>Kept</b> &amp; text<script>alert(1)</script>\n</div>\n\nInline <span>tag</span> <em>em</em>',
    );
    const [block, paragraph] = document.content[0]?.content.slice(1) ?? [];
    expect(block).toMatchObject({ type: 'paragraph', content: [{ type: 'text', text: 'Kept & text' }] });
    expect(paragraph).toMatchObject({
      content: [{ text: 'Inline tag ' }, { text: 'em', marks: [{ type: 'italic' }] }],
    });
    expect(report.notes).toEqual([
      {
        code: 'markup_dropped',
        count: 3,
        message: 'Dropped the tags of 1 raw HTML block (their text was kept), 2 inline HTML tags.',
      },
    ]);
    expect(JSON.stringify(document)).not.toContain('alert');
  });

  it('F7a: an unclosed <!-- keeps the text after it (headings included) and the note says so', () => {
    const { document, report } = read(
      '# A\n\nkept\n\n<!-- never closed\n\n## B\n\nafter **it**\n\n# C\n\nend',
    );
    expect(shape(document)).toEqual([
      { title: 'A', blocks: ['paragraph', 'paragraph', { title: 'B', blocks: ['paragraph'] }] },
      { title: 'C', blocks: ['paragraph'] },
    ]);
    expect(JSON.stringify(document)).toContain('never closed');
    expect(JSON.stringify(document)).toContain('"text":"it","marks":[{"type":"bold"}]');
    expect(report.notes).toEqual([
      {
        code: 'markup_dropped',
        count: 1,
        message:
          'Dropped the opening "<!--" of 1 HTML comment never closed with "-->" (the text after it was kept).',
      },
    ]);
  });

  it('F7a: a closed comment is dropped with its text and the note names it; one after it unclosed is kept', () => {
    const { document, report } = read(
      '<div>x</div><!-- secret -->\n\npara\n\n<!-- a --> b <!-- c\n\n> <!-- in quote\n> quoted',
    );
    const text = JSON.stringify(document);
    expect(text).not.toContain('secret');
    expect(text).toContain('"text":"x"');
    expect(text).toContain('"text":"b"');
    expect(text).toContain('c');
    expect(report.notes.find((note) => note.code === 'markup_dropped')?.message).toBe(
      'Dropped the tags of 2 raw HTML blocks (their text was kept, but not that of 2 HTML comments in them), the opening "<!--" of 2 HTML comments never closed with "-->" (the text after them was kept).',
    );
  });

  it('F7a: an unclosed <!-- in a quote keeps the quote text; many unclosed openers read in linear time', () => {
    const quoted = read('> <!-- open\n> # Heading\n> text\n\nafter').document;
    expect(JSON.stringify(quoted)).toContain('"text":"text"');
    expect(JSON.stringify(quoted)).toContain('"text":"after"');
    const many = read('<!--\n'.repeat(20_000)).document;
    expect(JSON.stringify(many).match(/<!--/g)?.length).toBe(19_999);
  });

  it.each([
    ['title: Plan A', 'Plan A'],
    ['title: "Plan \\"B\\" \\u00e9"', 'Plan "B" é'],
    ["title: 'It''s C'", "It's C"],
    ['title: Plan D # a comment', 'Plan D'],
    ['title:   Spaced   out  ', 'Spaced out'],
    ['title: |\n  block', ''],
    ['title: "unterminated', ''],
    ['  title: nested', ''],
    ['name: x', ''],
  ])('F7d: front matter %j gives the title %j', (line, expected) => {
    const result = read(`---\n${line}\n---\n## Sub\n\ntext`);
    expect(result.title).toBe(expected === '' ? undefined : expected);
    expect(outlineOf(result.document).sections[0]?.title).toBe(expected === '' ? 'Untitled' : expected);
  });

  it('F7d: with a level-1 heading in the file the title is answered but names no section', () => {
    const result = read('---\ntitle: Plan\n---\nintro\n\n# First\n\ntext');
    expect(result.title).toBe('Plan');
    expect(outlineOf(result.document).sections.map((section) => section.title)).toEqual([
      'Untitled',
      'First',
    ]);
    expect(
      read('---\ntitle: "<script>alert(1)</script>"\n---\n## S').document.content[0]?.content[0],
    ).toMatchObject({
      content: [{ type: 'text', text: '<script>alert(1)</script>' }],
    });
  });

  it('F7: YAML front matter at the very top is dropped and reported', () => {
    const { document, report } = read('---\ntitle: Plan\n---\n# Real\n\ntext');
    expect(shape(document)).toEqual([{ title: 'Real', blocks: ['paragraph'] }]);
    expect(report.notes).toEqual([
      { code: 'markup_dropped', count: 1, message: 'Dropped the front matter.' },
    ]);
    // A thematic break followed by a blank line is not front matter.
    expect(shape(read('---\n\ntext\n\n---\n').document)[0]).toEqual({
      title: 'Untitled',
      blocks: ['horizontalRule', 'paragraph', 'horizontalRule'],
    });
  });

  it('F8: links whose address is not allowed keep their text and are reported; hrefs stay as written', () => {
    const { document, report } = read(
      '# S\n\n[bad](javascript:alert(1)) [ok](<https://ü.example/a b>) <x@y.z> [v](VBScript:x)',
    );
    const [paragraph] = document.content[0]?.content.slice(1) ?? [];
    expect(JSON.stringify(paragraph)).not.toMatch(/javascript|vbscript/i);
    expect(paragraph).toMatchObject({
      content: [
        { text: 'bad ' },
        { text: 'ok', marks: [{ attrs: { href: 'https://ü.example/a b' } }] },
        { text: ' ' },
        { text: 'x@y.z', marks: [{ attrs: { href: 'mailto:x@y.z' } }] },
        { text: ' v' },
      ],
    });
    expect(report.notes).toEqual([
      {
        code: 'link_removed',
        count: 2,
        message: '2 links with an address that is not allowed kept their text but lost the link.',
      },
    ]);
  });

  it('F8: code together with another mark loses the code mark (M9), and that is reported', () => {
    // The model's rule (M9): code cannot be combined, so the code mark gives way.
    const { document, report } = read('# S\n\n**`x`**');
    expect(document.content[0]?.content[1]).toMatchObject({
      content: [{ text: 'x', marks: [{ type: 'bold' }] }],
    });
    expect(report.notes.map((note) => note.code)).toEqual(['formatting_dropped']);
  });
});

describe('markdownToDocument: corpus files (F9)', () => {
  it('F9: pandoc-testsuite.txt imports with its outline', () => {
    const { document, report } = read(readCorpusFile('markdown/pandoc-testsuite.txt'));
    expect(outlineOf(document).sections.map((s) => [s.title, s.subsections.map((x) => x.title)])).toEqual([
      ['Untitled', []],
      ['Headers', ['Level 2 with an embedded link']],
      ['Level 1', ['Level 2 with emphasis', 'Level 2']],
      ['Paragraphs', []],
      ['Block Quotes', []],
      ['Code Blocks', []],
      ['Lists', ['Unordered', 'Ordered', 'Nested', 'Tabs and spaces', 'Fancy list markers']],
      ['Definition Lists', []],
      ['HTML Blocks', []],
      ['Inline Markup', []],
      ['Smart quotes, ellipses, dashes', []],
      ['LaTeX', []],
      ['Special Characters', []],
      ['Links', ['Explicit', 'Reference', 'With ampersands', 'Autolinks']],
      ['Images', []],
      ['Footnotes', []],
    ]);
    expect(report.notes.map((note) => note.code).sort()).toEqual(
      [
        'footnote_as_text',
        'formatting_dropped',
        'heading_demoted',
        'image_dropped',
        'link_removed',
        'markup_dropped',
        'untitled_section_added',
      ].sort(),
    );
  });

  it('F5a/F6a: the GFM spec examples: autolinks give the spec hrefs but for four named differences; task lists', () => {
    const examples = JSON.parse(readCorpusFile('markdown/gfm-extensions-spec.json')) as {
      category: string;
      input: string;
      output: string;
    }[];
    const hrefsOf = (node: unknown): string[] => {
      const found = new Set<string>();
      const walk = (value: {
        marks?: { type: string; attrs?: { href?: string } }[];
        content?: unknown[];
      }) => {
        for (const mark of value.marks ?? []) if (mark.type === 'link') found.add(mark.attrs?.href ?? '');
        for (const child of value.content ?? []) walk(child as typeof value);
      };
      walk(node as Parameters<typeof walk>[0]);
      return [...found];
    };
    const differ: string[] = [];
    for (const example of examples.filter((item) => item.category === 'Autolinks')) {
      const expected = [
        ...new Set(
          [...example.output.matchAll(/href="([^"]*)"/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&')),
        ),
      ];
      if (JSON.stringify(hrefsOf(read(example.input).document)) !== JSON.stringify(expected))
        differ.push(example.input);
    }
    // linkify-it, not GFM: unbalanced ")" and "&hl;" end a URL elsewhere, and e-mail domains need a real TLD.
    expect(differ).toEqual([
      'www.google.com/search?q=(business))+ok\n',
      'www.google.com/search?q=commonmark&hl=en\n\nwww.google.com/search?q=commonmark&hl;\n',
      'foo@bar.baz\n',
      "hello@mail+xyz.example isn't valid, but hello+xyz@mail.example is.\n",
      'a.b-c_d@a.b\n\na.b-c_d@a.b.\n\na.b-c_d@a.b-\n\na.b-c_d@a.b_\n',
    ]);
    const tasks = examples
      .filter((item) => item.category === 'Task list items')
      .map((item) => read(item.input));
    expect(JSON.stringify(tasks[1]?.document)).toContain('"text":"☑ foo"');
    expect(JSON.stringify(tasks[1]?.document)).toContain('"text":"☐ bar"');
    expect(
      tasks.map((task) => task.report.notes.find((note) => note.code === 'task_list_converted')?.count),
    ).toEqual([2, 4]);
  });

  it('F9: the PostHog business model page imports with its outline; front matter and <br /> dropped', () => {
    const { document, report, title } = read(readCorpusFile('business-plans/posthog-business-model.md'));
    // It starts at "##": the front matter's title names its one section (F7d).
    expect(title).toBe('Business Model');
    expect(outlineOf(document).sections.map((s) => [s.title, s.subsections.map((x) => x.title)])).toEqual([
      [
        'Business Model',
        [
          'Why would you work on the Community Edition?',
          'Promises',
          'What features are paid only?',
          'How open source benefits from open core',
        ],
      ],
    ]);
    const promises = document.content[0]?.content.find(
      (child) => child.type === 'subsection' && child.content[0].content?.[0]?.text === 'Promises',
    );
    const list = promises?.type === 'subsection' ? promises.content[1] : undefined;
    expect(list).toMatchObject({ type: 'orderedList', attrs: { start: 1 } });
    expect(list?.type === 'orderedList' && list.content).toHaveLength(6);
    expect(report.notes.map((note) => note.code)).toEqual(['markup_dropped']);
  });
});

describe('markdownToDocument: hostile input (F10–F12)', () => {
  it('F10: more text than the limit is refused before parsing', () => {
    expect(() => markdownToDocument('a'.repeat(16 * 1024 * 1024 + 1))).toThrow(
      expect.objectContaining({ name: 'FormatError', reason: 'too_large' }),
    );
  });

  it('F10: more nodes than the model holds is a too_large FormatError, not a crash', () => {
    const many = `# S\n\n${'- a\n'.repeat(40_000)}`;
    let error: unknown;
    try {
      markdownToDocument(many);
    } catch (caught) {
      error = caught;
    }
    expect(FormatError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'too_large' });
    expect((error as Error).message).not.toContain('\n');
  });

  it('F11: quotes and lists nested deeper than the model allows give way to their content', () => {
    const { document, report } = read(`# S\n\n${'> '.repeat(100)}deep text`);
    expect(JSON.stringify(document)).toContain('deep text');
    expect(report.notes.map((note) => note.code)).toEqual(['content_repaired']);
    const list = read(
      `# S\n\n${Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n')}`,
    );
    expect(JSON.stringify(list.document)).toContain('item 39');
  });

  it('F11: deep nesting and pathological input give a document, not a crash', () => {
    for (const input of [
      '>'.repeat(10_000),
      `${'- '.repeat(5_000)}x`,
      `${'*'.repeat(50_000)}a`,
      '['.repeat(50_000),
      '\u0000\uD800\r\n\r',
    ]) {
      const { document } = read(input);
      expect(document.content.length).toBeGreaterThan(0);
    }
  });

  it('F11: a byte-order mark and Windows line ends read like plain text', () => {
    expect(shape(read('\uFEFF# Plan\r\n\r\ntext\r\n').document)).toEqual([
      { title: 'Plan', blocks: ['paragraph'] },
    ]);
  });

  it('F11: a non-string is refused with a typed error', () => {
    expect(() => markdownToDocument(42 as unknown as string)).toThrow(
      expect.objectContaining({ reason: 'invalid_text' }),
    );
  });

  it('F12: ids come from generateId, so the same input gives the same document', () => {
    expect(read('# A\n\n- x\n\n## B').document).toEqual(read('# A\n\n- x\n\n## B').document);
  });
});
