import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { appendChunk } from '../../server/recordings/seed.js';
import { insertSession } from '../../server/recordings/seed.js';
import { DOMAINS_INVALID, LIMIT_INVALID } from '../../common/domains.js';
import type { Campaign } from '../../common/api-types.js';
import { DEFAULT_RULES } from './recording-rules-support.js';
import { info, pageEvents, postBatch, sessionId, storedCounts } from './ingest-support.js';

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;

const valid = { name: 'Spring sale', domains: 'example.com, shop.example.com', limit: 5, start_date_time: 1_700_000_000_000, end_date_time: 1_800_000_000_000 };

function create(body: unknown, headers: Record<string, string> = owner.headers, contentType = 'application/json') {
  return fetch(`${server.url}/api/v1/campaign/create`, {
    method: 'POST',
    headers: { ...headers, 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function expectError(response: Response, status: number, error: string | RegExp) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: string };
  if (typeof error === 'string') expect(body.error).toBe(error);
  else expect(body.error).toMatch(error);
}

async function listCampaigns(headers = owner.headers): Promise<Campaign[]> {
  const response = await fetch(`${server.url}/api/v1/campaign/getAll`, { headers });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Campaign[] }).data;
}

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Campaign Owner');
});
afterAll(async () => server?.close());

describe('POST /api/v1/campaign/create', () => {
  it('creates a campaign and answers 201 with it', async () => {
    const response = await create({ ...valid, name: '  Spring sale  ', domains: ' example.com ,, shop.example.com ' });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: Campaign };
    expect(data).toEqual({
      ...valid,
      ...DEFAULT_RULES,
      captureConsole: true,
      retention_days: 90,
      ip_mode: 'truncated',
      session_count: 0,
      last_data_at: null,
      storage: { usedBytes: 0, quotaBytes: server.config.limits.storageQuotaBytes, full: false },
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      workspace_id: expect.any(String),
    });
    expect(await listCampaigns()).toContainEqual(data);
  });

  it('keeps the console-capture setting, on unless turned off', async () => {
    const response = await create({ ...valid, captureConsole: false });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: Campaign };
    expect(data.captureConsole).toBe(false);
    expect((await listCampaigns()).find((c) => c.id === data.id)?.captureConsole).toBe(false);
    const wrong = await create({ ...valid, captureConsole: 'no' });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe('captureConsole must be true or false');
  });

  it('keeps the chosen retention and IP handling', async () => {
    const response = await create({ ...valid, retention_days: 0, ip_mode: 'none' });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as { data: Campaign };
    expect([data.retention_days, data.ip_mode]).toEqual([0, 'none']);
    expect((await listCampaigns()).find((c) => c.id === data.id)).toEqual(data);
  });

  it('keeps the host and port of a pasted web address', async () => {
    const response = await create({ ...valid, domains: 'https://leafandkettle.com/, http://staging.leafandkettle.com:8080/shop?x=1, localhost:3000' });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { data: Campaign }).data.domains).toBe('leafandkettle.com, staging.leafandkettle.com:8080, localhost:3000');
  });

  it('defaults a missing limit to 0 (no limit)', async () => {
    const { limit: _, ...noLimit } = valid;
    const response = await create(noLimit);
    expect(response.status).toBe(201);
    expect(((await response.json()) as { data: Campaign }).data.limit).toBe(0);
  });

  it.each([
    [{ ...valid, name: '   ' }, 'Campaign name is required'],
    [{ ...valid, name: undefined }, 'Campaign name is required'],
    [{ ...valid, domains: '' }, 'At least one domain is required'],
    [{ ...valid, domains: ' , ,' }, 'At least one domain is required'],
    [{ ...valid, domains: 'example.com, not a domain' }, DOMAINS_INVALID],
    [{ ...valid, domains: 'ftp://example.com' }, DOMAINS_INVALID],
    [{ ...valid, start_date_time: undefined }, 'Start date is required'],
    [{ ...valid, start_date_time: null }, 'Start date is required'],
    [{ ...valid, end_date_time: undefined }, 'End date is required'],
    [{ ...valid, end_date_time: valid.start_date_time }, 'End date must be after start date'],
    [{ ...valid, end_date_time: valid.start_date_time - 1 }, 'End date must be after start date'],
  ])('answers 400 with the spec message (%#)', async (body, message) => {
    await expectError(await create(body), 400, message);
  });

  it.each([
    [{ ...valid, name: 42 }, 'name must be text of at most 200 characters'],
    [{ ...valid, domains: ['example.com'] }, 'domains must be text of at most 2000 characters'],
    [{ ...valid, limit: -1 }, /limit/],
    [{ ...valid, limit: 2.5 }, /limit/],
    [{ ...valid, limit: '5' }, LIMIT_INVALID],
    [{ ...valid, limit: 'abc' }, LIMIT_INVALID],
    [{ ...valid, limit: 21 }, LIMIT_INVALID],
    [{ ...valid, retention_days: 14 }, /retention_days must be one of 7, 30, 90, 365, 0/],
    [{ ...valid, ip_mode: 'partial' }, /ip_mode must be one of full, truncated, none/],
    [{ ...valid, start_date_time: '2025-01-01' }, /start_date_time/],
    [{ ...valid, end_date_time: 1.5 }, /end_date_time/],
    [{ ...valid, end_date_time: 1e20 }, /end_date_time/],
    [{ ...valid, owner_id: 'someone' }, 'body unknown field "owner_id"'],
    [{ ...valid, id: 'mine' }, 'body unknown field "id"'],
    [{ ...valid, name: 'x'.repeat(201) }, 'name must be text of at most 200 characters'],
    [{ ...valid, domains: 'a.com,'.repeat(400) }, 'domains must be text of at most 2000 characters'],
    [[valid], 'Request body must be a JSON object'],
    ['"text"', 'Request body must be a JSON object'],
    ['null', 'Request body must be a JSON object'],
  ])('answers 400 for a wrongly typed or shaped body (%#)', async (body, error) => {
    await expectError(await create(body), 400, error);
  });

  it('answers 400 for malformed JSON and an empty body', async () => {
    await expectError(await create('{"name": "x",'), 400, 'Malformed JSON body');
    const empty = await create('');
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: string }).error).toBeTruthy();
  });

  it('answers 413 for an oversized body and 415 for a non-JSON body', async () => {
    await expectError(await create({ ...valid, name: 'x'.repeat(20_000) }), 413, 'Request body is too large');
    const text = await create('name=x', owner.headers, 'application/x-www-form-urlencoded');
    expect(text.status).toBe(415);
    expect(((await text.json()) as { error: string }).error).toBeTruthy();
  });

  it('writes nothing for a refused body', async () => {
    const before = (await listCampaigns()).length;
    await create({ ...valid, end_date_time: 1 });
    await create({ ...valid, extra: true });
    expect(await listCampaigns()).toHaveLength(before);
  });

  it('refuses a call from another origin (CSRF) with 403', async () => {
    await expectError(await create(valid, { ...owner.headers, origin: 'https://evil.example' }), 403, 'Forbidden');
  });

  it('answers 401 without a session', async () => {
    await expectError(await create(valid, { origin: server.config.publicUrl }), 401, 'Unauthorized');
  });
});

