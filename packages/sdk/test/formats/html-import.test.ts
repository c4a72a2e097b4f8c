import { describe, expect, test } from 'vitest';
import { htmlToDocument } from '../../src/formats/html-import.js';
import type { ImportResult } from '../../src/formats/import-report.js';
import { parseHtmlInNode } from '../../src/formats/node/html-dom.js';
import { getPlanwrightSchema, normalizeDocument } from '../../src/model/index.js';
import { readCorpusFile } from '../support/corpus.js';

interface AnyNode {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
  content?: AnyNode[];
}

let counter = 0;
const generateId = (): string => `00000000-0000-4000-8000-${(++counter).toString(16).padStart(12, '0')}`;
const read = (html: string): ImportResult => htmlToDocument(html, { parseHtml: parseHtmlInNode, generateId });

/** The first section's body, ids left out, for comparing shapes. */
function body(result: ImportResult, section = 0): unknown[] {
  const strip = (node: AnyNode): unknown => {
    const { attrs, content, ...rest } = node;
    const kept = attrs
      ? Object.fromEntries(Object.entries(attrs).filter(([key]) => key !== 'nodeId' && key !== 'uuid'))
      : undefined;
    return {
      ...rest,
      ...(kept && Object.keys(kept).length > 0 ? { attrs: kept } : {}),
      ...(content ? { content: content.map(strip) } : {}),
    };
  };
  return ((result.document.content[section] as AnyNode).content ?? []).map(strip);
}

function allText(node: AnyNode): string {
  return node.type === 'text' ? (node.text ?? '') : (node.content ?? []).map(allText).join(' ');
}

const notes = (result: ImportResult): Record<string, number> =>
  Object.fromEntries(result.report.notes.map((note) => [note.code, note.count]));

const para = (...content: unknown[]) => ({ type: 'paragraph', attrs: { indent: 0 }, content });
const text = (value: string, ...marks: string[]) =>
  marks.length > 0
    ? { type: 'text', text: value, marks: marks.map((type) => ({ type })) }
    : { type: 'text', text: value };

