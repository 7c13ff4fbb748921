import Fastify from 'fastify';
import type { TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import { SessionsQuery, SessionsResponse } from '../../../common/api/sessions.js';
import { filterParams, validateSessionFilters } from '../../../src/lib/sessionFilters.js';
import { CampaignListResponse } from '../../../common/api/campaigns.js';
import { sessionRow, toSession } from '../../../server/sessions/rows.js';
import { toCampaign } from '../../../server/campaigns/rows.js';

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

// The sessions page keeps its filters in the URL and sends them as the list's query: whatever
// its validateSearch keeps, the server's query schema must accept, or a bookmarked link answers 400.
describe('session filters', () => {
  it.each([
    { from: '8700000000000000' },
    { to: String(Number.MAX_SAFE_INTEGER) },
    { minDuration: '0', maxDuration: '8640000000000000' },
    { url: ` ${'/a'.repeat(150)} `, browser: 'B'.repeat(80), country: 'fr' },
    { device: 'tablet', sort: 'errors', hasErrors: 'true' },
    { hasQuickBacks: 'true', hasExcessiveScrolling: true },
    { utm: ` ${'spring-sale '.repeat(12)}` },
  ])('that the page keeps from its URL pass the server schema (%#)', async (search) => {
    const app = Fastify({ ajv: { customOptions: { coerceTypes: 'array' } } }); // as server/app.ts
    app.get('/', { schema: { querystring: SessionsQuery } }, async () => ({ ok: true }));
    const answer = await app.inject(`/?${filterParams(validateSessionFilters(search)).toString()}`);
    await app.close();
    expect([answer.statusCode, answer.body]).toEqual([200, '{"ok":true}']);
  });

  it('keep the utm filter (a UTM campaign) from the URL, at most 100 characters', () => {
    expect(validateSessionFilters({ utm: ' spring-sale ' })).toEqual({ utm: 'spring-sale' });
    expect(validateSessionFilters({ utm: 'x'.repeat(150) }).utm).toHaveLength(100);
    expect(validateSessionFilters({ utm: '  ' })).toEqual({});
  });
});
