import { SidePanel } from './side-panel';
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
  const line = chatContextLine(context);
  return (
    <SidePanel
      heading={TEXTS.heading}
      header={
        <p className="truncate text-sm opacity-80" title={line}>
          <span className="sr-only">{TEXTS.context}: </span>
          <span dir="auto">{line}</span>
        </p>
      }
      bodyClassName="flex items-center justify-center p-6 text-center text-sm opacity-70"
    >
      <p>{TEXTS.comingSoon}</p>
    </SidePanel>
  );
}
