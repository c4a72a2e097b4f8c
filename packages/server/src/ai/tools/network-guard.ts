import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';

/**
 * Addresses a server-side request to a URL a user typed must never reach (TL3): this machine, private and
 * link-local networks (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast, reserved and
 * documentation ranges, and IPv6 forms that wrap an IPv4 address (mapped, NAT64) so none slips through.
 */
const FORBIDDEN_RANGES: ReadonlyArray<readonly [string, number, 'ipv4' | 'ipv6', string]> = [
  ['0.0.0.0', 8, 'ipv4', 'an unspecified address'],
  ['10.0.0.0', 8, 'ipv4', 'a private address'],
  ['100.64.0.0', 10, 'ipv4', 'a carrier-grade NAT address'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address'],
  ['172.16.0.0', 12, 'ipv4', 'a private address'],
  ['192.0.0.0', 24, 'ipv4', 'a reserved address'],
  ['192.0.2.0', 24, 'ipv4', 'a documentation address'],
  ['192.168.0.0', 16, 'ipv4', 'a private address'],
  ['198.18.0.0', 15, 'ipv4', 'a benchmarking address'],
  ['198.51.100.0', 24, 'ipv4', 'a documentation address'],
  ['203.0.113.0', 24, 'ipv4', 'a documentation address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved address'],
  ['::', 128, 'ipv6', 'an unspecified address'],
  ['::1', 128, 'ipv6', 'a loopback address'],
  ['::', 96, 'ipv6', 'an IPv4-compatible address'],
  ['::ffff:0:0', 96, 'ipv6', 'an IPv4-mapped address'],
  ['64:ff9b::', 96, 'ipv6', 'a NAT64 address'],
  ['100::', 64, 'ipv6', 'a discard address'],
  ['2001:db8::', 32, 'ipv6', 'a documentation address'],
  ['fc00::', 7, 'ipv6', 'a unique local address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
];

const forbidden = FORBIDDEN_RANGES.map(([network, prefix, type, reason]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, type);
  return { list, type, reason };
});

/** Why `address` (an IP literal) may not be reached, or null when it is a public address. */
export function forbiddenAddressReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 0) return 'not an IP address';
  const type = version === 4 ? 'ipv4' : 'ipv6';
  for (const range of forbidden) {
    if (range.type === type && range.list.check(bare, type)) return range.reason;
  }
  return null;
}

/** A request the guard refused: `reason` is in fixed words, safe to show. */
export class NetworkGuardError extends Error {
  override name = 'NetworkGuardError';
}

/** Resolves a host name the way `dns.lookup` does; injectable so tests can play DNS. */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

export interface NetworkGuardOptions {
  /** Lets requests reach forbidden addresses (development and tests only). */
  allowPrivateNetwork: boolean;
  resolve?: HostResolver;
}

/**
 * The addresses `hostname` may be reached at: every address it resolves to must be allowed, or the name is
 * refused as a whole (a name with one private address among public ones is a rebinding trick).
 */
export async function checkedAddresses(
  hostname: string,
  options: NetworkGuardOptions,
): Promise<LookupAddress[]> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(bare);
  const addresses: LookupAddress[] = literal
    ? [{ address: bare, family: literal }]
    : await (options.resolve ?? systemResolver)(bare).catch(() => {
        throw new NetworkGuardError(`The name ${bare} could not be resolved.`);
      });
  if (addresses.length === 0) throw new NetworkGuardError(`The name ${bare} could not be resolved.`);
  if (!options.allowPrivateNetwork) {
    for (const { address } of addresses) {
      const reason = forbiddenAddressReason(address);
      if (reason)
        throw new NetworkGuardError(`${bare} resolves to ${reason}, which this server may not reach.`);
    }
  }
  return addresses;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * `fetch` that reaches only allowed addresses (TL3, TL4). The connection's own DNS lookup is the checked
 * one, so the address checked is the address connected to: a name that answers a public address to a
 * first lookup and a private one to the next (DNS rebinding) cannot get past it. Redirects are refused
 * rather than followed, since a redirect could point anywhere.
 */
export function createGuardedFetch(options: NetworkGuardOptions): {
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  close(): Promise<void>;
} {
  const agent = new Agent({
    connect: {
      lookup: ((hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback) => {
        checkedAddresses(hostname, options).then(
          (addresses) => {
            if (lookupOptions.all) callback(null, addresses);
            else callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);
          },
          (error: Error) => callback(error as NodeJS.ErrnoException, lookupOptions.all ? [] : ''),
        );
      }) as never,
    },
  });
  const guardedFetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const target = new URL(url);
    if (target.protocol !== 'https:' && target.protocol !== 'http:')
      throw new NetworkGuardError(`${target.protocol} URLs are not fetched.`);
    // An IP literal never reaches `lookup`: it is checked here.
    if (isIP(target.hostname.replace(/^\[|\]$/g, '')) !== 0) await checkedAddresses(target.hostname, options);
    const response = await undiciFetch(target, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      redirect: 'error',
      dispatcher: agent,
    });
    return response as unknown as Response;
  };
  return { fetch: guardedFetch, close: () => agent.close() };
}

/** The error chain's guard refusal, if a request failed because of the guard. */
export function guardRefusalOf(error: unknown): NetworkGuardError | null {
  for (let current = error, depth = 0; current && depth < 6; depth += 1) {
    if (current instanceof NetworkGuardError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
