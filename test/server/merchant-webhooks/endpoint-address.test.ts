/**
 * Where a stored webhook endpoint may point (server/merchant-webhooks/endpoint-address.ts) and how its connections hold to it
 * (server/merchant-webhooks/webhook-post.ts): https to public addresses only, every spelling of loopback, private, link-local,
 * metadata and reserved addresses refused, as written and after resolution, and again at each connection, where a
 * name that resolves elsewhere by then (DNS rebinding) is refused before any connection is made. Refusals are
 * proven by a real server on 127.0.0.1 that counts the connections it gets: none.
 */
import type { LookupAddress } from 'node:dns';
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointUrlAllowed, PUBLIC_ENDPOINTS, type Resolve } from '../../../server/merchant-webhooks/endpoint-address';
import { webhookTransport } from '../../../server/merchant-webhooks/webhook-post';
import { isLoopbackAddress, isPublicAddress } from '../../../server/lib/public-address';

/** A server on 127.0.0.1 that answers every request 204 and counts the connections it got. */
let listener: { port: number; connections: () => number; close: () => Promise<void> };
beforeAll(async () => {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', () => socket.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  listener = {
    port,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
});
afterAll(() => listener.close());

/** A resolver that answers `answers` for every name, in turn (the last one again), and counts what it was asked. */
function resolver(...answers: string[][]): Resolve & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    asked.push(hostname);
    const addresses = answers.length > 1 ? answers.shift()! : answers[0]!;
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

const post = (transport: ReturnType<typeof webhookTransport>, url: string) =>
  transport.post({ url, headers: {}, body: '{}', timeoutMs: 2_000, checked: true });

