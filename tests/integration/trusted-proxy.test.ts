import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { info, makeCampaign, pageEvents, postBatch, sessionId } from './ingest-support.js';

/**
 * A reverse proxy as the docs' nginx example sets it up: it forwards every request and appends
 * the address it saw to whatever X-Forwarded-For the client sent ($proxy_add_x_forwarded_for).
 */
async function appendingProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const proxy = http.createServer((request, response) => {
    const sent = request.headers['x-forwarded-for'];
    const headers = { ...request.headers, 'x-forwarded-for': `${sent ? `${String(sent)}, ` : ''}${request.socket.remoteAddress}` };
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forward.on('error', () => response.destroy());
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => proxy.close(() => resolve())) };
}

describe('behind a proxy that appends to X-Forwarded-For (TRUST_PROXY=1), a forged X-Forwarded-For does not escape per-address limits', () => {
  let server: TestServer;
  let proxy: Awaited<ReturnType<typeof appendingProxy>>;
  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: '1', RATE_SIGNIN_PER_IP: '3', RATE_NEW_SESSIONS_PER_IP: '3' });
    proxy = await appendingProxy(server.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  it('sign-in: the fourth start within a minute answers 429 whatever address the client writes', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const login = await fetch(`${proxy.url}/api/v1/auth/google/login`, { redirect: 'manual', headers: { 'x-forwarded-for': `203.0.113.${i}` } });
      statuses.push(login.status);
    }
    expect(statuses).toEqual([302, 302, 302, 429, 429]);
  });

  it('new sessions: the fourth within a minute answers 429 whatever address the client writes, and the address stored is the one the proxy saw', async () => {
    const campaignId = await makeCampaign(server);
    const via = { ...server, url: proxy.url };
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const batch = { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() };
      statuses.push((await postBatch(via, campaignId, batch, { headers: { 'x-forwarded-for': `198.51.100.${i}, 192.0.2.${i}` } })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const stored = await server.db.selectFrom('sessions').select('remote_ip').where('campaign_id', '=', campaignId).execute();
    expect(stored.map((s) => s.remote_ip)).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
  });
});

describe('TRUST_PROXY as a list of proxy addresses and CIDRs', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The socket (127.0.0.1) and a proxy tier inside 10.0.0.0/8 are trusted; nothing else is.
    server = await startServer({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8', RATE_NEW_SESSIONS_PER_IP: '2' });
  });
  afterAll(() => server?.close());

  async function storedAddress(campaignId: string, forwardedFor: string) {
    const id = sessionId();
    const answer = await postBatch(
      server,
      campaignId,
      { sessionId: id, seq: 0, info: info(), events: pageEvents() },
      { headers: { 'x-forwarded-for': forwardedFor } },
    );
    const row = await server.db.selectFrom('sessions').select('remote_ip').where('id', '=', id).executeTakeFirst();
    return { status: answer.status, address: row?.remote_ip };
  }

  it('the client is the last hop that is not a trusted proxy, never an entry the client wrote before it', async () => {
    const campaignId = await makeCampaign(server);
    expect(await storedAddress(campaignId, '8.8.4.4, 198.51.100.7, 10.1.2.3')).toEqual({ status: 200, address: '198.51.100.7' });
    expect(await storedAddress(campaignId, '8.8.8.8, 198.51.100.7, 10.9.9.9')).toEqual({ status: 200, address: '198.51.100.7' });
    // The same client behind the same proxies: its third new session in a minute is refused.
    expect((await storedAddress(campaignId, '1.1.1.1, 198.51.100.7, 10.1.2.3')).status).toBe(429);
    // Another client is counted on its own.
    expect(await storedAddress(campaignId, '198.51.100.8, 10.1.2.3')).toEqual({ status: 200, address: '198.51.100.8' });
  });
});