describe('GET /api/v1/campaign/getAll', () => {
  it("lists only the caller's campaigns, newest first", async () => {
    const other = await userSession(server, 'List Owner');
    const names = ['first', 'second', 'third'];
    for (const name of names) expect((await create({ ...valid, name }, other.headers)).status).toBe(201);
    const list = await listCampaigns(other.headers);
    expect(list.map((c) => c.name)).toEqual([...names].reverse());
    expect(Object.keys(list[0]).sort()).toEqual(
      [
        'captureConsole',
        'domains',
        'end_date_time',
        'id',
        'ip_mode',
        'last_data_at',
        'limit',
        'name',
        'retention_days',
        'session_count',
        'start_date_time',
        'storage',
        'workspace_id',
        ...Object.keys(DEFAULT_RULES),
      ].sort(),
    );
    const stranger = await userSession(server, 'Nobody Yet');
    expect(await listCampaigns(stranger.headers)).toEqual([]);
  });

  it('answers 401 without a session or with a forged cookie', async () => {
    await expectError(await fetch(`${server.url}/api/v1/campaign/getAll`), 401, 'Unauthorized');
    const forged = await fetch(`${server.url}/api/v1/campaign/getAll`, { headers: { cookie: 'td_access=eyJhbGciOiJIUzI1NiJ9.e30.x' } });
    expect(forged.status).toBe(401);
  });
});

