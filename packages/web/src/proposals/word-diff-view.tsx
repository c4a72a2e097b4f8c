import type { WordDiffPart } from '@planwright/sdk/proposals';
import type { JSX } from 'react';

/**
 * A word diff as text (R7): insertions in `<ins>`, deletions in `<del>`, each announced to screen readers
 * by a visually hidden word before it, since the elements alone are not read out everywhere.
 */
export function WordDiffView(props: { parts: readonly WordDiffPart[] }): JSX.Element {
  return (
    <div className="pw-word-diff whitespace-pre-wrap rounded-box bg-base-200 p-3 text-sm [overflow-wrap:anywhere]">
      {props.parts.map((part, index) => {
        // Parts never move, so their index is a stable key.
        const key = `${index}-${part.kind}`;
        if (part.kind === 'equal') return <span key={key}>{part.text}</span>;
        const inserted = part.kind === 'insert';
        return (
          <span key={key}>
            <span className="sr-only">{inserted ? '[inserted: ' : '[deleted: '}</span>
            {inserted ? (
              <ins className="rounded-sm bg-success/20 underline decoration-success">{part.text}</ins>
            ) : (
              <del className="rounded-sm bg-error/20 line-through decoration-error">{part.text}</del>
            )}
            <span className="sr-only">]</span>
          </span>
        );
      })}
    </div>
  );
}
