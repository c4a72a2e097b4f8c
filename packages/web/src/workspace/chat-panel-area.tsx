import { useId } from 'react';
import { CHAT_AREA_TEXTS as TEXTS } from './workspace-texts';

/** The titles the chat's context line shows (spec 001 §2 "Chat panel": section > subsection). */
export interface ChatContext {
  section: string | null;
  subsection: string | null;
}

/** W28: the context line: `section > subsection`, or the section alone. */
export function chatContextLine(context: ChatContext): string {
  if (context.section === null) return TEXTS.noSelection;
  return context.subsection === null ? context.section : `${context.section} > ${context.subsection}`;
}

/**
 * W28: the chat panel's place. The AI issue fills it; until then it names the part of the plan a chat
 * would be about and says the assistant is coming, with nothing that looks like a working chat.
 */
export function ChatPanelArea({ context }: { context: ChatContext }) {
  const headingId = useId();
  const line = chatContextLine(context);
  return (
    <section aria-labelledby={headingId} className="flex h-full min-w-0 flex-col bg-base-100">
      <div className="border-b border-base-300 px-4 py-3">
        <h2 id={headingId} className="font-semibold">
          {TEXTS.heading}
        </h2>
        <p className="truncate text-sm opacity-80" title={line}>
          <span className="sr-only">{TEXTS.context}: </span>
          <span dir="auto">{line}</span>
        </p>
      </div>
      <div className="flex flex-1 items-center justify-center p-6 text-center text-sm opacity-70">
        <p>{TEXTS.comingSoon}</p>
      </div>
    </section>
  );
}
