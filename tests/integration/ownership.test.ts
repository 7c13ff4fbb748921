import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { appendChunk } from '../../server/recordings/seed.js';
import { insertSession } from '../../server/recordings/seed.js';
import type { Campaign } from '../../common/api-types.js';

// Every campaign, session and replay call: 401 without a session, 404 with no data for a campaign
// of a workspace the caller is not in, as for an unknown campaign — and the owner's data is
// untouched afterwards.

let server: TestServer;
let alice: Awaited<ReturnType<typeof userSession>>;
let mallory: Awaited<ReturnType<typeof userSession>>;
let campaign: Campaign;
const SESSION = 'alice-visitor-0001';

beforeAll(async () => {
  server = await startServer();
  alice = await userSession(server, 'Alice Owner');
  mallory = await userSession(server, 'Mallory Other');
  const response = await fetch(`${server.url}/api/v1/campaign/create`, {
    method: 'POST',
    headers: { ...alice.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Alice secret launch', domains: 'alice.example', limit: 3, start_date_time: 1, end_date_time: 2e12 }),
  });
  campaign = ((await response.json()) as { data: Campaign }).data;
  await insertSession(server.db, { campaign_id: campaign.id, id: SESSION, started_at: Date.now(), remote_ip: '192.0.2.55' });
  await appendChunk(server.db, {
    campaignId: campaign.id,
    sessionId: SESSION,
    seq: 0,
    events: [{ type: 4, data: { href: 'https://alice.example/' }, timestamp: 1 }],
  });
});
afterAll(async () => server?.close());

const calls = (campaignId: string) => [
  { name: 'sessions', method: 'GET', path: `/api/v1/streaming/sessions/${campaignId}/` },
  { name: 'sessions (no slash)', method: 'GET', path: `/api/v1/streaming/sessions/${campaignId}?search=192` },
  { name: 'replay', method: 'GET', path: `/api/v1/replay/retrieve/${campaignId}/${SESSION}` },
  { name: 'replay of an unknown session', method: 'GET', path: `/api/v1/replay/retrieve/${campaignId}/unknown-session-1` },
  { name: 'update', method: 'PATCH', path: `/api/v1/campaign/update/${campaignId}` },
  { name: 'delete', method: 'DELETE', path: `/api/v1/campaign/delete/${campaignId}` },
];

async function call(method: string, path: string, headers: Record<string, string>) {
  const response = await fetch(`${server.url}${path}`, { method, headers });
  return { status: response.status, text: await response.text() };
}

describe('ownership', () => {
  it.each(calls('CAMPAIGN'))("answers 404 with no data for another workspace's campaign, as for an unknown one: $name", async ({ method, path }) => {
    const answer = await call(method, path.replace('CAMPAIGN', campaign.id), mallory.headers);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.text)).toEqual({ error: 'Campaign not found' });
    for (const secret of ['Alice', 'alice.example', '192.0.2.55', SESSION]) expect(answer.text).not.toContain(secret);
  });

  it.each(calls('CAMPAIGN'))('answers 401 without a session: $name', async ({ method, path }) => {
    const answer = await call(method, path.replace('CAMPAIGN', campaign.id), { origin: server.config.publicUrl });
    expect([answer.status, JSON.parse(answer.text)]).toEqual([401, { error: 'Unauthorized' }]);
  });

  it.each(calls('CAMPAIGN'))('answers 404 for an unknown campaign: $name', async ({ method, path }) => {
    const answer = await call(method, path.replace('CAMPAIGN', crypto.randomUUID()), alice.headers);
    expect([answer.status, JSON.parse(answer.text)]).toEqual([404, { error: 'Campaign not found' }]);
  });

  it("never lists another user's campaigns", async () => {
    const response = await fetch(`${server.url}/api/v1/campaign/getAll`, { headers: mallory.headers });
    expect(await response.json()).toEqual({ data: [] });
  });

  it("leaves the owner's campaign, session and replay intact after the refused calls", async () => {
    const list = (await (await fetch(`${server.url}/api/v1/campaign/getAll`, { headers: alice.headers })).json()) as { data: Campaign[] };
    // The campaign as created, but for its use (a session was recorded since it was created).
    expect(list.data).toEqual([{ ...campaign, session_count: expect.any(Number), last_data_at: expect.any(Number) }]);
    const sessions = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/`, { headers: alice.headers });
    expect(((await sessions.json()) as { counts: { total: number } }).counts.total).toBe(1);
    const replay = await fetch(`${server.url}/api/v1/replay/retrieve/${campaign.id}/${SESSION}`, { headers: alice.headers });
    expect(((await replay.json()) as { events: unknown[] }).events).toHaveLength(1);
  });
});
