// @vitest-environment happy-dom

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentToHtml, FormatError, markdownToDocument } from '@planwright/sdk/formats';
import { createPlanwrightExtensions, type DocumentJson, isAllowedLinkHref } from '@planwright/sdk/model';
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { isExportableLinkHref } from '../../src/model/link-href.js';
import { countingIds, specDocument, uuid } from '../support/model-documents.js';

/** `readCorpusFile` builds a file URL, which happy-dom's `URL` refuses; the same lookup by directory name. */
function readCorpusFile(relative: string): string {
  const root = process.env.PLANWRIGHT_CORPUS_DIR ?? join(import.meta.dirname, '../../../../../shared/corpus');
  return readFileSync(join(root, relative), 'utf8');
}

let editor: Editor | undefined;
afterEach(() => {
  editor?.destroy();
  editor = undefined;
});

function editorHtml(document: DocumentJson): string {
  editor = new Editor({ extensions: createPlanwrightExtensions(), content: document });
  // happy-dom rewrites a style attribute through its CSS parser (adding `;`); browsers keep it as set.
  return editor.getHTML().replace(/ style="([^"]*);"/g, ' style="$1"');
}

/** The document with the link marks an export writes as text (M14) taken off. */
function withoutUnexportedLinks(document: DocumentJson): DocumentJson {
  return JSON.parse(JSON.stringify(document), (key, value: unknown) => {
    if (key !== 'marks' || !Array.isArray(value)) return value;
    const kept = value.filter(
      (mark: { type?: string; attrs?: { href?: unknown } }) =>
        mark.type !== 'link' || isExportableLinkHref(mark.attrs?.href),
    );
    return kept.length > 0 ? kept : undefined;
  }) as DocumentJson;
}

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

function hostileDocument(value: string): DocumentJson {
  const href = isAllowedLinkHref(value) ? value : 'https://example.com';
  return {
    type: 'doc',
    content: [
      {
        type: 'section',
        attrs: { uuid: uuid(1), blueprint_uuid: null, id: null, model: null },
        content: [
          { type: 'sectionHeading', attrs: { level: 1 }, content: [{ type: 'text', text: value }] },
          {
            type: 'paragraph',
            attrs: { indent: 0, nodeId: 'p-1' },
            content: [{ type: 'text', text: value }],
          },
          {
            type: 'paragraph',
            attrs: { indent: 0, nodeId: 'p-2' },
            content: [
              {
                type: 'text',
                text: value,
                marks: [
                  { type: 'link', attrs: { href, target: value, rel: value, class: null, title: value } },
                  { type: 'bold' },
                ],
              },
            ],
          },
          {
            type: 'codeBlock',
            attrs: { language: value, nodeId: 'c-1' },
            content: [{ type: 'text', text: value }],
          },
        ],
      },
    ],
  };
}

/** Markup that can run script: script-like elements, event handler attributes, script URLs. */
function dangerIn(html: string): string[] {
  const found: string[] = [];
  const page = parse(html);
  for (const element of Array.from(page.querySelectorAll('*'))) {
    if (/^(script|iframe|object|embed|style|img|svg|math|form|input|meta|link|base)$/i.test(element.tagName))
      found.push(`<${element.tagName}>`);
    for (const attribute of Array.from(element.attributes)) {
      if (/^on/i.test(attribute.name)) found.push(`${attribute.name}=`);
      if ((attribute.name === 'href' || attribute.name === 'src') && !isAllowedLinkHref(attribute.value))
        found.push(`${attribute.name}=${attribute.value}`);
    }
  }
  if (/<script/i.test(html)) found.push('<script');
  return found;
}

