import { describe, expect, it } from 'vitest';
import { readChatMarkdown } from '../../src/chat/chat-markdown';
import {
  chatContextLine,
  chatScopeOf,
  chatTargetOf,
  isSendKey,
  isThinking,
  providerText,
  recentChatLabel,
} from '../../src/chat/chat-panel-rules';

const message = (role: 'user' | 'ai' | 'system', content: string) => ({
  id: `${role}-${content}`,
  role,
  content,
  timestamp: '2026-01-15T09:00:00Z',
  isPartial: false,
  metadata: {},
});

describe('chat panel rules', () => {
  it('K3: the context line names the section and the subsection', () => {
    expect(chatContextLine({ section: 'Market', subsection: 'Size' })).toBe('Market > Size');
    expect(chatContextLine({ section: 'Market', subsection: null })).toBe('Market');
    expect(chatContextLine({ section: null, subsection: 'Size' })).toBe('No section selected');
  });

  it('K4, K5: the scope and target are the innermost selected part', () => {
    const subsection = chatScopeOf('d', { sectionUuid: 's', subsectionUuid: 'ss' });
    expect(subsection).toEqual({ documentUuid: 'd', sectionUuid: 's', subsectionUuid: 'ss' });
    expect(chatTargetOf(subsection)).toEqual({ target: 'subsection', objectId: 'ss', documentUuid: 'd' });
    const section = chatScopeOf('d', { sectionUuid: 's', subsectionUuid: null });
    expect(chatTargetOf(section)).toEqual({ target: 'section', objectId: 's', documentUuid: 'd' });
    // A subsection without its section is no scope of its own.
    const none = chatScopeOf('d', { sectionUuid: null, subsectionUuid: 'ss' });
    expect(none).toEqual({ documentUuid: 'd', sectionUuid: null, subsectionUuid: null });
    expect(chatTargetOf(none)).toEqual({ target: 'document', objectId: 'd', documentUuid: 'd' });
  });

  it('K6: a recent chat reads "date - title"', () => {
    expect(recentChatLabel({ title: 'Goals', updatedAt: '2026-01-14T08:00:00Z', createdAt: null })).toBe(
      '14 Jan 2026 - Goals',
    );
    expect(recentChatLabel({ title: ' ', updatedAt: null, createdAt: '2025-12-01T00:00:00Z' })).toBe(
      '1 Dec 2025 - Untitled Chat',
    );
    expect(recentChatLabel({ title: 'Goals', updatedAt: 'not a date', createdAt: null })).toBe('Goals');
  });

  it('K7: the provider label: offline, else the session, else the provider call', () => {
    const info = { label: 'OpenAI · gpt-4.1-mini', offline: false };
    expect(providerText({ session: null, info: null })).toBeNull();
    expect(providerText({ session: null, info })).toBe('OpenAI · gpt-4.1-mini');
    expect(providerText({ session: 'Local · m', info })).toBe('Local · m');
    expect(
      providerText({ session: 'Offline drafts', info: { label: 'Offline drafts', offline: true } }),
    ).toBe('offline');
  });

  it('K12: Thinking until the answer has text', () => {
    expect(isThinking(false, [message('user', 'hi')])).toBe(false);
    expect(isThinking(true, [message('user', 'hi')])).toBe(true);
    expect(isThinking(true, [message('user', 'hi'), message('ai', '')])).toBe(true);
    expect(isThinking(true, [message('user', 'hi'), message('ai', 'H')])).toBe(false);
    expect(isThinking(true, [message('ai', 'old'), message('user', 'again')])).toBe(true);
  });

  it('K10: Enter sends; Shift+Enter and composing do not', () => {
    expect(isSendKey({ key: 'Enter', shiftKey: false })).toBe(true);
    expect(isSendKey({ key: 'Enter', shiftKey: true })).toBe(false);
    expect(isSendKey({ key: 'Enter', shiftKey: false, isComposing: true })).toBe(false);
    expect(isSendKey({ key: 'a', shiftKey: false })).toBe(false);
  });

  it('K14: Markdown is read by the SDK; the made-up Untitled section is marked to be hidden', () => {
    const read = readChatMarkdown('Hello **there**\n\n```ts\nconst x = 1;\n```');
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.skipFirstHeading).toBe(true);
    const headed = readChatMarkdown('# Plan\n\ntext');
    expect(headed.ok && headed.skipFirstHeading).toBe(false);
  });
});
