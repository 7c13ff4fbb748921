import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { info, pageEvents, postBatch, serverWithCampaign, sessionId } from './ingest-support.js';
import type { SessionsResponse } from '../../common/api-types.js';

// What ingest keeps of page addresses and captured requests, whoever sent the batch (the tracker
// scrubs the same way before sending; an old or home-made sender may not): no query strings or
// fragments, where sites put tokens and e-mails, and captured text masked by the one scrubber.

let { server, owner, campaignId } = {} as Awaited<ReturnType<typeof serverWithCampaign>>;

beforeAll(async () => {
  ({ server, owner, campaignId } = await serverWithCampaign('Scrub Owner'));
});
afterAll(async () => server?.close());

interface StoredEvent {
  type: number;
  data: { href?: string; tag?: string; payload?: Record<string, unknown> };
}

async function replayOf(id: string): Promise<StoredEvent[]> {
  const res = await fetch(`${server.url}/api/v1/replay/retrieve/${campaignId}/${id}`, { headers: owner.headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { events: StoredEvent[] }).events;
}

describe('page addresses a visitor’s batch carries', () => {
  it('keep no query string or fragment: in the replay, the session’s pages, entry page and referrer', async () => {
    const id = sessionId();
    const t = Date.now() - 5000;
    const events = [
      ...pageEvents(t),
      { type: 4, data: { href: 'https://shop.example.com/reset?token=s3cret&email=ada%40example.com#step2', width: 1280, height: 720 }, timestamp: t + 3000 },
    ];
    events[0].data.href = 'https://shop.example.com/cart?coupon=XYZ#top';
    const visit = info({ url: 'https://shop.example.com/cart?coupon=XYZ', referrer: 'https://mail.example/inbox?msg=42#read' });
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: visit, events })).status).toBe(200);

    const hrefs = (await replayOf(id)).filter((e) => e.type === 4).map((e) => e.data.href);
    expect(hrefs).toEqual(['https://shop.example.com/cart', 'https://shop.example.com/reset']);
    const res = await fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/`, { headers: owner.headers });
    const session = ((await res.json()) as SessionsResponse).sessions.find((s) => s.sessionId === id);
    expect(session).toMatchObject({
      pages: ['/cart', '/reset'],
      entryUrl: 'https://shop.example.com/cart',
      exitUrl: '/reset',
      referrer: 'https://mail.example/inbox',
    });
  });
});

describe('captured entries a visitor’s batch carries', () => {
  it('are masked: request URLs lose their query string, card-like runs and encoded e-mails are hidden', async () => {
    const id = sessionId();
    const t = Date.now() - 5000;
    const events = [
      ...pageEvents(t),
      {
        type: 5,
        data: {
          tag: 'tapedeck/request',
          payload: { method: 'POST', url: 'https://api.example.com/pay/4111.1111.1111.1111?token=abc', status: 402, durationMs: 9 },
        },
        timestamp: t + 2500,
      },
      {
        type: 5,
        data: { tag: 'tapedeck/console', payload: { level: 'error', message: 'no account john%40example.com, card 4111/1111/1111/1111, ref ４１１１１１' } },
        timestamp: t + 2600,
      },
    ];
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events })).status).toBe(200);
    const payloads = (await replayOf(id)).filter((e) => e.type === 5).map((e) => e.data.payload);
    expect(payloads).toEqual([
      { method: 'POST', url: 'https://api.example.com/pay/****.****.****.****', status: 402, durationMs: 9 },
      { level: 'error', message: 'no account [email], card ****/****/****/****, ref ******' },
    ]);
  });
});
