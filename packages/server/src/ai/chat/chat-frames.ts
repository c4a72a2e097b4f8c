import {
  CHAT_CLOSE,
  CHAT_LIMITS,
  type ClientFrame,
  type ProtocolRefusal,
  parseClientFrame,
  type ServerFrame,
  type ToolCallFrame,
} from '@planwright/sdk';

/**
 * The chat's frames as the server handles them. The shapes are the SDK's protocol (`chat-protocol.ts`), said once
 * for both sides: clients' frames are parsed with its schema, and every frame sent is one of its `ServerFrame`s.
 */

/** The longest user message a chat takes (characters). */
export const MAX_CHAT_MESSAGE_LENGTH = CHAT_LIMITS.messageCharacters;

/** Frames a client sends (spec 001 §7 "Realtime chat", plus `stop`). Everything else is refused. */
export type IncomingChatFrame = ClientFrame;

/** A frame the server sends; every one is checked against the SDK's schema by the contract test. */
export type OutgoingChatFrame = ServerFrame;

/** A frame the server could not take, and why (sent back as an `error` frame). */
export type FrameRefusal = ProtocolRefusal;

/** Reads one client frame: JSON text with a known `type` (matched case-insensitively). Never throws. */
export function parseChatFrame(data: string): IncomingChatFrame | FrameRefusal {
  return parseClientFrame(data);
}

/** How a chat socket is closed (spec 001 §7; the SDK's C27 reads them). */
export { CHAT_CLOSE };

/** An external tool call (an MCP server's tool or the web search) as the chat shows and keeps it (CH20). */
export type ToolCallView = Omit<ToolCallFrame, 'type' | 'message_id'>;

/** The `tool_call` frame: `running` when a call starts, `done` or `failed` when it ends (CH20). */
export function toolCallFrame(messageId: string, call: ToolCallView): ToolCallFrame {
  return { type: 'tool_call', message_id: messageId, ...call };
}