describe('public addresses', () => {
  it.each([
    ['93.184.216.34', true],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['::ffff:8.8.8.8', true],
    ['0.0.0.0', false],
    ['10.0.0.1', false],
    ['100.64.0.1', false],
    ['127.0.0.1', false],
    ['127.255.0.9', false],
    ['169.254.169.254', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.0.2.1', false],
    ['192.168.1.1', false],
    ['198.18.0.1', false],
    ['224.0.0.1', false],
    ['240.0.0.1', false],
    ['255.255.255.255', false],
    ['::', false],
    ['::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:a9fe:a9fe', false],
    ['64:ff9b::a00:1', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['fe80::1', false],
    ['ff02::1', false],
    ['2001:db8::1', false],
    ['2002:a00:1::', false],
    ['not an address', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('knows the loopback address in each of its forms', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1'])
      expect(isLoopbackAddress(address)).toBe(true);
    for (const address of ['10.0.0.1', '::2', '8.8.8.8', 'localhost']) expect(isLoopbackAddress(address)).toBe(false);
  });
});

describe('endpoint URLs with a real provider (npm run serve)', () => {
  it('refuses every spelling of loopback, private, link-local and metadata addresses, and http, without connecting', async () => {
    const port = listener.port;
    const refused = [
      `http://127.0.0.1:${port}/hooks`,
      `https://127.1:${port}/hooks`,
      `https://0x7f000001:${port}/hooks`,
      `https://2130706433:${port}/hooks`,
      `https://0177.0.0.1:${port}/hooks`,
      `https://[::1]:${port}/hooks`,
      `https://[::ffff:127.0.0.1]:${port}/hooks`,
      `https://localhost:${port}/hooks`,
      `https://hooks.localhost:${port}/hooks`,
      'https://127.0.0.1:5432/',
      'https://10.0.0.1/hooks',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fd00::1]/hooks',
      'https://0.0.0.0/hooks',
      'http://hooks.example.com/hooks',
      'http://127.1',
      'http://0x7f000001',
      'http://[::1]',
      'http://10.0.0.1',
      'http://169.254.169.254',
    ];
    const names = resolver(['93.184.216.34']);
    const policy = { ...PUBLIC_ENDPOINTS, resolve: names };
    const transport = webhookTransport(policy);
    const before = listener.connections();
    for (const url of refused) {
      expect(await endpointUrlAllowed(url, policy), url).toBe(false);
      await expect(post(transport, url), url).rejects.toMatchObject({ name: 'AddressNotAllowed' });
    }
    // Refused as written: not even a name was resolved, let alone a connection made.
    expect(names.asked).toEqual([]);
    expect(listener.connections()).toBe(before);
    transport.close();
  });

  it('refuses a name any of whose addresses is not public, and takes one whose addresses all are', async () => {
    const check = (url: string, ...addresses: string[]) => endpointUrlAllowed(url, { ...PUBLIC_ENDPOINTS, resolve: resolver(addresses) });
    expect(await check('https://hooks.example.com/in', '93.184.216.34')).toBe(true);
    expect(await check('https://hooks.example.com/in', '93.184.216.34', '2606:2800:220:1::248')).toBe(true);
    expect(await check('https://hooks.example.com/in', '10.1.2.3')).toBe(false);
    expect(await check('https://hooks.example.com/in', '93.184.216.34', '127.0.0.1')).toBe(false);
    expect(await check('https://hooks.example.com/in', '::ffff:169.254.169.254')).toBe(false);
    // A name that does not resolve yet is let through: each connection checks it again.
    const unresolved: Resolve = () => Promise.reject(Object.assign(new Error('no such name'), { code: 'ENOTFOUND' }));
    expect(await endpointUrlAllowed('https://not-yet.example.com/in', { ...PUBLIC_ENDPOINTS, resolve: unresolved })).toBe(true);
  });

  it('refuses at the connection a name that resolves to the loopback address by then (DNS rebinding), without connecting', async () => {
    // Public when the endpoint is added, loopback when the worker connects.
    const names = resolver(['93.184.216.34'], ['127.0.0.1']);
    const policy = { ...PUBLIC_ENDPOINTS, resolve: names };
    const url = `https://rebind.example.com:${listener.port}/hooks`;
    expect(await endpointUrlAllowed(url, policy)).toBe(true);
    const transport = webhookTransport(policy);
    const before = listener.connections();
    await expect(post(transport, url)).rejects.toMatchObject({ name: 'AddressNotAllowed' });
    expect(names.asked).toEqual(['rebind.example.com', 'rebind.example.com']);
    expect(listener.connections()).toBe(before);
    transport.close();
  });
});

describe('endpoint URLs on the emulator', () => {
  it('takes http and https to the loopback address, and connects through the checked address', async () => {
    const names = resolver(['127.0.0.1']);
    const policy = { loopback: true, resolve: names };
    for (const url of [`http://127.0.0.1:${listener.port}/`, `http://localhost:${listener.port}/`, 'https://[::1]/']) {
      expect(await endpointUrlAllowed(url, policy), url).toBe(true);
    }
    const transport = webhookTransport(policy);
    const before = listener.connections();
    // A name the policy resolves to the loopback address: the connection goes there (the check is what connects).
    expect(await post(transport, `http://receiver.example.com:${listener.port}/hooks`)).toBe(204);
    expect(listener.connections()).toBe(before + 1);
    transport.close();
  });

  it('still refuses private, link-local and metadata addresses, and http to a public one', async () => {
    const policy = { loopback: true, resolve: resolver(['93.184.216.34']) };
    for (const url of ['http://10.0.0.1', 'http://169.254.169.254', 'https://192.168.0.10/', 'http://hooks.example.com/']) {
      expect(await endpointUrlAllowed(url, policy), url).toBe(false);
    }
    expect(await endpointUrlAllowed('https://hooks.example.com/', policy)).toBe(true);
    // http only to a name shown to be on the loopback address: one that does not resolve is not.
    const unresolved: Resolve = () => Promise.reject(Object.assign(new Error('no such name'), { code: 'ENOTFOUND' }));
    expect(await endpointUrlAllowed('http://not-yet.example.com/', { loopback: true, resolve: unresolved })).toBe(false);
    expect(await endpointUrlAllowed('https://not-yet.example.com/', { loopback: true, resolve: unresolved })).toBe(true);
  });

  it("sends the environment's endpoint (the operator's) wherever it points, unchecked", async () => {
    const transport = webhookTransport(PUBLIC_ENDPOINTS);
    const status = await transport.post({
      url: `http://127.0.0.1:${listener.port}/`,
      headers: {},
      body: '{}',
      timeoutMs: 2_000,
      checked: false,
    });
    expect(status).toBe(204);
    transport.close();
  });
});