describe('htmlToDocument (F30–F39)', () => {
  test('h1 starts a section, h2 a subsection, h3/h4 are headings, h5/h6 become level 4 with a note', () => {
    const result = read(
      '<h1>One</h1><p>Intro</p><h2>Part</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6><h1>Two</h1>',
    );
    expect(result.report.format).toBe('html');
    expect(result.document.content).toHaveLength(2);
    const [first] = result.document.content;
    expect(first?.content[0]).toEqual({
      type: 'sectionHeading',
      attrs: { level: 1 },
      content: [text('One')],
    });
    const subsection = first?.content[2] as AnyNode;
    expect(subsection.type).toBe('subsection');
    expect(subsection.content?.map((node) => [node.type, node.attrs?.level, allText(node)])).toEqual([
      ['subsectionHeading', 2, 'Part'],
      ['heading', 3, 'Three'],
      ['heading', 4, 'Four'],
      ['heading', 4, 'Five'],
      ['heading', 4, 'Six'],
    ]);
    expect(notes(result)).toEqual({ heading_demoted: 2 });
  });

  test('content before the first h1 goes into an untitled section, with a note', () => {
    const result = read('<p>Loose</p><h2>Sub</h2><p>x</p>');
    expect(result.document.content).toHaveLength(1);
    expect(body(result)[0]).toEqual({
      type: 'sectionHeading',
      attrs: { level: 1 },
      content: [{ type: 'text', text: 'Untitled' }],
    });
    expect(notes(result)).toEqual({ untitled_section_added: 1 });
  });

  test('marks, links, hard breaks and whitespace as a browser shows them', () => {
    const result = read(
      '<h1>T</h1><p>  a <b>bold</b> <strong>strong</strong> <i>it</i><em>em</em> <u>u</u> <s>s</s><del>d</del><strike>k</strike> <code>c</code>\n<a href="https://example.com/x" title="X">link</a><br>next  line </p>',
    );
    expect(body(result)[1]).toEqual(
      para(
        text('a '),
        text('bold', 'bold'),
        text(' '),
        text('strong', 'bold'),
        text(' '),
        text('item', 'italic'),
        text(' '),
        text('u', 'underline'),
        text(' '),
        text('sdk', 'strike'),
        text(' '),
        text('c', 'code'),
        text(' '),
        {
          type: 'text',
          text: 'link',
          marks: [
            {
              type: 'link',
              attrs: {
                href: 'https://example.com/x',
                target: '_blank',
                rel: 'noopener noreferrer nofollow',
                class: null,
                title: 'X',
              },
            },
          ],
        },
        { type: 'hardBreak' },
        text('next line'),
      ),
    );
    expect(result.report.notes).toEqual([]);
  });

  test('a javascript: link keeps its text and loses the link, with a note', () => {
    const result = read(
      '<h1>T</h1><p><a href="javascript:alert(1)">click</a> <a href=" java\tscript:x">two</a></p>',
    );
    expect(body(result)[1]).toEqual(para(text('click two')));
    expect(notes(result)).toEqual({ link_removed: 2 });
  });

  test('lists with start, type and nesting; quotes; code with language; rules', () => {
    const result = read(
      '<h1>T</h1><ol start="3" type="a"><li>one<ul><li>inner</li></ul></li><li><p>two</p></li></ol><blockquote><p>q</p></blockquote><pre><code class="language-ts">let a = 1;\nlet b = 2;</code></pre><hr>',
    );
    expect(body(result).slice(1)).toEqual([
      {
        type: 'orderedList',
        attrs: { start: 3, type: 'a' },
        content: [
          {
            type: 'listItem',
            content: [
              para(text('one')),
              { type: 'bulletList', content: [{ type: 'listItem', content: [para(text('inner'))] }] },
            ],
          },
          { type: 'listItem', content: [para(text('two'))] },
        ],
      },
      { type: 'blockquote', content: [para(text('q'))] },
      { type: 'codeBlock', attrs: { language: 'ts' }, content: [text('let a = 1;\nlet b = 2;')] },
      { type: 'horizontalRule' },
    ]);
  });

  test('images are dropped and tables flattened, each counted', () => {
    const result = read(
      '<h1>T</h1><p>a<img src="x.png" alt="secret alt">b</p><table><thead><tr><th>H1</th><th>H2</th></tr></thead><tbody><tr><td><p>x</p><p>y</p></td><td><b>z</b></td></tr></tbody></table><table><tr><td>only</td></tr></table>',
    );
    expect(body(result).slice(1)).toEqual([
      para(text('ab')),
      para(text('H1 | H2')),
      para(text('x y | '), text('z', 'bold')),
      para(text('only')),
    ]);
    expect(notes(result)).toEqual({ image_dropped: 1, table_flattened: 2 });
    expect(JSON.stringify(result.document)).not.toContain('secret alt');
  });

  test('a paragraph of images leaves no paragraph of line breaks behind (F35)', () => {
    const result = read(
      '<h1>T</h1><p><img src="x"> <img src="y"></p><p><img><br><img></p><div><img><br></div><p>t</p>',
    );
    expect(body(result).slice(1)).toEqual([para(text('t'))]);
    expect(notes(result)).toEqual({ image_dropped: 5 });
  });

  test('scripts, styles, templates, frames and objects are dropped with their text; unknown elements give way', () => {
    const result = read(
      '<html><head><title>Page title</title><style>p{}</style></head><body><h1>T</h1><script>alert("x")</script><div><section><custom-el>kept <span>text</span></custom-el></section></div><template><p>tpl</p></template><iframe src="https://evil.example">frame</iframe><object>obj</object><noscript>ns</noscript><svg><text>svg</text></svg></body></html>',
    );
    const all = JSON.stringify(result.document);
    for (const hidden of ['alert', 'Page title', 'p{}', 'tpl', 'frame', 'obj', 'ns', 'svg'])
      expect(all).not.toContain(hidden);
    expect(body(result)[1]).toEqual(para(text('kept text')));
    expect(notes(result)).toEqual({ markup_dropped: 6 });
  });

  test('superscript and friends keep their text and are counted as dropped formatting', () => {
    const result = read('<h1>T</h1><p>E = mc<sup>2</sup>, H<sub>2</sub>O</p>');
    expect(body(result)[1]).toEqual(para(text('E = mc2, H2O')));
    expect(notes(result)).toEqual({ formatting_dropped: 2 });
  });

  test('hostile nesting neither crashes nor overflows the stack; the result is a valid document', () => {
    const deep = `${'<div>'.repeat(5000)}deep${'</div>'.repeat(5000)}`;
    const lists = `${'<ul><li>'.repeat(300)}x${'</li></ul>'.repeat(300)}`;
    const quotes = `${'<blockquote>'.repeat(300)}q${'</blockquote>'.repeat(300)}`;
    for (const html of [deep, lists, quotes]) {
      const result = read(`<h1>T</h1>${html}`);
      expect(() => getPlanwrightSchema().nodeFromJSON(result.document).check()).not.toThrow();
      expect(JSON.stringify(result.document)).toMatch(/deep|"x"|"q"/);
    }
  });

  test('the naughty strings survive as text, never as markup', () => {
    const strings = JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];
    const escapeHtml = (value: string): string =>
      value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const html = `<h1>Naughty</h1>${strings.map((value) => `<p>${escapeHtml(value)}</p>`).join('')}${strings.join('<br>')}`;
    const result = read(html);
    expect(() => getPlanwrightSchema().nodeFromJSON(result.document).check()).not.toThrow();
    const again = normalizeDocument(result.document);
    expect(again.ok && again.report.changed).toBe(false);
    expect(JSON.stringify(result.document)).toContain('<script>alert(123)</script>');
  });

  test('without a parser and without DOMParser the call says what to pass', () => {
    expect(() => htmlToDocument('<p>x</p>')).toThrow(/parseHtml/);
  });

  test('an empty page gives one empty untitled section', () => {
    const result = read('');
    expect(result.document.content).toHaveLength(1);
    expect(result.report.notes).toEqual([]);
  });
});
