import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { post } from '../../server/webhooks/deliver.js';
import { isPrivateAddress } from '../../server/webhooks/guard.js';

// Private targets are refused unless the operator allows them (docs/webhooks.md, "Private
// addresses"): a literal loopback address, a name that resolves to one (localhost), and a
// redirect to one. The server here runs without WEBHOOK_ALLOW_PRIVATE.

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let receiver: Receiver;
let other: Receiver;

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Guarded Owner');
  // Another loopback address (Linux answers all of 127/8): a redirect target that only a followed redirect reaches.
  [receiver, other] = await Promise.all([startReceiver(), startReceiver('127.0.0.2')]);
});
afterAll(async () => {
  await server?.close();
  await Promise.all([receiver?.close(), other?.close()]);
});

const add = (url: string) =>
  fetch(`${server.url}/api/v1/webhooks`, {
    method: 'POST',
    headers: { ...owner.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ url, events: ['session.errors'] }),
  });

describe('webhook targets', () => {
  it.each([
    ['a literal loopback address', 'https://127.0.0.1:9/hook', 'resolves to 127.0.0.1'],
    ['an IPv4-mapped loopback address', 'https://[::ffff:127.0.0.1]:9/hook', 'a private address'],
    ['a name that resolves to loopback', 'https://localhost:9/hook', 'localhost resolves to'],
    ['the cloud metadata address', 'https://169.254.169.254/latest', 'a private address'],
    ['plain http', 'http://example.com/hook', 'must start with https://'],
    ['a user and password', 'https://user:pass@example.com/hook', 'must not carry a user name or password'],
  ])('refuses %s without WEBHOOK_ALLOW_PRIVATE', async (_what, url, reason) => {
    const response = await add(url);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain(reason);
  });

  it('knows private addresses from public ones, IPv4 and IPv6', () => {
    for (const address of [
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '127.0.0.1',
      '0.0.0.0',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:93.184.216.34']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('checks every redirect hop as the first: a redirect to a refused address is not followed', async () => {
    // The first hop's address is allowed (as an operator's rule would allow one receiver); the others are not.
    const policy = { allowed: (address: string) => address === '127.0.0.1' || !isPrivateAddress(address), allowHttp: true };
    receiver.redirectTo(`${other.url}/stolen`);
    const refused = await post(`${receiver.url}/first`, {}, '{}', policy);
    expect(refused).toMatchObject({ delivered: false, responseCode: 302 });
    expect(refused.error).toContain('resolves to 127.0.0.2, a private address');
    expect(other.received).toHaveLength(0);

    // The same redirect where the rule allows its target too is followed, with the same POST.
    const both = { allowed: (address: string) => ['127.0.0.1', '127.0.0.2'].includes(address), allowHttp: true };
    expect(await post(`${receiver.url}/first`, { 'tapedeck-event': 'webhook.test' }, '{"a":1}', both)).toEqual({
      delivered: true,
      responseCode: 200,
      error: null,
    });
    expect(other.received).toMatchObject([{ path: '/stolen', body: '{"a":1}', headers: { 'tapedeck-event': 'webhook.test' } }]);

    // And with the operator's default rule, the first hop itself is refused before any connection.
    const before = receiver.received.length;
    const strict = await post(`${receiver.url}/first`, {}, '{}', { allowed: (address) => !isPrivateAddress(address), allowHttp: true });
    expect(strict).toMatchObject({ delivered: false, responseCode: null });
    expect(receiver.received).toHaveLength(before);
  });
});
