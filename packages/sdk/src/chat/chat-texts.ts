/** Every user-visible or logged chat text of spec 001 §4, §5 and §8, word for word (C2). */
export const CHAT_TEXTS = {
  notAuthenticated: 'You are not authenticated. Please log in.',
  notConnected: 'AI Agent is not connected',
  historyTimeout: 'Chat history took longer than expected to load. Some messages may be missing.',
  connectFailed: 'Failed to connect to chat.',
  newChatFailed: 'Failed to create or connect to new chat.',
  selectChatFailed: 'Failed to connect to selected chat.',
  resetFailed: 'Failed to reset AI connection.',
  disconnectedGaveUp: 'Chat disconnected. Please try again.',
  unableToReconnect: 'Unable to reconnect. Please send your message again.',
  sendFailed: 'Failed to send message. Please try again.',
  disconnectedResume: 'Chat disconnected. You can send a new message to resume.',
  maxReconnectLog: 'Maximum reconnect attempts reached. Giving up.',
  authFailedLog: 'Authentication failed. Please log in again.',
  reviewProposed: 'Review proposed changes',
  changesApplied: 'Changes applied successfully',
  proposalRejected: 'Proposed edit rejected. Click to review.',
  untitledChat: 'Untitled Chat',
} as const;

/** The timings of spec 001 §9, in milliseconds (C1). */
export const CHAT_TIMINGS = {
  pingMs: 30_000,
  /** C46: silence this long after a ping means the connection stalled. */
  pongTimeoutMs: 10_000,
  stabilizationMs: 5_000,
  initialErrorSuppressionMs: 3_000,
  /** No longer a limit: since C50 the session reconnects for as long as the page is visible (kept for compatibility). */
  maxReconnectAttempts: 5,
  reconnectBaseMs: 1_000,
  reconnectMaxMs: 30_000,
  switchWaitMs: 800,
  historyDelayMs: 500,
  historyTimeoutMs: 10_000,
  /** C48: history is asked again for an owed answer after 1 s, then 2, 4 and every 8 s, for 2 minutes. */
  answerPollBaseMs: 1_000,
  answerPollMaxMs: 8_000,
  answerWaitMs: 120_000,
  warningClearMs: 5_000,
  toolCompleteClearMs: 2_000,
} as const;

/** Default bound of the outgoing queue (C12). */
export const DEFAULT_CHAT_QUEUE_LIMIT = 100;

/** Planwright's own chat texts beyond spec 001's (the server's limits). */
export const CHAT_LIMIT_TEXTS = {
  /** The account has `CHAT_SOCKETS_PER_USER` chats open (close 4429). */
  tooManyConnections: 'Too many chat connections for this account: close another tab or window.',
} as const;
