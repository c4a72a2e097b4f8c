import { CHAT_TEXTS } from '@planwright/sdk';

/** The chat panel's own words (spec 001 §2 "Chat panel", §8); the session's texts stay the SDK's `CHAT_TEXTS`. */
export const CHAT_PANEL_TEXTS = {
  panel: 'AI chat',
  heading: 'AI assistant',
  context: 'Chat context',
  noSelection: 'No section selected',
  provider: 'AI provider',
  offline: 'offline',
  history: 'Chat history',
  newChatItem: 'New Chat',
  newChatButton: 'New chat',
  noRecentChats: 'No recent chats',
  loadingRecent: 'Loading...',
  recentFailed: 'Failed to load recent chats',
  messages: 'Chat messages',
  empty: 'Ask about this part of your plan.',
  thinking: 'Thinking',
  loadingHistory: 'Loading chat history',
  connectionError: 'Connection Error',
  placeholder: "Let's plan",
  message: 'Message',
  send: 'Send',
  stop: 'Stop',
  uploadFile: 'Upload file',
  attach: 'Attach file',
  attaching: 'Reading file…',
  removeAttachment: (name: string) => `Remove ${name}`,
  attachFailed: 'The file could not be attached',
  tooManyAttachments: 'At most 3 files can be attached to one message.',
  attachmentRefused: 'The attached files are too large to send.',
  webSearch: 'Web Search',
  toolCalls: 'Tools used',
  /** "Web search (Brave Search): 3 results, 0.4 s" — what a tool call says in its answer (K23). */
  toolCallLine: (call: {
    toolName: string;
    source: 'mcp' | 'search';
    server: string;
    status: 'running' | 'done' | 'failed';
    durationMs: number | null;
    summary: string | null;
  }) => {
    const name = call.source === 'search' ? 'Web search' : call.toolName;
    const where = `${name} (${call.server})`;
    if (call.status === 'running') return `${where}: running…`;
    const took = call.durationMs === null ? '' : `, ${(call.durationMs / 1000).toFixed(1)} s`;
    const what = call.summary ?? (call.status === 'done' ? 'done' : 'failed');
    return `${where}: ${call.status === 'failed' ? 'failed, ' : ''}${what}${took}`;
  },
  searchUnavailable: 'This server has no web search connected: the answer will not search the web.',
  deepResearch: 'Deep Research',
  insert: 'Insert',
  insertFailed: 'Place the cursor in the editor first.',
  openMessage: 'Open message',
  preview: { user: 'Your message', ai: 'AI message', system: 'System message' },
  close: 'Close',
  dismiss: 'Dismiss',
  you: 'You',
  ai: 'AI',
  interrupted: '(interrupted)',
  notSent: 'Not sent',
  queued: 'Waiting for the connection',
  characters: (count: number) => `${count.toLocaleString('en')} characters`,
  truncated: '(shortened)',
  code: (language: string | null) => (language ? `Code (${language})` : 'Code'),
  ...{ untitledChat: CHAT_TEXTS.untitledChat },
} as const;
