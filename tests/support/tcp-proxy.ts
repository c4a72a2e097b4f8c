import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** Where a proxy forwards to: a loopback port. */
export interface ProxyUpstream {
  host: string;
  port: number;
}

/**
 * A TCP proxy on a loopback port, started by a test: every accepted connection goes to the next live
 * upstream in turn (round-robin per connection, no stickiness), so it carries HTTP, WebSocket and
 * PostgreSQL's wire protocol alike. Upstreams can be dropped (their connections cut, no new ones) and
 * the whole proxy can refuse and cut everything, as a failed load-balancer target or network would.
 */
export interface TcpProxy {
  /** `127.0.0.1:{port}` of the proxy itself. */
  readonly host: string;
  readonly port: number;
  /** `http://127.0.0.1:{port}` */
  readonly url: string;
  /** How many connections each upstream was given, by index (what round-robin did). */
  readonly accepted: readonly number[];
  /** Cuts the upstream's open connections and sends no new ones to it until {@link restore}. */
  drop(index: number): void;
  /** Sends new connections to a dropped upstream again. */
  restore(index: number): void;
  /** Cuts every open connection; with `refuse`, new ones are cut on arrival until {@link resume}. */
  cut(options?: { refuse?: boolean }): void;
  /** Accepts new connections again after `cut({ refuse: true })`. */
  resume(): void;
  close(): Promise<void>;
}

interface Link {
  upstream: number;
  client: Socket;
  server: Socket;
}

/** Starts a proxy over `upstreams` (at least one). */
export async function startTcpProxy(upstreams: readonly ProxyUpstream[]): Promise<TcpProxy> {
  if (upstreams.length === 0) throw new Error('a proxy needs at least one upstream');
  const dropped = new Set<number>();
  const links = new Set<Link>();
  const accepted = upstreams.map(() => 0);
  let refusing = false;
  let next = 0;

  const pick = (): number | undefined => {
    for (let tried = 0; tried < upstreams.length; tried += 1) {
      const index = (next + tried) % upstreams.length;
      if (!dropped.has(index)) {
        next = index + 1;
        return index;
      }
    }
    return undefined;
  };
  const cutLink = (link: Link) => {
    // resetAndDestroy sends an RST: what a client sees when a host or a network path fails.
    link.client.resetAndDestroy();
    link.server.resetAndDestroy();
    links.delete(link);
  };

  const server: Server = createServer((client) => {
    const index = refusing ? undefined : pick();
    if (index === undefined) {
      client.resetAndDestroy();
      return;
    }
    accepted[index] = (accepted[index] ?? 0) + 1;
    const target = upstreams[index] as ProxyUpstream;
    const upstream = createConnection({ host: target.host, port: target.port });
    const link: Link = { upstream: index, client, server: upstream };
    links.add(link);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      if (!links.has(link)) return;
      links.delete(link);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the proxy is not listening on a TCP port');
  const port = address.port;

  return {
    host: '127.0.0.1',
    port,
    url: `http://127.0.0.1:${port}`,
    accepted,
    drop(index) {
      dropped.add(index);
      for (const link of [...links]) if (link.upstream === index) cutLink(link);
    },
    restore(index) {
      dropped.delete(index);
    },
    cut(options = {}) {
      refusing = options.refuse ?? false;
      for (const link of [...links]) cutLink(link);
    },
    resume() {
      refusing = false;
    },
    async close() {
      for (const link of [...links]) cutLink(link);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
