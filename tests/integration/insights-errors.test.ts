import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insights } from '../../common/api/insights.js';
import type { SessionsResponse } from '../../common/api-types.js';
import { info, makeCampaign, postBatch, serverWithOwner, sessionId, type TestEvent } from './ingest-support.js';

// JavaScript errors grouped by message, from batches stored through ingest: counts, sessions,
// first and last seen; the list filtered to a message; gone with their session.

let { server, owner } = {} as Awaited<ReturnType<typeof serverWithOwner>>;

beforeAll(async () => {
  ({ server, owner } = await serverWithOwner('Error Owner'));
});
afterAll(async () => server?.close());

const meta = (t: number): TestEvent => ({ type: 4, data: { href: 'https://shop.example.com/', width: 1280, height: 720 }, timestamp: t });
const error = (t: number, message: string): TestEvent => ({
  type: 5,
  data: { tag: 'tapedeck/error', payload: { message, source: 'app.js:1', stack: '' } },
  timestamp: t,
});
const consoleError = (t: number, message: string): TestEvent => ({
  type: 5,
  data: { tag: 'tapedeck/console', payload: { level: 'error', message } },
  timestamp: t,
});

describe('JavaScript errors by message', () => {
  it('counts each message, the sessions that had it, first and last seen; lists those sessions; forgets a deleted session', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const [a, b] = [sessionId(), sessionId()];
    const t = Date.now() - 60_000;
    const boom = 'TypeError: x is undefined';
    expect(
      (await postBatch(server, campaignId, { sessionId: a, seq: 0, info: info(), events: [meta(t), error(t + 10, boom), error(t + 20, boom)] })).status,
    ).toBe(200);
    expect((await postBatch(server, campaignId, { sessionId: a, seq: 1, events: [error(t + 30, boom), consoleError(t + 40, 'Payment failed')] })).status).toBe(
      200,
    );
    expect((await postBatch(server, campaignId, { sessionId: b, seq: 0, info: info(), events: [meta(t + 5), error(t + 50, boom)] })).status).toBe(200);

    const insights = async () => {
      const response = await fetch(`${server.url}/api/v1/insights/${campaignId}`, { headers: owner.headers });
      expect(response.status).toBe(200);
      return ((await response.json()) as Insights).errors;
    };
    expect(await insights()).toEqual([
      { message: boom, count: 4, sessions: 2, firstSeen: t + 10, lastSeen: t + 50 },
      { message: 'Payment failed', count: 1, sessions: 1, firstSeen: t + 40, lastSeen: t + 40 },
    ]);
    const listed = async (message: string) => {
      const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/?error=${encodeURIComponent(message)}`, { headers: owner.headers });
      expect(response.status).toBe(200);
      return ((await response.json()) as SessionsResponse).sessions.map((s) => s.sessionId).sort();
    };
    expect(await listed('Payment failed')).toEqual([a]);
    expect(await listed(boom)).toEqual([a, b].sort());

    const deleted = await fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/${a}`, { method: 'DELETE', headers: owner.headers });
    expect(deleted.status).toBe(200);
    expect(await insights()).toEqual([{ message: boom, count: 1, sessions: 1, firstSeen: t + 50, lastSeen: t + 50 }]);
  });

  it('answers 400 for an error filter longer than a message is kept', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/?error=${'x'.repeat(201)}`, { headers: owner.headers });
    expect(response.status).toBe(400);
  });
});
