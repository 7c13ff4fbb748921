import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSession } from '../helpers/auth.js';
import { SEGMENT_LIMIT_REACHED, type Segment, type SegmentList } from '../../common/api/segments.js';
import { MAX_SEGMENT_NAME, MAX_SEGMENTS_PER_CAMPAIGN } from '../../common/segments.js';
import { createCampaign, ownerAndOther } from './ingest-support.js';
import { SEGMENT_WRITES_PER_USER } from '../../server/segments/repository.js';

// Segments: a campaign's saved list filters. Owner only, checked by the list's own filter schema, bounded.

let { server, owner, other, campaign } = {} as Awaited<ReturnType<typeof ownerAndOther>>;

beforeAll(async () => {
  ({ server, owner, other, campaign } = await ownerAndOther('Segment Owner', 'Other Owner', 'Segments'));
});
afterAll(async () => server?.close());

const url = (campaignId: string, segmentId?: string) => `${server.url}/api/v1/segments/${campaignId}${segmentId ? `/${segmentId}` : ''}`;
function call(method: string, path: string, body?: unknown, headers: Record<string, string> = owner.headers) {
  return fetch(path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
async function listed(campaignId = campaign.id): Promise<Segment[]> {
  const response = await call('GET', url(campaignId));
  expect(response.status).toBe(200);
  return ((await response.json()) as SegmentList).segments;
}

describe('segments', () => {
  it('saves filters under a name, lists, renames and deletes them', async () => {
    // The PWA sends the list's query parameters as they are in the URL: text.
    const created = await call('POST', url(campaign.id), {
      name: ' Checkout errors ',
      filters: { hasErrors: 'true', url: '/checkout', minDuration: '5000', starred: 'true' },
    });
    expect(created.status).toBe(201);
    const segment = (await created.json()) as Segment;
    expect(segment).toMatchObject({ name: 'Checkout errors', filters: { hasErrors: 'true', url: '/checkout', minDuration: 5000, starred: 'true' } });
    expect(await listed()).toEqual([segment]);

    const renamed = await call('PATCH', url(campaign.id, segment.id), { name: 'Broken checkouts' });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: segment.id, name: 'Broken checkouts', filters: segment.filters });
    const refiltered = await call('PATCH', url(campaign.id, segment.id), { filters: { device: 'mobile' } });
    expect(((await refiltered.json()) as Segment).filters).toEqual({ device: 'mobile' });

    expect((await call('DELETE', url(campaign.id, segment.id))).status).toBe(200);
    expect(await listed()).toEqual([]);
    expect((await call('DELETE', url(campaign.id, segment.id))).status).toBe(404);
    expect((await call('PATCH', url(campaign.id, segment.id), { name: 'x' })).status).toBe(404);
  });

  it('refuses filters the sessions list would refuse, and names that are empty or too long', async () => {
    const bad = [
      { name: 'Unknown filter', filters: { colour: 'red' } },
      { name: 'Paging is no filter', filters: { cursor: 'abc' } },
      { name: 'Bad device', filters: { device: 'watch' } },
      { name: 'Bad flag', filters: { hasErrors: 'yes' } },
      { name: 'Bad time', filters: { from: '-1' } },
      { name: '   ', filters: {} },
      { name: 'x'.repeat(MAX_SEGMENT_NAME + 1), filters: {} },
      { name: 'No filters' },
      { name: 'Too big', filters: { url: 'x'.repeat(5000) } },
    ];
    for (const body of bad) {
      const response = await call('POST', url(campaign.id), body);
      expect([400, 413], JSON.stringify(body).slice(0, 80)).toContain(response.status);
      expect(((await response.json()) as { error: string }).error).toBeTruthy();
    }
    expect((await call('PATCH', url(campaign.id, crypto.randomUUID()), {})).status).toBe(400);
    expect((await call('POST', url(campaign.id), { name: 'x'.repeat(MAX_SEGMENT_NAME), filters: {} })).status).toBe(201);
    expect(await listed()).toHaveLength(1);
  });

  it(`keeps at most ${MAX_SEGMENTS_PER_CAMPAIGN} segments a campaign`, async () => {
    const full = await createCampaign(server, owner.headers, 'Full');
    // Inserted directly: the rate limit of saves is its own test.
    const now = Date.now();
    await server.db
      .insertInto('segments')
      .values(
        Array.from({ length: MAX_SEGMENTS_PER_CAMPAIGN }, (_, i) => ({
          id: crypto.randomUUID(),
          campaign_id: full.id,
          name: `s${i}`,
          filters: '{}',
          created_at: now + i,
          updated_at: now,
        })),
      )
      .execute();
    const refused = await call('POST', url(full.id), { name: 'one more', filters: {} });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: SEGMENT_LIMIT_REACHED });
    expect(await listed(full.id)).toHaveLength(MAX_SEGMENTS_PER_CAMPAIGN);
  });

  it("answers 404 for another workspace's campaign or an unknown one, changing nothing", async () => {
    const created = (await (await call('POST', url(campaign.id), { name: 'Mine', filters: {} })).json()) as Segment;
    expect((await call('GET', url(campaign.id), undefined, other.headers)).status).toBe(404);
    expect((await call('POST', url(campaign.id), { name: 'Theirs', filters: {} }, other.headers)).status).toBe(404);
    expect((await call('PATCH', url(campaign.id, created.id), { name: 'Theirs' }, other.headers)).status).toBe(404);
    expect((await call('DELETE', url(campaign.id, created.id), undefined, other.headers)).status).toBe(404);
    expect((await call('GET', url(crypto.randomUUID()))).status).toBe(404);
    expect((await call('GET', url('not-a-campaign'))).status).toBe(400);
    // An id no segment can have (a NUL, which PostgreSQL refuses in text) is refused before any lookup.
    expect((await call('PATCH', url(campaign.id, '%00'), { name: 'x' })).status).toBe(400);
    expect((await call('DELETE', url(campaign.id, '%00'))).status).toBe(400);
    expect((await call('POST', url(campaign.id), { name: 'Cross-site', filters: {} }, { cookie: owner.cookie, origin: 'https://evil.example' })).status).toBe(
      403,
    );
    expect((await listed()).find((s) => s.id === created.id)?.name).toBe('Mine');
    expect((await listed()).map((s) => s.name)).not.toContain('Theirs');
  });

  it('limits how many changes one owner makes a minute', async () => {
    const busy = await userSession(server, 'Busy Saver');
    const theirs = await createCampaign(server, busy.headers, 'Busy');
    const statuses: number[] = [];
    for (let i = 0; i <= SEGMENT_WRITES_PER_USER; i++)
      statuses.push((await call('DELETE', url(theirs.id, crypto.randomUUID()), undefined, busy.headers)).status);
    expect(statuses.slice(0, SEGMENT_WRITES_PER_USER).every((s) => s === 404)).toBe(true);
    expect(statuses[SEGMENT_WRITES_PER_USER]).toBe(429);
  });

  it('go with their campaign', async () => {
    const doomed = await createCampaign(server, owner.headers, 'Doomed');
    expect((await call('POST', url(doomed.id), { name: 'Soon gone', filters: {} })).status).toBe(201);
    expect((await call('DELETE', `${server.url}/api/v1/campaign/delete/${doomed.id}`)).status).toBe(200);
    expect(await server.db.selectFrom('segments').selectAll().where('campaign_id', '=', doomed.id).execute()).toEqual([]);
  });
});