describe('documentToHtml (F27–F29)', () => {
  it('F27: the same HTML the editor renders, for the spec document and an imported plan', () => {
    expect(documentToHtml(specDocument())).toBe(editorHtml(specDocument()));
    const plan = markdownToDocument(readCorpusFile('markdown/pandoc-testsuite.txt'), {
      generateId: countingIds(),
    }).document;
    // The editor links relative paths too; an export writes them as text (M14), so the editor's HTML is
    // compared without those links.
    expect(documentToHtml(plan)).toBe(editorHtml(withoutUnexportedLinks(plan)));
    expect(JSON.stringify(plan)).toMatch(/"href":"[^h#m]/);
  });

  it('F27: sections, titles and blocks as the schema writes them, text escaped', () => {
    const html = documentToHtml(
      markdownToDocument('# A <b> & "c"\n\n1 < 2 & `x<y>`\n\n```js\n</code></pre><script>\n```', {
        generateId: countingIds(),
      }).document,
    );
    expect(html).toContain('<h1>A  &amp; "c"</h1>');
    expect(html).toContain('1 &lt; 2 &amp; <code>x&lt;y&gt;</code>');
    expect(html).toContain(
      '<pre data-node-id="00000000-0000-4000-8000-0000000003eb"><code class="language-js">&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;</code></pre>',
    );
    expect(dangerIn(html)).toEqual([]);
  });

  it.each([
    '\\\\host\\share\\x.docx',
    '//host/share/x.docx',
    'file:///C:/x.docx',
    'tel:+441234567',
    'x.docx',
    'custom-app:open',
  ])('F28: a link to %j, which the editor holds, is exported as plain text (M14)', (href) => {
    const document = hostileDocument('x');
    const paragraph = document.content[0]?.content[2];
    if (paragraph?.type !== 'paragraph') throw new Error('fixture');
    const attrs = { href, target: '_blank', rel: null, class: null, title: null };
    paragraph.content = [
      { type: 'text', text: 'share', marks: [{ type: 'link', attrs }] },
      {
        type: 'text',
        text: ' mail',
        marks: [{ type: 'link', attrs: { ...attrs, href: 'mailto:a@example.com' } }],
      },
      { type: 'text', text: ' here', marks: [{ type: 'link', attrs: { ...attrs, href: '#market' } }] },
    ];
    const html = documentToHtml(document);
    expect(html).toContain(
      '<p data-node-id="p-2">share<a target="_blank" href="mailto:a@example.com" rel="noopener noreferrer nofollow"> mail</a><a target="_blank" href="#market" rel="noopener noreferrer nofollow"> here</a></p>',
    );
    expect(html).not.toContain(href.replace(/&/g, '&amp;'));
  });

  it('F28: links carry only allowed hrefs and always rel="noopener noreferrer nofollow"', () => {
    const document = hostileDocument('x');
    const paragraph = document.content[0]?.content[2];
    if (paragraph?.type !== 'paragraph') throw new Error('fixture');
    paragraph.content = [
      {
        type: 'text',
        text: 'bad',
        marks: [
          {
            type: 'link',
            attrs: { href: 'javascript:alert(1)', target: '_blank', rel: 'opener', class: null, title: null },
          },
        ],
      },
      {
        type: 'text',
        text: ' good',
        marks: [
          {
            type: 'link',
            attrs: {
              href: 'https://a.example/?q="1"',
              target: '_blank',
              rel: 'opener',
              class: null,
              title: null,
            },
          },
        ],
      },
    ];
    const html = documentToHtml(document);
    expect(html).not.toContain('javascript');
    expect(html).toContain(
      '<p data-node-id="p-2">bad<a target="_blank" rel="noopener noreferrer nofollow" href="https://a.example/?q=&quot;1&quot;"> good</a></p>',
    );
  });

  it('F28: no string of the Big List of Naughty Strings produces markup, in any place', () => {
    const strings = JSON.parse(readCorpusFile('hostile-strings/blns.json')) as string[];
    const problems: string[] = [];
    for (const value of strings) {
      if (value === '') continue;
      const html = documentToHtml(hostileDocument(value), { standalone: true, title: value });
      const danger = dangerIn(html.replace(/<meta [^>]*>/g, '').replace(/<style>[^<]*<\/style>/, ''));
      if (danger.length > 0) problems.push(`${JSON.stringify(value)}: ${danger.join(', ')}`);
      // The text arrives as text: HTML parsing gives back the very string (bar what HTML itself rewrites).
      const page = parse(html);
      const expected = value.replace(/\r\n?/g, '\n');
      if (page.querySelector('p')?.textContent !== expected)
        problems.push(`${JSON.stringify(value)}: text changed`);
    }
    expect(problems).toEqual([]);
  }, 30_000);

  it('F29: standalone gives a whole page with charset, escaped title and a print style', () => {
    const html = documentToHtml(specDocument(), { standalone: true, title: '</title><script>x</script>' });
    expect(html.startsWith('<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">')).toBe(true);
    expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;</title>');
    expect(html).toContain('@media print');
    expect(html).toContain(`<body>${documentToHtml(specDocument())}</body>`);
    expect(documentToHtml(specDocument(), { standalone: true })).toContain(
      '<title>Executive Summary</title>',
    );
    expect(documentToHtml(specDocument())).not.toContain('<html');
  });

  it('F29: a tree that cannot be a document is a FormatError', () => {
    let error: unknown;
    try {
      documentToHtml({ type: 'doc', content: 'nope' } as unknown as DocumentJson);
    } catch (caught) {
      error = caught;
    }
    expect(FormatError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'invalid_document' });
  });
});
