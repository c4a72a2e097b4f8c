import { describe, expect, it } from 'vitest';
import {
  checkedAddresses,
  createGuardedFetch,
  forbiddenAddressReason,
  NetworkGuardError,
} from '../../../src/ai/tools/network-guard.js';
import { startRawServer } from '../../support/mcp-test-server.js';

describe('the network guard (TL3, TL4)', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.9.9.9', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['100.127.255.254', 'a carrier-grade NAT address'],
    ['0.0.0.0', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['224.0.0.1', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['fc00::1', 'a unique local address'],
    ['fd12:3456::1', 'a unique local address'],
    ['fe80::1', 'a link-local address'],
    ['::ffff:127.0.0.1', 'an IPv4-mapped address'],
    ['::ffff:8.8.8.8', 'an IPv4-mapped address'],
    ['64:ff9b::a00:1', 'a NAT64 address'],
    ['255.255.255.255', 'a reserved address'],
  ])('TL3 %s is refused as %s', (address, reason) => {
    expect(forbiddenAddressReason(address)).toBe(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '[2001:4860:4860::8888]',
  ])('TL3 the public address %s is allowed', (address) => {
    expect(forbiddenAddressReason(address)).toBeNull();
  });

  it('TL3 a name is refused when any address it resolves to is private, and allowed when all are public', async () => {
    const resolve = async (name: string) =>
      name === 'rebind.example'
        ? [
            { address: '93.184.216.34', family: 4 },
            { address: '10.0.0.5', family: 4 },
          ]
        : [{ address: '93.184.216.34', family: 4 }];
    await expect(checkedAddresses('rebind.example', { allowPrivateNetwork: false, resolve })).rejects.toThrow(
      /rebind\.example resolves to a private address/,
    );
    await expect(
      checkedAddresses('public.example', { allowPrivateNetwork: false, resolve }),
    ).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
    await expect(
      checkedAddresses('rebind.example', { allowPrivateNetwork: true, resolve }),
    ).resolves.toHaveLength(2);
    const nowhere = async () => {
      throw new Error('ENOTFOUND');
    };
    await expect(
      checkedAddresses('nowhere.example', { allowPrivateNetwork: false, resolve: nowhere }),
    ).rejects.toThrow(NetworkGuardError);
  });

  it('TL4 the guarded fetch refuses a loopback literal, and a name resolving to loopback at connect time', async () => {
    const server = await startRawServer((_req, res) => res.end('secret'));
    const port = new URL(server.origin).port;
    const guarded = createGuardedFetch({
      allowPrivateNetwork: false,
      // The name resolves to loopback: what the connection's own lookup must catch.
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    await expect(guarded.fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow(/loopback/);
    await expect(guarded.fetch(`http://[::1]:${port}/`)).rejects.toThrow(/loopback/);
    await expect(guarded.fetch(`http://innocent.example:${port}/`)).rejects.toThrow();
    expect(server.requests).toHaveLength(0);
    await guarded.close();
    await server.close();
  });

  it('TL4 the connection goes to the address that was checked (a name pinned to the test server)', async () => {
    const server = await startRawServer((_req, res) => res.end('pinned'));
    const port = new URL(server.origin).port;
    const guarded = createGuardedFetch({
      allowPrivateNetwork: true,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    const response = await guarded.fetch(`http://mcp.test.invalid:${port}/`);
    expect(await response.text()).toBe('pinned');
    expect(server.requests[0]?.headers.host).toBe(`mcp.test.invalid:${port}`);
    await guarded.close();
    await server.close();
  });

  it('TL4 a redirect is refused, never followed', async () => {
    const target = await startRawServer((_req, res) => res.end('followed'));
    const server = await startRawServer((_req, res) =>
      res.writeHead(302, { location: `${target.origin}/internal` }).end(),
    );
    const guarded = createGuardedFetch({ allowPrivateNetwork: true });
    await expect(guarded.fetch(`${server.origin}/`)).rejects.toThrow();
    expect(target.requests).toHaveLength(0);
    await guarded.close();
    await server.close();
    await target.close();
  });
});
