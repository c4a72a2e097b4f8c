import type { ChatSocket, ChatSocketFactory } from '@planwright/sdk';
import WebSocket from 'ws';

/**
 * Node 20 has no global WebSocket; `ws` speaks the browser-style API (`onopen`, `onmessage`, `send`,
 * `close`) that `ChatSession` uses, so it stands in for one (T40).
 */
export const nodeSocketFactory: ChatSocketFactory = (url) => new WebSocket(url) as unknown as ChatSocket;
