import type { DocumentOutline } from '@planwright/sdk';
import { ChatPanel, useChatPanelModel } from '../chat/chat-panel';
import { type ChatContext, chatContextLine } from '../chat/chat-panel-rules';
import { CHAT_PANEL_TEXTS } from '../chat/chat-panel-texts';
import type { PlanWorkspace } from './plan-workspace';
import type { Selection } from './selection-url';

export { type ChatContext, chatContextLine };

/** W28: the titles of the selected section and subsection, as the context line names them. */
export function chatContextOf(outline: DocumentOutline, selection: Selection): ChatContext {
  const section = outline.sections.find((candidate) => candidate.uuid === selection.sectionUuid);
  const subsection = section?.subsections.find((candidate) => candidate.uuid === selection.subsectionUuid);
  return { section: section?.displayTitle ?? null, subsection: subsection?.displayTitle ?? null };
}

/**
 * W28: the chat panel in the document workspace's split (`../chat/SPEC.md` K1–K20): one chat session per
 * opened document, following the sidebar's selection.
 */
export function ChatPanelArea({
  workspace,
  selection,
  outline,
}: {
  workspace: PlanWorkspace;
  selection: Selection;
  outline: DocumentOutline;
}) {
  const model = useChatPanelModel(workspace.uuid, selection);
  const context = chatContextOf(outline, selection);
  if (model === null) {
    // The first paint, before the session exists: the panel's frame with its context line.
    return (
      <section
        aria-label={CHAT_PANEL_TEXTS.panel}
        data-status="idle"
        className="flex h-full flex-col bg-base-100"
      >
        <div className="border-b border-base-300 px-4 py-2">
          <h2 className="font-semibold">{CHAT_PANEL_TEXTS.heading}</h2>
          <p className="truncate text-sm opacity-80">
            <span data-testid="chat-context" dir="auto">
              {chatContextLine(context)}
            </span>
          </p>
        </div>
      </section>
    );
  }
  return <ChatPanel model={model} editor={workspace} context={context} />;
}
