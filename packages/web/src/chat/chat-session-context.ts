import type { ChatSessionExtras } from '@planwright/sdk';
import { createContext } from 'react';

/**
 * K1: what the chat sessions of the page are made with beyond the client: the socket factory and ids. Empty
 * in the app (the browser's WebSocket); tests put the SDK's `FakeChatServer` here. The clock is the browser
 * ports' own.
 */
export const ChatSessionOptionsContext = createContext<ChatSessionExtras>({});
