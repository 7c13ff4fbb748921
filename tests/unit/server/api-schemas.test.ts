import Fastify from 'fastify';
import type { TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import { SessionsResponse } from '../../../common/api/sessions.js';
import { CampaignListResponse } from '../../../common/api/campaigns.js';
import { sessionRow, toSession } from '../../../server/sessions/repository.js';
import { toCampaign } from '../../../server/campaigns/routes.js';

/** What a route with this response schema sends for `value`, serialised as Fastify does. */
async function serialised(schema: TSchema, value: unknown): Promise<unknown> {
  const app = Fastify();
  app.get('/', { schema: { response: { 200: schema } } }, async () => value);
  const answer = await app.inject('/');
  await app.close();
  return JSON.parse(answer.body);
}

// A response schema makes Fastify serialise with fast-json-stringify, which drops any field the
// schema does not list: a field the mapping adds and the schema forgets would vanish silently.
describe('response schemas', () => {
  it('keep every field of a session as the list maps it', async () => {
    const row = sessionRow({
      campaign_id: 'c',
      id: 'session-1',
      started_at: 1_700_000_000_000,
      last_activity_at: 1_700_000_060_000,
      remote_ip: '203.0.113.9',
      country: 'FR',
      is_bot: 1,
      bot_reason: 'crawler user agent',
      screen_width: 1280,
      byte_count: 5_000_000_000,
    });
    const body = { sessions: [toSession(row)], nextCursor: null, counts: { total: 1, human: 0, bot: 1 } };
    expect(await serialised(SessionsResponse, body)).toEqual(body);
  });

  it('keep every field of a campaign as the list maps it', async () => {
    const campaign = toCampaign({ id: 'c', owner_id: 'u', name: 'Sale', domains: 'example.com', session_limit: 5, start_date_time: 1, end_date_time: 2, created_at: 0 });
    expect(await serialised(CampaignListResponse, { data: [campaign] })).toEqual({ data: [campaign] });
  });
});
