// Your own origin in front of Planwright: serves the built page and reverse-proxies the API, the sign-in
// endpoints and the chat WebSocket to PLANWRIGHT_URL, so the page and the API share one origin (the server
// sends no CORS headers). node:http only. Start Planwright with PUBLIC_URL = this server's origin: the proxy
// sends Planwright its own Host, and the server accepts a browser's Origin only when it is PUBLIC_URL's.
//   PLANWRIGHT_URL=http://127.0.0.1:8787 PORT=8080 node examples/browser/serve.mjs [built-dir]
import { readFile } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Paths that belong to Planwright: the REST API, the allauth sign-in endpoints, the chat socket. */
export const PROXIED_PREFIXES = ['/api/', '/_allauth/', '/ws/'];

/** The page's files, by URL path; nothing else is read from disk (no path is ever joined from the URL). */
const STATIC_FILES = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/index.html': ['index.html', 'text/html; charset=utf-8'],
  '/embedded-sdk.js': ['embedded-sdk.js', 'text/javascript; charset=utf-8'],
  '/embedded-sdk.js.map': ['embedded-sdk.js.map', 'application/json'],
  '/embedded-sdk.css': ['embedded-sdk.css', 'text/css; charset=utf-8'],
};

/** The page's own policy: its script and style only; fetch and the chat socket to this origin only. */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cache-control': 'no-store',
};

/** Headers that describe one connection, not the message: never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
]);

function isProxied(url) {
  return PROXIED_PREFIXES.some((prefix) => url.startsWith(prefix));
}

/** The request's headers for the upstream: Planwright's own Host, and where the request came from. */
function upstreamHeaders(req, upstream, keepUpgrade) {
  const headers = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || (HOP_BY_HOP.has(name) && !keepUpgrade)) continue;
    headers[name] = value;
  }
  headers.host = upstream.host;
  headers['x-forwarded-host'] = req.headers.host ?? '';
  headers['x-forwarded-proto'] = 'http';
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
  if (keepUpgrade) {
    headers.connection = 'Upgrade';
    headers.upgrade = req.headers.upgrade ?? 'websocket';
  }
  return headers;
}

function send(res, status, message) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...PAGE_HEADERS }).end(message);
}

/**
 * Starts the page's server.
 * @param {{ root?: string, upstream: string, port?: number, host?: string }} options
 *   root: the built page (build.mjs's out dir); upstream: Planwright's URL; port 0 picks a free one.
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startEmbeddedSdkServer({
  root = join(here, 'dist'),
  upstream,
  port = 8080,
  host = '127.0.0.1',
}) {
  const target = new URL(upstream);
  const requestUpstream = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstreamOptions = (req, keepUpgrade) => ({
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port,
    method: req.method,
    path: req.url,
    headers: upstreamHeaders(req, target, keepUpgrade),
  });

  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (isProxied(url)) {
      const forward = requestUpstream(upstreamOptions(req, false), (answer) => {
        const headers = { ...answer.headers };
        for (const name of HOP_BY_HOP) delete headers[name];
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      });
      forward.on('error', () => {
        if (res.headersSent) res.destroy();
        else send(res, 502, 'Planwright is not reachable.');
      });
      req.pipe(forward);
      return;
    }
    const file = STATIC_FILES[new URL(url, 'http://page').pathname];
    if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) return send(res, 404, 'Not found.');
    readFile(join(resolve(root), file[0])).then(
      (body) => res.writeHead(200, { 'content-type': file[1], ...PAGE_HEADERS }).end(body),
      () => send(res, 404, 'Not built: run build.mjs first.'),
    );
  });

  // Upgraded sockets leave the HTTP server's books: kept here so close() can end them.
  const sockets = new Set();
  // The chat socket: the upgrade goes to Planwright with the browser's Origin; then bytes flow both ways.
  server.on('upgrade', (req, socket, head) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (!isProxied(req.url ?? '')) return socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
    const forward = requestUpstream(upstreamOptions(req, true));
    forward.on('upgrade', (answer, upstreamSocket, upstreamHead) => {
      const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`];
      for (let i = 0; i < answer.rawHeaders.length; i += 2)
        lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (upstreamHead.length > 0) socket.write(upstreamHead);
      if (head.length > 0) upstreamSocket.write(head);
      upstreamSocket.on('error', () => socket.destroy());
      socket.on('close', () => upstreamSocket.destroy());
      upstreamSocket.on('close', () => socket.destroy());
      upstreamSocket.pipe(socket).pipe(upstreamSocket);
    });
    // Planwright refused the upgrade (a plain HTTP answer): pass its status on and close.
    forward.on('response', (answer) => {
      socket.end(`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}\r\nConnection: close\r\n\r\n`);
      answer.resume();
    });
    forward.on('error', () => socket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n'));
    forward.end();
  });

  await new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolveListen);
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host}:${boundPort}`,
    close: () =>
      new Promise((resolveClose) => {
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolveClose());
      }),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const upstream = process.env.PLANWRIGHT_URL ?? 'http://127.0.0.1:8787';
  const root = process.argv[2] ?? join(here, 'dist');
  startEmbeddedSdkServer({ root, upstream, port: Number(process.env.PORT ?? 8080) }).then(
    ({ url }) => console.log(`${url} → page from ${root}, API and chat from ${upstream}`),
    (error) => {
      console.error(`serve failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
