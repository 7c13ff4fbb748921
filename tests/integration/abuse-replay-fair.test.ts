import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { createCampaign, openGet, type Owner } from '../helpers/held-get.js';
import { storeWorstSession, type StoredSession, type WorstSession } from '../helpers/worst-session.js';
import { REPLAYS_BUSY } from '../../server/replay/gate.js';
import type { Campaign, ReplayResponse } from '../../common/api-types.js';

/** About 12 MB of event JSON whose chunks all overlap: heavy, and far more than the sockets buffer. */
const HEAVY: WorstSession = { chunks: 48, eventsPerChunk: 800, pad: 250, asReceived: 2 };

interface Account {
  owner: Owner;
  campaign: Campaign;
  url: string;
  stored: StoredSession;
}

async function account(server: TestServer, name: string): Promise<Account> {
  const owner = await userSession(server, name);
  const campaign = await createCampaign(server, owner);
  const stored = await storeWorstSession(server.db, campaign.id, 'worst-heavy-1', HEAVY);
  return { owner, campaign, url: `${server.url}/api/v1/replay/retrieve/${campaign.id}/worst-heavy-1`, stored };
}

describe('heavy-replay slots shared between owners (HEAVY_REPLAYS=2)', () => {
  let server: TestServer;
  let attacker: Account;
  let other: Account;

  beforeAll(async () => {
    server = await startServer({ HEAVY_REPLAYS: '2' });
    attacker = await account(server, 'Slot Hog');
    other = await account(server, 'Slot Neighbour');
  });
  afterAll(async () => server?.close());

  const counts = () => server.app.ctx.replayGates.owners.counts;

  it('lets one owner hold one slot and two places with retrievals it never reads; another owner is answered at once', async () => {
    // Six retrievals nobody reads, sent at once: one runs, two wait, three are turned away.
    const held = Array.from({ length: 6 }, () => openGet(attacker.url, attacker.owner.headers));
    const statuses: number[] = [];
    const refusedAt: number[] = [];
    held.forEach(
      (h, i) =>
        void h.response.then(
          (answer) => (statuses.push(answer.statusCode ?? 0), answer.statusCode === 503 && refusedAt.push(i)),
          () => undefined, // destroyed while waiting, at the end
        ),
    );
    await vi.waitFor(
      () => {
        expect(counts()).toEqual({ running: 1, waiting: 2 });
        expect([...statuses].sort()).toEqual([200, 503, 503, 503]);
      },
      { timeout: 10_000, interval: 10 },
    );
    const refused = await held[refusedAt[0]].body();
    expect(JSON.parse(refused.body.toString('utf8'))).toEqual({ error: REPLAYS_BUSY });

    // The other owner's heavy replay takes the second slot and is answered in full.
    const answer = await openGet(other.url, { ...other.owner.headers, 'accept-encoding': 'gzip' }).body();
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body.toString('utf8')) as ReplayResponse).events).toHaveLength(other.stored.eventCount);

    for (const h of held) h.request.destroy();
    await vi.waitFor(() => expect(counts()).toEqual({ running: 0, waiting: 0 }), { timeout: 10_000, interval: 10 });
  });
});

describe('a retrieval nobody reads (STALLED_READER_SECONDS=1)', () => {
  let server: TestServer;
  let attacker: Account;

  beforeAll(async () => {
    server = await startServer({ HEAVY_REPLAYS: '1', STALLED_READER_SECONDS: '1' });
    attacker = await account(server, 'Stalled Reader');
  });
  afterAll(async () => server?.close());

  const counts = () => server.app.ctx.replayGates.owners.counts;

  it('is ended and frees its heavy-replay slot for the one waiting, which is answered', async () => {
    const stalled = openGet(attacker.url, attacker.owner.headers);
    expect((await stalled.response).statusCode).toBe(200);
    await vi.waitFor(() => expect(counts()).toEqual({ running: 1, waiting: 0 }), { timeout: 10_000, interval: 10 });
    // A reader that reads waits its turn, then gets the whole answer once the stalled one is cut off.
    const reader = openGet(attacker.url, { ...attacker.owner.headers, 'accept-encoding': 'gzip' });
    const answer = await reader.body();
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body.toString('utf8')) as ReplayResponse).events).toHaveLength(attacker.stored.eventCount);
    // Read now, the stalled answer turns out cut off: the server ended it.
    const rest = await stalled.body().then(
      (cut) => cut.body.length,
      () => -1,
    );
    expect(rest).toBeLessThan(attacker.stored.jsonBytes);
    await vi.waitFor(() => expect(counts()).toEqual({ running: 0, waiting: 0 }), { timeout: 10_000, interval: 10 });
  });
});
