/** Where a chat socket connects: the scope of spec 001 §7 "Realtime chat". */
export interface ChatScope {
  documentUuid: string;
  sectionUuid?: string | null;
  subsectionUuid?: string | null;
  chatId?: string | null;
}

/**
 * The socket URL `/ws/document/{doc}[/section/{s}][/subsection/{ss}]/chat[/{chatId}]/` under `baseUrl`
 * (http → ws, https → wss); every segment is percent-encoded (C3). It never holds the session token: the
 * session sends it in its first frame (C7), and the server refuses a token in the URL (close 4400).
 */
export function chatSocketUrl(baseUrl: string, scope: ChatScope): string {
  const url = new URL(baseUrl);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  const seg = (value: string) => encodeURIComponent(value);
  let path = `/ws/document/${seg(scope.documentUuid)}`;
  if (scope.sectionUuid) path += `/section/${seg(scope.sectionUuid)}`;
  if (scope.subsectionUuid) path += `/subsection/${seg(scope.subsectionUuid)}`;
  path += '/chat';
  if (scope.chatId) path += `/${seg(scope.chatId)}`;
  const prefix = url.pathname.replace(/\/+$/, '');
  url.pathname = `${prefix}${path}/`;
  // A query the base may carry is dropped too: it is no place for a secret, and the server wants none.
  url.search = '';
  url.hash = '';
  return url.toString();
}
