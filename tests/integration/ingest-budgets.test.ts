import http from 'node:http';
import net from 'node:net';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, usingPostgres, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { info, makeCampaign, pageEvents, postBatch, sessionId, storedCounts } from './ingest-support.js';
import { byteCounter } from '../../server/cluster/byte-counter.js';
import { insertSession } from '../../server/recordings/seed.js';
import { QUOTA_REACHED } from '../../server/campaigns/storage-quota.js';

const MB = 1024 * 1024;

/** A batch whose uncompressed body is about `kib` KiB (filler no compressor would shrink much). */
function bigBatch(kib: number, id = sessionId(), seq = 0) {
  const filler = crypto.randomBytes(kib * 768).toString('base64');
  const events = [...pageEvents(), { type: 5, data: { tag: 'filler', payload: { filler } }, timestamp: Date.now() - 500 }];
  return { sessionId: id, seq, ...(seq === 0 ? { info: info() } : {}), events };
}

const from = (address: string) => ({ gzip: false, headers: { 'x-forwarded-for': address } });

describe('ingest byte budgets (RATE_INGEST_MB_PER_IP, RATE_INGEST_MB_PER_CAMPAIGN)', () => {
  const servers: TestServer[] = [];
  afterAll(async () => Promise.all(servers.map((s) => s.close())));
  const start = async (env: Record<string, string>) => {
    const server = await startServer({ TRUST_PROXY: '1', ...env });
    servers.push(server);
    return server;
  };

  it('one address past its megabytes a minute gets 429 with Retry-After, nothing of it stored; another address goes on', async () => {
    const server = await start({ RATE_INGEST_MB_PER_IP: '1', RATE_INGEST_MB_PER_CAMPAIGN: '0' });
    const campaignId = await makeCampaign(server);
    const id = sessionId();
    const statuses = [];
    for (let seq = 0; seq < 4; seq++) statuses.push((await postBatch(server, campaignId, bigBatch(300, id, seq), from('198.51.100.1'))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await postBatch(server, campaignId, bigBatch(300, id, 4), from('198.51.100.1'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatch(/^Too much data: try again in \d+ s$/);
    expect(await storedCounts(server, campaignId)).toEqual({ sessions: 1, chunks: 3 });
    expect((await postBatch(server, campaignId, bigBatch(300), from('198.51.100.2'))).status).toBe(200);
  });

  it('a sender past its budget is refused on its Content-Length, before its body is read', async () => {
    const server = await start({ RATE_INGEST_MB_PER_IP: '1', RATE_INGEST_MB_PER_CAMPAIGN: '0' });
    const campaignId = await makeCampaign(server);
    for (let i = 0; i < 3; i++) expect((await postBatch(server, campaignId, bigBatch(300), from('198.51.100.3'))).status).toBe(200);
    // Headers only: the body never comes, so only an answer given before reading it arrives.
    const { port } = new URL(server.url);
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/v1/ingest/${campaignId}`,
        headers: { 'content-type': 'text/plain', 'content-length': String(300 * 1024), origin: 'https://shop.example.com', 'x-forwarded-for': '198.51.100.3' },
      });
      request.on('response', resolve).on('error', reject);
      request.flushHeaders();
    });
    answer.resume();
    expect(answer.statusCode).toBe(429);
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('one campaign past its megabytes a minute gets 429 from every address; another campaign goes on', async () => {
    const server = await start({ RATE_INGEST_MB_PER_IP: '0', RATE_INGEST_MB_PER_CAMPAIGN: '1' });
    const campaignId = await makeCampaign(server);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await postBatch(server, campaignId, bigBatch(300), from(`203.0.113.${i}`))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await postBatch(server, await makeCampaign(server), bigBatch(300), from('203.0.113.9'))).status).toBe(200);
  });

  it.skipIf(!usingPostgres())('PostgreSQL: two nodes count into one total (rate_limit_hits)', async () => {
    const server = await start({});
    const [nodeA, nodeB] = [byteCounter({}, server.db, true), byteCounter({}, server.db, true)];
    expect((await nodeA.add('budget-test', 600, 60_000)).total).toBe(600);
    const both = await nodeB.add('budget-test', 500, 60_000);
    expect(both.total).toBe(1100);
    expect(both.ttlMs).toBeGreaterThan(0);
    expect(both.ttlMs).toBeLessThanOrEqual(60_000);
  });
});

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisAnswers = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(redisUrl);
  const socket = net.connect({ host: hostname, port: Number(port || 6379) });
  socket.setTimeout(2_000);
  socket.once('connect', () => (socket.destroy(), resolve(true)));
  socket.once('error', () => resolve(false));
  socket.once('timeout', () => resolve(false));
});

describe.skipIf(!redisAnswers)('ingest byte budgets in Redis (REDIS_URL)', () => {
  const nodes: TestServer[] = [];
  beforeAll(async () => {
    // Two servers that share nothing but Redis: an address's budget is one for both.
    for (let i = 0; i < 2; i++) nodes.push(await startServer({ REDIS_URL: redisUrl, TRUST_PROXY: '1', RATE_INGEST_MB_PER_IP: '1' }));
  });
  afterAll(async () => {
    for (const node of nodes) await node.close();
  });

  it('counts an address once for both servers', async () => {
    const address = `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
    const campaigns = await Promise.all(nodes.map((node) => makeCampaign(node)));
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await postBatch(nodes[i % 2], campaigns[i % 2], bigBatch(300), from(address))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('storage quota per campaign (STORAGE_QUOTA_MB)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ STORAGE_QUOTA_MB: '2' });
  });
  afterAll(() => server?.close());

  /** A session already holding `bytes` of recordings. */
  async function storedSession(campaignId: string, bytes: number): Promise<string> {
    const id = sessionId();
    await insertSession(server.db, { campaign_id: campaignId, id, started_at: Date.now() - 60_000, last_activity_at: Date.now() - 1000, event_count: 10 });
    await server.db.updateTable('sessions').set({ byte_count: bytes }).where('campaign_id', '=', campaignId).where('id', '=', id).execute();
    return id;
  }

  const list = async (campaignId: string, cookie: string) => {
    const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/`, { headers: { cookie } });
    expect(response.status).toBe(200);
    return response.json();
  };

  it('at the quota, a new session is refused (403) and the owner is told; the sessions already started go on', async () => {
    const owner = await userSession(server, 'Quota Owner');
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const started = await storedSession(campaignId, 1.5 * MB);
    await storedSession(campaignId, 0.5 * MB);

    const refused = await postBatch(server, campaignId, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe(QUOTA_REACHED);
    expect((await postBatch(server, campaignId, { sessionId: started, seq: 0, info: info(), events: pageEvents() })).status).toBe(200);
    expect((await storedCounts(server, campaignId)).sessions).toBe(2);
    expect((await list(campaignId, owner.cookie)).storage).toEqual({ usedBytes: expect.any(Number), quotaBytes: 2 * MB, full: true });
  });

  it('under the quota, new sessions start and the owner sees the use', async () => {
    const owner = await userSession(server, 'Roomy Owner');
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    await storedSession(campaignId, MB);
    expect((await postBatch(server, campaignId, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() })).status).toBe(200);
    expect((await list(campaignId, owner.cookie)).storage).toEqual({ usedBytes: MB, quotaBytes: 2 * MB, full: false });
  });
});
