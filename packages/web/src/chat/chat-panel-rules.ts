import type { ChatMessage, ChatScope, ChatSummary, ChatTargetInput } from '@planwright/sdk';
import { CHAT_PANEL_TEXTS as TEXTS } from './chat-panel-texts';

/** The titles the chat's context line shows (spec 001 §2 "Chat panel": section > subsection). */
export interface ChatContext {
  section: string | null;
  subsection: string | null;
}

/** K3: the context line: `section > subsection`, or the section alone. */
export function chatContextLine(context: ChatContext): string {
  if (context.section === null) return TEXTS.noSelection;
  return context.subsection === null ? context.section : `${context.section} > ${context.subsection}`;
}

/** What the workspace has selected (the sidebar's selection). */
export interface ChatSelection {
  sectionUuid: string | null;
  subsectionUuid: string | null;
}

/** K4: the chat scope of a selection: the subsection, else the section, else the document. */
export function chatScopeOf(
  documentUuid: string,
  selection: ChatSelection,
): Required<Omit<ChatScope, 'chatId'>> {
  const sectionUuid = selection.sectionUuid;
  return {
    documentUuid,
    sectionUuid,
    subsectionUuid: sectionUuid === null ? null : selection.subsectionUuid,
  };
}

/** K5: what recent chats are listed and new chats made for: the scope's innermost part. */
export function chatTargetOf(scope: Required<Omit<ChatScope, 'chatId'>>): ChatTargetInput {
  const { documentUuid, sectionUuid, subsectionUuid } = scope;
  if (subsectionUuid !== null) return { target: 'subsection', objectId: subsectionUuid, documentUuid };
  if (sectionUuid !== null) return { target: 'section', objectId: sectionUuid, documentUuid };
  return { target: 'document', objectId: documentUuid, documentUuid };
}

const chatDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** K6: a recent chat as the history menu lists it: `date - title` (the title alone when no date is known). */
export function recentChatLabel(chat: Pick<ChatSummary, 'title' | 'updatedAt' | 'createdAt'>): string {
  const title = chat.title.trim() === '' ? TEXTS.untitledChat : chat.title;
  const when = Date.parse(chat.updatedAt ?? chat.createdAt ?? '');
  return Number.isNaN(when) ? title : `${chatDate.format(new Date(when))} - ${title}`;
}

/** Who answers, as the session or the provider call said it. */
export interface ProviderFacts {
  /** The session's `provider` (from the socket's frames), if any. */
  session: string | null;
  /** `GET apps/ai/provider/`, if it answered. */
  info: { label: string; offline: boolean } | null;
}

/** K7: the provider label: "offline" for the offline drafter, else the session's provider, else the call's label. */
export function providerText({ session, info }: ProviderFacts): string | null {
  if (info?.offline || session?.trim().toLowerCase() === 'offline') return TEXTS.offline;
  if (session && session.trim() !== '') return session;
  return info ? info.label : null;
}

/** K12: "Thinking" while an answer is owed and no AI text of it has arrived yet. */
export function isThinking(loading: boolean, messages: readonly ChatMessage[]): boolean {
  if (!loading) return false;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'user') return true;
    if (message?.role === 'ai' && message.content !== '') return false;
  }
  return true;
}

/** K10: Enter sends; Shift+Enter (and Enter while an input method composes) is a new line. */
export function isSendKey(event: { key: string; shiftKey: boolean; isComposing?: boolean }): boolean {
  return event.key === 'Enter' && !event.shiftKey && event.isComposing !== true;
}
