// Heavy owner reads (server/http/heavy-reads.ts) on a real server and database: an account past
// its share is told 429, the node stays responsive for other owners while they run, and a read
// past its time budget answers 503 and leaves the server healthy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { sessionRow } from '../../server/sessions/rows.js';
import { addFunnel } from '../../server/funnels/repository.js';
import { HEAVY_READ_TOO_LONG, HEAVY_READS_PER_ACCOUNT } from '../../server/http/heavy-reads.js';

type Owner = Awaited<ReturnType<typeof userSession>>;

const STEPS = Array.from({ length: 10 }, (_, k) => `/step-${k + 1}`);

/**
 * A server started with `env` before a block's tests (closed after them): an owner whose campaign
 * has `sessions` sessions of the last hours (no day is kept: every result is counted afresh), each
 * through all ten steps twice, with its 10-step funnel and that funnel's result URL; and another owner.
 */
function heavyServer(env: Record<string, string>, sessions: number) {
  const setup = {} as { server: TestServer; owner: Owner; other: Owner; campaignId: string; funnelId: string; result: string };
  beforeAll(async () => {
    setup.server = await startServer(env);
    setup.owner = await userSession(setup.server, 'Heavy Owner');
    setup.other = await userSession(setup.server, 'Other Owner');
    Object.assign(setup, await seededCampaign(setup.server, setup.owner, sessions));
    setup.result = `${setup.server.url}/api/v1/funnels/${setup.campaignId}/${setup.funnelId}/result`;
  }, 60_000);
  afterAll(async () => setup.server?.close());
  return setup;
}

async function seededCampaign(server: TestServer, owner: Owner, count: number): Promise<{ campaignId: string; funnelId: string }> {
  const campaignId = crypto.randomUUID();
  const now = Date.now();
  await server.db
    .insertInto('campaigns')
    .values({
      id: campaignId,
      owner_id: owner.userId,
      name: 'Heavy',
      domains: 'shop.example.com',
      session_limit: 0,
      start_date_time: now - 86_400_000,
      end_date_time: now + 86_400_000,
      created_at: now,
    })
    .execute();
  const pages = [...STEPS, ...STEPS].join('\n');
  for (let i = 0; i < count; i += 250) {
    const rows = Array.from({ length: Math.min(250, count - i) }, (_, j) => {
      const started = now - 3_600_000 - (i + j) * 10_000;
      return sessionRow({ campaign_id: campaignId, id: crypto.randomUUID(), started_at: started, last_activity_at: started + 600_000, pages });
    });
    await server.db.insertInto('sessions').values(rows).execute();
  }
  const funnel = await addFunnel(server.db, campaignId, { name: 'Ten steps', steps: STEPS.map((page) => ({ page })), withinMs: 3_600_000 }, 50);
  return { campaignId, funnelId: funnel!.id };
}

const get = (url: string, owner: Owner) => fetch(url, { headers: owner.headers });

describe('heavy reads: one account past its share (HEAVY_READS=2, HEAVY_READS_PER_ACCOUNT=1)', () => {
  const setup = heavyServer({ HEAVY_READS: '2', HEAVY_READS_PER_ACCOUNT: '1' }, 2000);

  it('answers one running and one waiting read, and 429 with Retry-After to the rest', async () => {
    const { owner: hog, result } = setup;
    const answers = await Promise.all(Array.from({ length: 6 }, () => get(result, hog)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 429)).toBe(true);
    expect(statuses).toContain(429);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toEqual({ error: HEAVY_READS_PER_ACCOUNT });
    }
    const answered = (await answers.find((a) => a.status === 200)!.json()) as { steps: { sessions: number }[] };
    expect(answered.steps.map((s) => s.sessions)).toEqual(STEPS.map(() => 2000));
  });

  it("keeps another owner's calls answered while the account's heavy reads run", async () => {
    const { server, owner: hog, other, result } = setup;
    const statuses: number[] = [];
    let reading = true;
    // Four loops of the hog's result: those turned away ask again shortly.
    const loops = Array.from({ length: 4 }, async () => {
      while (reading) {
        const answer = await get(result, hog);
        statuses.push(answer.status);
        await answer.arrayBuffer();
        if (answer.status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    const waits: number[] = [];
    const until = Date.now() + 4000;
    while (Date.now() < until) {
      const started = performance.now();
      const me = await get(`${server.url}/api/v1/auth/me`, other);
      expect(me.status).toBe(200);
      waits.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    reading = false;
    await Promise.all(loops);
    expect(statuses).toContain(200); // heavy reads did run meanwhile
    // Not stalled: the generous bound of a call that is not held behind the heavy reads.
    expect(Math.max(...waits)).toBeLessThan(1000);
  }, 30_000);
});

describe('heavy reads: over the time budget (HEAVY_READ_MS=10)', () => {
  const setup = heavyServer({ HEAVY_READ_MS: '10' }, 2000);

  it('answers 503 with Retry-After, not 500, and the server stays healthy', async () => {
    const { server, owner, result } = setup;
    for (let i = 0; i < 3; i++) {
      const answer = await get(result, owner);
      expect(answer.status).toBe(503);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await answer.json()).toEqual({ error: HEAVY_READ_TOO_LONG });
    }
    // Its slot was given back and the node answers as before.
    expect(server.app.ctx.heavyReads.gate.counts).toEqual({ running: 0, waiting: 0 });
    expect((await get(`${server.url}/api/v1/auth/me`, owner)).status).toBe(200);
    expect((await get(`${server.url}/readyz`, owner)).status).toBe(200);
  }, 30_000);
});

describe("heavy reads: every heavy owner read takes a place in the account's share (HEAVY_READS=1)", () => {
  const setup = heavyServer({ HEAVY_READS: '1', HEAVY_READS_PER_ACCOUNT: '1' }, 5);

  it("answers 429 to each heavy read while the account's share is taken, and the light ones as before", async () => {
    const { server, owner, campaignId, funnelId } = setup;
    const gate = server.app.ctx.heavyReads.gate;
    // The account's one slot and one waiting place, taken as two reads of its own would.
    const running = await gate.enter(owner.userId);
    const waiting = gate.enter(owner.userId);
    const range = `from=${Date.now() - 60 * 86_400_000}&to=${Date.now()}`;
    const heavy = [
      `/api/v1/funnels/${campaignId}/${funnelId}/result`,
      `/api/v1/heatmaps/${campaignId}?path=/step-1&device=desktop&type=human`,
      `/api/v1/heatmaps/${campaignId}/clicks?path=/step-1&device=desktop&selector=a&type=human`,
      `/api/v1/insights/${campaignId}?type=human`,
      `/api/v1/insights/${campaignId}?${range}`,
      `/api/v1/streaming/sessions/${campaignId}/?funnel=${funnelId}`,
    ];
    const light = [`/api/v1/heatmaps/${campaignId}?path=/step-1&device=desktop`, `/api/v1/insights/${campaignId}`, `/api/v1/streaming/sessions/${campaignId}/`];
    try {
      for (const path of heavy) {
        const answer = await get(`${server.url}${path}`, owner);
        expect(answer.status, path).toBe(429);
        expect(Number(answer.headers.get('retry-after')), path).toBeGreaterThan(0);
        expect(await answer.json(), path).toEqual({ error: HEAVY_READS_PER_ACCOUNT });
      }
      for (const path of light) expect((await get(`${server.url}${path}`, owner)).status, path).toBe(200);
    } finally {
      running?.();
      (await waiting)?.();
    }
    for (const path of heavy) expect((await get(`${server.url}${path}`, owner)).status, path).toBe(200);
  });
});
