import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { createCampaign } from './ingest-support.js';

// The campaigns ingest keeps are the app's own (made in buildApp, on AppContext): two apps in one
// process, as tests and the bench build them, never share them. (When the keep was module-global,
// a campaign write in one app emptied every app's keep.)

let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  [first, second] = await Promise.all([startServer(), startServer()]);
});
afterAll(async () => Promise.all([first?.close(), second?.close()]));

const patch = (server: TestServer, headers: Record<string, string>, id: string, body: unknown) =>
  fetch(`${server.url}/api/v1/campaign/update/${id}`, {
    method: 'PATCH',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the campaigns ingest keeps', () => {
  it('belong to one app: another app’s campaign write leaves them, the app’s own write forgets them', async () => {
    const [ownerOfFirst, ownerOfSecond] = await Promise.all([userSession(first, 'First Owner'), userSession(second, 'Second Owner')]);
    const mine = await createCampaign(second, ownerOfSecond.headers, 'Kept here', 'shop.example.com');
    const theirs = await createCampaign(first, ownerOfFirst.headers, 'Written there', 'shop.example.com');
    const kept = second.app.ctx.keptCampaigns;
    const now = Date.now();
    expect((await kept.forIngest(mine.id, { now })).row?.domains).toBe('shop.example.com');
    // A write made outside the second app: its kept copy stands until the keeping time is over.
    await second.db.updateTable('campaigns').set({ domains: 'outside.example.com' }).where('id', '=', mine.id).execute();

    expect((await patch(first, ownerOfFirst.headers, theirs.id, { domains: 'there.example.com' })).status).toBe(200);
    expect((await kept.forIngest(mine.id, { now: now + 1 })).row?.domains).toBe('shop.example.com');
    expect(first.app.ctx.keptCampaigns).not.toBe(kept);

    expect((await patch(second, ownerOfSecond.headers, mine.id, { name: 'Renamed' })).status).toBe(200);
    expect((await kept.forIngest(mine.id, { now: now + 2 })).row).toMatchObject({ domains: 'outside.example.com', name: 'Renamed' });
  });
});
