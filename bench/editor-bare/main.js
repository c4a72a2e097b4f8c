// The baseline of bench/editor-keystroke.mjs: a plain Tiptap editor (no React, no node views) with
// StarterKit's extensions, built one by one because @tiptap/starter-kit is not a dependency. It loads
// the same plan as HTML from ./content.html; `?width=` and `?font=` match our canvas's column and font.
import { Editor } from '@tiptap/core';
import Blockquote from '@tiptap/extension-blockquote';
import Bold from '@tiptap/extension-bold';
import Code from '@tiptap/extension-code';
import CodeBlock from '@tiptap/extension-code-block';
import Document from '@tiptap/extension-document';
import HardBreak from '@tiptap/extension-hard-break';
import Heading from '@tiptap/extension-heading';
import HorizontalRule from '@tiptap/extension-horizontal-rule';
import Italic from '@tiptap/extension-italic';
import Link from '@tiptap/extension-link';
import { BulletList, ListItem, ListKeymap, OrderedList } from '@tiptap/extension-list';
import Paragraph from '@tiptap/extension-paragraph';
import Strike from '@tiptap/extension-strike';
import Text from '@tiptap/extension-text';
import Underline from '@tiptap/extension-underline';
import { Dropcursor, Gapcursor, TrailingNode, UndoRedo } from '@tiptap/extensions';

const element = document.getElementById('editor');
const params = new URLSearchParams(location.search);
const width = Number(params.get('width'));
if (width > 0) element.style.width = `${width}px`;
if (params.get('font')) element.style.font = params.get('font');

const content = await fetch('./content.html').then((response) => response.text());
// StarterKit's set in StarterKit's order, with its defaults.
window.bareEditor = new Editor({
  element,
  content,
  extensions: [
    Bold,
    Blockquote,
    BulletList,
    Code,
    CodeBlock,
    Document,
    Dropcursor,
    Gapcursor,
    HardBreak,
    Heading,
    UndoRedo,
    HorizontalRule,
    Italic,
    ListItem,
    ListKeymap,
    Link,
    OrderedList,
    Paragraph,
    Strike,
    Text,
    Underline,
    TrailingNode,
  ],
  editorProps: { attributes: { 'aria-label': 'Bare editor' } },
});
