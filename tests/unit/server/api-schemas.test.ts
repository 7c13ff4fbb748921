import Fastify from 'fastify';
import type { TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import { SessionsQuery, SessionsResponse } from '../../../common/api/sessions.js';
import { filterParams, validateSessionFilters } from '../../../src/lib/sessionFilters.js';
import { listFilters, validateListContext, validateSessionListSearch } from '../../../src/lib/sessionListContext.js';
import { fetchSessionsPage } from '../../../src/api/sessions.js';
import type { ApiClient } from '../../../src/api/client.js';
import { DEFAULT_SORT, FUNNEL_OUTCOMES, SESSION_SORTS, SESSION_TYPES } from '../../../common/session-list.js';
import { MAX_ERROR_MESSAGE } from '../../../common/captured.js';
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
    const campaign = toCampaign({
      id: 'c',
      owner_id: 'u',
      name: 'Sale',
      domains: 'example.com',
      session_limit: 5,
      start_date_time: 1,
      end_date_time: 2,
      created_at: 0,
    });
    expect(await serialised(CampaignListResponse, { data: [campaign] })).toEqual({ data: [campaign] });
  });
});

// The sessions page keeps its filters in the URL and sends them as the list's query: whatever
// its validateSearch keeps, the server's query schema must accept, or a bookmarked link answers 400.
const FUNNEL_ID = '0b7c1e9a-5d2f-4c3e-8a1b-9f0e2d3c4b5a';

describe('session filters', () => {
  it.each([
    { from: '8700000000000000' },
    { to: String(Number.MAX_SAFE_INTEGER) },
    { minDuration: '0', maxDuration: '8640000000000000' },
    { url: ` ${'/a'.repeat(150)} `, browser: 'B'.repeat(80), country: 'fr' },
    { device: 'tablet', sort: 'errors', hasErrors: 'true' },
    { hasQuickBacks: 'true', hasExcessiveScrolling: true },
    { utm: ` ${'spring-sale '.repeat(12)}` },
    // The funnel id is the server's made id and nothing else; the error message is cut where errors are grouped.
    { funnel: 'spring', step: '2', outcome: 'dropped' },
    { funnel: `${FUNNEL_ID}-0000`, outcome: 'converted' },
    { funnel: FUNNEL_ID, step: '2', outcome: 'converted' },
    { error: ` ${'TypeError: x is undefined '.repeat(20)}` },
    { error: 'x'.repeat(MAX_ERROR_MESSAGE + 1), sort: 'newest', outcome: 'lost' },
  ])('that the page keeps from its URL pass the server schema (%#)', async (search) => {
    const app = Fastify({ ajv: { customOptions: { coerceTypes: 'array' } } }); // as server/app.ts
    app.get('/', { schema: { querystring: SessionsQuery } }, async () => ({ ok: true }));
    const answer = await app.inject(`/?${filterParams(validateSessionFilters(search)).toString()}`);
    await app.close();
    expect([answer.statusCode, answer.body]).toEqual([200, '{"ok":true}']);
  });

  it('keep a funnel by the id the server makes, and an error message cut where the server groups them', () => {
    expect(validateSessionFilters({ funnel: FUNNEL_ID, step: 2, outcome: 'dropped' })).toEqual({ funnel: FUNNEL_ID, step: 2, outcome: 'dropped' });
    expect(validateSessionFilters({ funnel: 'f'.repeat(64), step: 2, outcome: 'dropped' })).toEqual({});
    expect(validateSessionFilters({ error: 'e'.repeat(500) }).error).toHaveLength(MAX_ERROR_MESSAGE);
  });

  it("offer the server's own lists: every type, outcome and sort the schema names", () => {
    const literals = (key: string) => (SessionsQuery.properties as unknown as Record<string, { anyOf: { const: string }[] }>)[key]!.anyOf.map((s) => s.const);
    expect(literals('type')).toEqual([...SESSION_TYPES]);
    expect(literals('outcome')).toEqual([...FUNNEL_OUTCOMES]);
    expect(literals('sort')).toEqual([...SESSION_SORTS]);
    for (const type of SESSION_TYPES) expect(validateListContext({ type }).type).toBe(type);
    for (const outcome of FUNNEL_OUTCOMES) expect(validateSessionFilters({ funnel: FUNNEL_ID, outcome }).outcome).toBe(outcome);
    for (const sort of SESSION_SORTS.filter((s) => s !== DEFAULT_SORT)) expect(validateSessionFilters({ sort }).sort).toBe(sort);
  });

  it.each([
    { q: ' fr-FR ', type: 'bot', hasErrors: 'true', sort: 'longest' },
    { q: 'x'.repeat(150), type: 'human', funnel: FUNNEL_ID, step: '1' },
    { q: 42, type: 'robot', sort: 'sideways' },
  ])('and the search and type the sessions page keeps from its URL pass the server schema too (%#)', async (search) => {
    const app = Fastify({ ajv: { customOptions: { coerceTypes: 'array' } } });
    app.get('/', { schema: { querystring: SessionsQuery } }, async () => ({ ok: true }));
    const list = validateSessionListSearch(search);
    let asked = '';
    await fetchSessionsPage('c', { search: list.q, type: list.type, filters: listFilters(list) }, null, {
      get: async (url: string) => void (asked = url),
    } as unknown as ApiClient);
    const answer = await app.inject(`/?${asked.split('?')[1]}`);
    await app.close();
    expect([answer.statusCode, answer.body]).toEqual([200, '{"ok":true}']);
  });

  it('keep the utm filter (a UTM campaign) from the URL, at most 100 characters', () => {
    expect(validateSessionFilters({ utm: ' spring-sale ' })).toEqual({ utm: 'spring-sale' });
    expect(validateSessionFilters({ utm: 'x'.repeat(150) }).utm).toHaveLength(100);
    expect(validateSessionFilters({ utm: '  ' })).toEqual({});
  });
});
