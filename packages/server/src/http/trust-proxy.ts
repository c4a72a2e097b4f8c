import type { ServerConfig } from '../config/config.js';

/** Fastify's trust function: is the proxy at `hop` (0 = the TCP peer) at `address` believed? */
export type TrustProxyFunction = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as Fastify's `trustProxy` option. A hop count becomes a trust function (the nearest `count`
 * proxies): Fastify's runtime takes a number, but its types leave that form out. Addresses, CIDRs and range
 * names go through as they are; `false` believes no proxy.
 */
export function fastifyTrustProxy(
  setting: ServerConfig['trustProxy'],
): TrustProxyFunction | string[] | false {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}
