import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { ProxyUpstream } from './tcp-proxy.js';

/**
 * A TCP proxy in front of one loopback upstream that injects network faults on command: it resets
 * connections (an RST both ways, as a failed path does) or stalls them (bytes held in both directions, the
 * sockets stay open, as a silently dead path looks), then resumes or resets them. It carries HTTP and
 * WebSocket alike. `tcp-proxy.ts` balances over several upstreams; this one breaks links.
 */
export interface FaultProxy {
  /** `http://127.0.0.1:{port}` */
  readonly url: string;
  readonly port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Connections open now. */
  readonly open: number;
  /** Resets every open connection (RST to both ends). */
  resetAll(): void;
  /** Stops forwarding on every open connection and on new ones until {@link resume} or {@link resetAll}. */
  stallAll(): void;
  /** Like {@link stallAll}, but only what the server sends: requests still reach it whole. */
  stallAnswers(): void;
  /** Forwards again, delivering what was held, in order. */
  resume(): void;
  /** Resets each connection as it arrives, until {@link resume}. */
  refuse(): void;
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  upstream: Socket;
  held: Array<{ to: Socket; chunk: Buffer }>;
}

/** Starts a fault proxy to `upstream` on a free loopback port. */
export async function startFaultProxy(upstream: ProxyUpstream): Promise<FaultProxy> {
  const links = new Set<Link>();
  // Requests (client → server) and answers (server → client) are held apart.
  let stalledRequests = false;
  let stalledAnswers = false;
  let refusing = false;
  let accepted = 0;

  const reset = (link: Link) => {
    links.delete(link);
    // resetAndDestroy sends an RST: what a client sees when a network path fails.
    link.client.resetAndDestroy();
    link.upstream.resetAndDestroy();
  };
  const forward = (link: Link, to: Socket, chunk: Buffer) => {
    if (to === link.client ? stalledAnswers : stalledRequests) link.held.push({ to, chunk });
    else if (!to.destroyed) to.write(chunk);
  };

  const server: Server = createServer((client) => {
    accepted += 1;
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    const target = createConnection({ host: upstream.host, port: upstream.port });
    const link: Link = { client, upstream: target, held: [] };
    links.add(link);
    client.on('data', (chunk: Buffer) => forward(link, target, chunk));
    target.on('data', (chunk: Buffer) => forward(link, client, chunk));
    const end = () => {
      if (!links.delete(link)) return;
      client.destroy();
      target.destroy();
    };
    // A half-close passes through once nothing is held, so HTTP's end of request still works.
    client.on('end', () => (stalledRequests ? end() : target.end()));
    target.on('end', () => (stalledAnswers ? end() : client.end()));
    for (const socket of [client, target]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the fault proxy is not listening on TCP');
  const port = address.port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get accepted() {
      return accepted;
    },
    get open() {
      return links.size;
    },
    resetAll() {
      for (const link of [...links]) reset(link);
    },
    stallAll() {
      stalledRequests = true;
      stalledAnswers = true;
    },
    stallAnswers() {
      stalledAnswers = true;
    },
    resume() {
      stalledRequests = false;
      stalledAnswers = false;
      refusing = false;
      for (const link of links) {
        for (const { to, chunk } of link.held.splice(0)) if (!to.destroyed) to.write(chunk);
      }
    },
    refuse() {
      refusing = true;
    },
    async close() {
      for (const link of [...links]) reset(link);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