describe('DELETE /api/v1/campaign/delete/:id', () => {
  const remove = (id: string, headers: Record<string, string> = owner.headers) =>
    fetch(`${server.url}/api/v1/campaign/delete/${id}`, { method: 'DELETE', headers });

  async function campaignWithRecordings(): Promise<Campaign> {
    const { data } = (await (await create(valid)).json()) as { data: Campaign };
    for (const id of ['session-aaaa-1', 'session-bbbb-2']) {
      await insertSession(server.db, { campaign_id: data.id, id, started_at: Date.now() });
      await appendChunk(server.db, { campaignId: data.id, sessionId: id, seq: 0, events: [{ type: 4, data: { width: 1, height: 1 }, timestamp: 1 }] });
      await appendChunk(server.db, { campaignId: data.id, sessionId: id, seq: 1, events: [{ type: 3, data: {}, timestamp: 2 }] });
    }
    return data;
  }

  const rows = async (table: 'campaigns' | 'sessions' | 'chunks', campaignId: string) => {
    const column = table === 'campaigns' ? 'id' : 'campaign_id';
    const row = await server.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where(column, '=', campaignId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it('removes the campaign with all its sessions and chunks', async () => {
    const keep = await campaignWithRecordings();
    const doomed = await campaignWithRecordings();
    expect([await rows('campaigns', doomed.id), await rows('sessions', doomed.id), await rows('chunks', doomed.id)]).toEqual([1, 2, 4]);
    const response = await remove(doomed.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect([await rows('campaigns', doomed.id), await rows('sessions', doomed.id), await rows('chunks', doomed.id)]).toEqual([0, 0, 0]);
    expect([await rows('campaigns', keep.id), await rows('sessions', keep.id), await rows('chunks', keep.id)]).toEqual([1, 2, 4]);
    expect((await listCampaigns()).map((c) => c.id)).not.toContain(doomed.id);
    await expectError(await remove(doomed.id), 404, 'Campaign not found');
  });

  it('accepts the JSON content type with no body, as the PWA sends it', async () => {
    const campaign = await campaignWithRecordings();
    const response = await remove(campaign.id, { ...owner.headers, 'content-type': 'application/json' });
    expect(response.status).toBe(200);
  });

  it('answers 400 for a malformed id, 404 for an unknown one, 401 without a session, 403 cross-origin', async () => {
    await expectError(await remove('not-a-uuid'), 400, 'Invalid campaign id');
    await expectError(await remove("1' or '1'='1"), 400, 'Invalid campaign id');
    await expectError(await remove(crypto.randomUUID()), 404, 'Campaign not found');
    const campaign = await campaignWithRecordings();
    await expectError(await remove(campaign.id, { origin: server.config.publicUrl }), 401, 'Unauthorized');
    await expectError(await remove(campaign.id, { ...owner.headers, origin: 'https://evil.example' }), 403, 'Forbidden');
    expect(await rows('sessions', campaign.id)).toBe(2);
  });
});

describe('PATCH /api/v1/campaign/update/:id', () => {
  const update = (id: string, body: unknown, headers: Record<string, string> = owner.headers) =>
    fetch(`${server.url}/api/v1/campaign/update/${id}`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  async function campaign(body: Record<string, unknown> = valid): Promise<Campaign> {
    return ((await (await create(body)).json()) as { data: Campaign }).data;
  }

  it('changes only the fields sent and answers the whole campaign', async () => {
    const before = await campaign();
    const response = await update(before.id, { domains: ' new.example.com ,, example.com ', retention_days: 30, ip_mode: 'full' });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Campaign };
    expect(data).toEqual({ ...before, domains: 'new.example.com, example.com', retention_days: 30, ip_mode: 'full' });
    expect((await listCampaigns()).find((c) => c.id === before.id)).toEqual(data);
  });

  it('changes every create field at once', async () => {
    const before = await campaign();
    const changes = {
      name: 'Autumn sale',
      domains: 'autumn.example',
      limit: 0,
      start_date_time: 1_750_000_000_000,
      end_date_time: 1_760_000_000_000,
      captureConsole: false,
      retention_days: 7,
      ip_mode: 'none',
    };
    const { data } = (await (await update(before.id, changes)).json()) as { data: Campaign };
    expect(data).toEqual({
      id: before.id,
      workspace_id: before.workspace_id,
      ...DEFAULT_RULES,
      ...changes,
      session_count: 0,
      last_data_at: null,
      storage: before.storage,
    });
  });

  it.each([
    [{ name: '  ' }, 'Campaign name is required'],
    [{ domains: '' }, 'At least one domain is required'],
    [{ domains: 'example.com, not a domain' }, DOMAINS_INVALID],
    [{ start_date_time: null }, 'Start date is required'],
    [{ end_date_time: null }, 'End date is required'],
    [{ end_date_time: valid.start_date_time }, 'End date must be after start date'],
    [{ start_date_time: valid.end_date_time + 1 }, 'End date must be after start date'],
    [{ limit: 'abc' }, LIMIT_INVALID],
    [{ limit: 21 }, LIMIT_INVALID],
    [{ limit: -1 }, LIMIT_INVALID],
    [{ limit: 2.5 }, LIMIT_INVALID],
    [{ retention_days: 1 }, /retention_days must be one of/],
    [{ ip_mode: 'FULL' }, /ip_mode must be one of/],
    [{ owner_id: 'someone' }, 'body unknown field "owner_id"'],
    [{ id: crypto.randomUUID() }, 'body unknown field "id"'],
    [[], 'Request body must be a JSON object'],
  ])('answers 400 with the create message and changes nothing (%#)', async (body, message) => {
    const before = await campaign();
    await expectError(await update(before.id, body), 400, message);
    expect((await listCampaigns()).find((c) => c.id === before.id)).toEqual(before);
  });

  it('answers 400 for an empty body, 404 for an unknown campaign, 403 for another owner, 401 without a session, 403 cross-origin', async () => {
    const mine = await campaign();
    await expectError(await update(mine.id, ''), 400, 'Request body must be a JSON object');
    await expectError(await update('not-a-uuid', { name: 'x' }), 400, 'Invalid campaign id');
    await expectError(await update(crypto.randomUUID(), { name: 'x' }), 404, 'Campaign not found');
    const stranger = await userSession(server, 'Campaign Editor');
    await expectError(await update(mine.id, { name: 'Taken over' }, stranger.headers), 403, 'Forbidden');
    await expectError(await update(mine.id, { name: 'x' }, { origin: server.config.publicUrl }), 401, 'Unauthorized');
    await expectError(await update(mine.id, { name: 'x' }, { ...owner.headers, origin: 'https://evil.example' }), 403, 'Forbidden');
    expect((await listCampaigns()).find((c) => c.id === mine.id)).toEqual(mine);
  });

  it('records visitors of the new domains at once, and no longer those of a domain taken out', async () => {
    const mine = await campaign({ ...valid, limit: 0, domains: 'shop.example.com' });
    const visit = (origin: string) => postBatch(server, mine.id, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() }, { origin });
    expect((await visit('https://new.example.org')).status).toBe(403);
    expect((await update(mine.id, { domains: 'new.example.org' })).status).toBe(200);
    expect((await visit('https://new.example.org')).status).toBe(200);
    const refused = await visit('https://shop.example.com');
    expect([refused.status, await refused.json()]).toEqual([403, { error: 'Origin not allowed for this campaign' }]);
  });

  it('lowering the limit below the count keeps the sessions and the count, and stops new sessions', async () => {
    const mine = await campaign({ ...valid, limit: 5 });
    for (const id of ['session-low-0001', 'session-low-0002', 'session-low-0003']) {
      await insertSession(server.db, { campaign_id: mine.id, id, started_at: Date.now() });
    }
    await server.db.updateTable('campaigns').set({ session_count: 3 }).where('id', '=', mine.id).execute();
    expect((await update(mine.id, { limit: 1 })).status).toBe(200);
    const row = await server.db.selectFrom('campaigns').select(['session_limit', 'session_count']).where('id', '=', mine.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ session_limit: 1, session_count: 3 });
    const sessions = await server.db.selectFrom('sessions').select('id').where('campaign_id', '=', mine.id).execute();
    expect(sessions).toHaveLength(3);
    // ...and stops new ones: a new visitor is refused at ingest.
    const refusal = await postBatch(server, mine.id, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() });
    expect([refusal.status, await refusal.json()]).toEqual([403, { error: 'Session limit reached for this campaign' }]);
    expect(await storedCounts(server, mine.id)).toEqual({ sessions: 3, chunks: 0 });
  });
});

