import { markdownToDocument } from '@planwright/sdk/formats';
import {
  type BlockJson,
  type DocumentJson,
  type InlineJson,
  isAllowedLinkHref,
  type SectionJson,
  type SubsectionJson,
} from '@planwright/sdk/model';
import { memo, type ReactNode, useMemo } from 'react';
import { CHAT_PANEL_TEXTS as TEXTS } from './chat-panel-texts';

/** What an AI message is read into: the SDK's own Markdown reader's tree, or the text as it came. */
type ReadMarkdown = { ok: true; document: DocumentJson; skipFirstHeading: boolean } | { ok: false };

/** Link schemes a chat message may open; everything else stays text (K14). */
const OPENABLE = /^(https?:|mailto:)/i;

/** K14: Markdown read with the SDK's importer (links checked, raw HTML dropped), never into innerHTML. */
export function readChatMarkdown(markdown: string): ReadMarkdown {
  try {
    const { document, report } = markdownToDocument(markdown);
    // The importer files text before any `#` heading under a section it titles "Untitled": not the AI's words.
    const skipFirstHeading = report.notes.some((note) => note.code === 'untitled_section_added');
    return { ok: true, document, skipFirstHeading };
  } catch {
    return { ok: false };
  }
}

function inline(nodes: readonly InlineJson[] | undefined): ReactNode[] {
  return (nodes ?? []).map((node, index) => {
    // biome-ignore lint/suspicious/noArrayIndexKey: a read-only tree rebuilt from the text: position is identity.
    if (node.type === 'hardBreak') return <br key={index} />;
    let element: ReactNode = node.text;
    for (const mark of node.marks ?? []) {
      if (mark.type === 'bold') element = <strong>{element}</strong>;
      else if (mark.type === 'italic') element = <em>{element}</em>;
      else if (mark.type === 'underline') element = <u>{element}</u>;
      else if (mark.type === 'strike') element = <s>{element}</s>;
      else if (mark.type === 'code')
        element = <code className="rounded bg-base-300 px-1 font-mono text-[0.9em]">{element}</code>;
      else if (mark.type === 'link' && OPENABLE.test(mark.attrs.href) && isAllowedLinkHref(mark.attrs.href))
        element = (
          <a className="link" href={mark.attrs.href} target="_blank" rel="noopener noreferrer nofollow">
            {element}
          </a>
        );
    }
    // biome-ignore lint/suspicious/noArrayIndexKey: a read-only tree rebuilt from the text: position is identity.
    return <span key={index}>{element}</span>;
  });
}

function plain(nodes: readonly { text: string }[] | undefined): string {
  return (nodes ?? []).map((node) => node.text).join('');
}

/** K15: a code block with its Insert button. */
function CodeBlock({
  code,
  language,
  onInsert,
}: {
  code: string;
  language: string | null;
  onInsert: (code: string) => void;
}) {
  return (
    <figure className="my-2 overflow-hidden rounded-box border border-base-300 bg-base-200">
      <figcaption className="flex items-center justify-between gap-2 border-b border-base-300 px-2 py-1 text-xs">
        <span className="opacity-80">{TEXTS.code(language)}</span>
        <button
          type="button"
          className="btn btn-ghost btn-xs"
          onClick={(event) => {
            // The click belongs to the button, not to the message that opens its preview (K17).
            event.stopPropagation();
            onInsert(code);
          }}
        >
          {TEXTS.insert}
        </button>
      </figcaption>
      <pre className="overflow-x-auto p-2 text-xs">
        <code>{code}</code>
      </pre>
    </figure>
  );
}

function blocks(
  nodes: readonly (BlockJson | SubsectionJson)[],
  onInsert: (code: string) => void,
): ReactNode[] {
  return nodes.map((node, index) => block(node, index, onInsert));
}

function block(node: BlockJson | SubsectionJson, key: number, onInsert: (code: string) => void): ReactNode {
  switch (node.type) {
    case 'paragraph':
      return (
        <p
          key={key}
          className="my-1"
          style={node.attrs.indent ? { marginInlineStart: node.attrs.indent * 24 } : undefined}
        >
          {inline(node.content)}
        </p>
      );
    case 'heading':
      return (
        <p key={key} className="mt-2 mb-1 font-semibold">
          {inline(node.content)}
        </p>
      );
    case 'bulletList':
      return (
        <ul key={key} className="my-1 list-disc ps-5">
          {node.content.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a read-only tree rebuilt from the text: position is identity.
            <li key={index}>{blocks(item.content, onInsert)}</li>
          ))}
        </ul>
      );
    case 'orderedList':
      return (
        <ol key={key} className="my-1 list-decimal ps-5" start={node.attrs.start}>
          {node.content.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a read-only tree rebuilt from the text: position is identity.
            <li key={index}>{blocks(item.content, onInsert)}</li>
          ))}
        </ol>
      );
    case 'blockquote':
      return (
        <blockquote key={key} className="my-1 border-s-4 border-base-300 ps-3 opacity-90">
          {blocks(node.content, onInsert)}
        </blockquote>
      );
    case 'codeBlock':
      return (
        <CodeBlock key={key} code={plain(node.content)} language={node.attrs.language} onInsert={onInsert} />
      );
    case 'horizontalRule':
      return <hr key={key} className="my-2 border-base-300" />;
    case 'subsection': {
      const [heading, ...rest] = node.content;
      return (
        <div key={key}>
          <p className="mt-2 mb-1 font-semibold">{plain(heading.content)}</p>
          {blocks(rest, onInsert)}
        </div>
      );
    }
  }
}

function section(node: SectionJson, key: number, skipHeading: boolean, onInsert: (code: string) => void) {
  const [heading, ...rest] = node.content;
  return (
    <div key={key}>
      {!skipHeading && <p className="mt-2 mb-1 text-base font-bold">{plain(heading.content)}</p>}
      {blocks(rest, onInsert)}
    </div>
  );
}

/**
 * An AI message's Markdown as React elements (K14, K15): text is always text (no innerHTML), links open only
 * for http(s) and mailto, and each code block has an Insert button. Text that cannot be read as Markdown is
 * shown as it came.
 */
export const ChatMarkdown = memo(function ChatMarkdown({
  content,
  onInsert,
}: {
  content: string;
  onInsert: (code: string) => void;
}) {
  const read = useMemo(() => readChatMarkdown(content), [content]);
  if (!read.ok) return <p className="whitespace-pre-wrap">{content}</p>;
  return (
    <div className="[overflow-wrap:anywhere]">
      {read.document.content.map((node, index) =>
        section(node, index, index === 0 && read.skipFirstHeading, onInsert),
      )}
    </div>
  );
});
