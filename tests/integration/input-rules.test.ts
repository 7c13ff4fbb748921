import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { info, pageEvents, postBatch, serverWithCampaign, sessionId } from './ingest-support.js';
import { SessionsQuery } from '../../common/api/sessions.js';

// The same input rules on SQLite and PostgreSQL: what a visitor's batch carries is stored without
// NUL (PostgreSQL's text columns refuse one), and the sessions list answers any query string
// with 2xx or 4xx, never 5xx (every route's fields: every-route-input.test.ts).

let { server, owner, campaignId } = {} as Awaited<ReturnType<typeof serverWithCampaign>>;

beforeAll(async () => {
  ({ server, owner, campaignId } = await serverWithCampaign('Input Rules Owner'));
});
afterAll(async () => server?.close());

const list = (query: string | URLSearchParams) => fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/?${String(query)}`, { headers: owner.headers });

describe('a NUL in what a visitor sends', () => {
  it('is stripped from the page addresses and visit details stored, and the batch stored', async () => {
    const id = sessionId();
    const events = pageEvents();
    events[0].data.href = 'not a url\u0000/checkout';
    const nul = {
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)\u0000 Firefox/120.0',
      language: 'en\u0000-GB',
      timezone: 'Europe/\u0000London',
      referrer: 'https://search.example/\u0000',
      url: 'page\u0000/checkout',
    };
    const res = await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(nul), events });
    expect(res.status).toBe(200);
    const row = await server.db
      .selectFrom('sessions')
      .select(['pages', 'exit_url', 'user_agent', 'language', 'timezone', 'referrer', 'entry_url', 'browser', 'os'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.pages).toBe('not a url/checkout');
    expect(row.exit_url).toBe('not a url/checkout');
    expect(row.language).toBe('en-GB');
    expect(row.timezone).toBe('Europe/London');
    for (const value of Object.values(row)) expect(value ?? '').not.toContain('\u0000');
  });

  it('is stripped from captured console messages and requests', async () => {
    const id = sessionId();
    const t = Date.now() - 1000;
    const events = [
      ...pageEvents(t - 2000),
      { type: 5, data: { tag: 'tapedeck/console', payload: { level: 'error', message: 'bad\u0000 thing' } }, timestamp: t },
      { type: 5, data: { tag: 'tapedeck/request', payload: { method: 'GET', url: '/api/\u0000items', status: 500, durationMs: 3 } }, timestamp: t + 1 },
    ];
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events })).status).toBe(200);
    const replay = await fetch(`${server.url}/api/v1/replay/retrieve/${campaignId}/${id}`, { headers: owner.headers });
    const { events: stored } = (await replay.json()) as { events: { type: number; data: { payload?: Record<string, unknown> } }[] };
    const payloads = stored.filter((e) => e.type === 5).map((e) => e.data.payload);
    expect(payloads).toEqual([
      { level: 'error', message: 'bad thing' },
      { method: 'GET', url: '/api/items', status: 500, durationMs: 3 },
    ]);
  });
});

describe('the sessions list’s filters', () => {
  it.each(['from=1e400', 'to=Infinity', 'minDuration=-1e400', 'maxDuration=1e999', 'limit=1e400'])('refuse %s with 400 and a reason', async (query) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(`querystring.${query.split('=')[0]} must be a finite number`);
  });

  it('and every other route refuse a number that is not finite, in the query or the path', async () => {
    const heat = await fetch(`${server.url}/api/v1/heatmaps/${campaignId}/pages?from=1e400`, { headers: owner.headers });
    expect(heat.status).toBe(400);
    expect(((await heat.json()) as { error: string }).error).toBe('querystring.from must be a finite number');
  });

  it('refuse a NUL in search, url, browser or error with 400 naming the parameter (server/http/input-rules.ts)', async () => {
    for (const [name, value] of [
      ['search', 'ab%00cd'],
      ['url', 'bas%00ket'],
      ['url', '%00'],
      ['browser', 'chr%00ome'],
      ['error', '%00'],
    ]) {
      const res = await list(`${name}=${value}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(`querystring.${name} must not contain NUL`);
    }
  });

  it('answer any string in any parameter with 2xx or 4xx, never 5xx', async () => {
    const names = Object.keys(SessionsQuery.properties);
    const tricky = fc.constantFrom(
      '1e400',
      '-1e400',
      'Infinity',
      'NaN',
      '-0',
      '0x10',
      '1e15',
      '9007199254740993',
      '\u0000',
      'a\u0000b',
      '%',
      '\\',
      "'",
      '"',
      '_',
      'true',
      ' ',
      '',
    );
    // Every parameter with a NUL, each time: PostgreSQL refuses one in text, and chance found two.
    for (const name of names)
      for (const nul of ['\u0000', 'a\u0000b']) expect((await list(new URLSearchParams({ [name]: nul }))).status, name).toBeLessThan(500);
    const value = fc.oneof(tricky, fc.string({ unit: 'binary', maxLength: 40 }), fc.double().map(String), fc.bigInt().map(String));
    const query = fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 5 });
    await fc.assert(
      fc.asyncProperty(query, async (params) => {
        const res = await list(new URLSearchParams(params));
        const body = (await res.json()) as { error?: unknown };
        expect(res.status, JSON.stringify(params)).toBeLessThan(500);
        if (res.status >= 400) expect(typeof body.error).toBe('string');
      }),
      { numRuns: 200 },
    );
  });
});