describe('ingest after an owner changes or deletes the campaign', () => {
  it('takes the change on the very next batch, though ingest keeps the campaigns it reads', async () => {
    const { data: campaign } = (await (await create(valid)).json()) as { data: Campaign };
    const batch = (seq: number, id = sessionId()) => ({ sessionId: id, seq, info: info(), events: pageEvents() });
    const shop = { origin: 'https://shop.example.com' };
    expect((await postBatch(server, campaign.id, batch(0), shop)).status).toBe(200);

    const patched = await fetch(`${server.url}/api/v1/campaign/update/${campaign.id}`, {
      method: 'PATCH',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ domains: 'new.example.com' }),
    });
    expect(patched.status).toBe(200);
    expect((await postBatch(server, campaign.id, batch(0), shop)).status).toBe(403);
    expect((await postBatch(server, campaign.id, batch(0), { origin: 'https://new.example.com' })).status).toBe(200);

    // A write made outside this process is seen within the keeping time (10 s), never later.
    await server.db.updateTable('campaigns').set({ capture_console: 0 }).where('id', '=', campaign.id).execute();
    const kept = server.app.ctx.keptCampaigns;
    expect((await kept.forIngest(campaign.id, { now: Date.now() + 10_001 })).row?.capture_console).toBe(0);

    // A read under way while the owner's change is written is not kept past the change.
    const { updateCampaign } = await import('../../server/campaigns/repository.js');
    const reading = kept.forIngest(campaign.id, { now: Date.now() + 30_000 }); // past the keeping time: read afresh
    await updateCampaign(server.db, kept, { id: campaign.id, owner_id: owner.userId }, { domains: 'later.example.com' });
    await reading;
    expect((await kept.forIngest(campaign.id, { now: Date.now() + 30_000 })).row?.domains).toBe('later.example.com');

    expect((await fetch(`${server.url}/api/v1/campaign/delete/${campaign.id}`, { method: 'DELETE', headers: owner.headers })).status).toBe(200);
    expect((await postBatch(server, campaign.id, batch(0), { origin: 'https://later.example.com' })).status).toBe(404);
  });
});
