import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MATCHED_COUNT } from '../../common/session-list.js';
import type { TestServer } from '../helpers/server.js';
import type { userSession } from '../helpers/auth.js';
import { sessionRow } from '../../server/sessions/rows.js';
import { COMMON_TERMS, COUNTED_TERMS } from '../../server/sessions/search.js';
import { MAX_SEARCH_TEXTS } from '../../common/session-facts.js';
import * as sessionTerms from '../../server/db/migrations/0031_session_terms.js';
import * as termsByStart from '../../server/db/migrations/0032_session_terms_by_start.js';
import { PEOPLE_TAGS } from '../../common/people.js';
import type { Campaign, SessionsResponse } from '../../common/api-types.js';
import { createCampaign, info, ownerAndOther, postBatch, sessionId, type TestEvent } from './ingest-support.js';

// The sessions list's one search box (issue 36): a session is found by who (user id, session id)
// and what (pages, event names), by prefix of any word, as ingest recorded it; only the campaign's
// own sessions, and none once deleted. The user filter matches the user id's start.

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let other: Awaited<ReturnType<typeof userSession>>;
let campaign: Campaign;
let elsewhere: Campaign;
const ids = { kettle: sessionId(), toaster: sessionId(), anonymous: sessionId(), otherCampaign: sessionId(), deleted: sessionId() };
const read = { titled: sessionId(), clicked: sessionId(), masked: sessionId(), busy: sessionId(), cust: sessionId() };
let reading: Campaign;

const page = (href: string, t: number): TestEvent => ({ type: 4, data: { href, width: 1280, height: 720 }, timestamp: t });
const custom = (tag: string, payload: unknown, t: number): TestEvent => ({ type: 5, data: { tag, payload }, timestamp: t });
const identify = (userId: string, t: number) => custom(PEOPLE_TAGS.identify, { userId }, t);
const event = (name: string, t: number) => custom(PEOPLE_TAGS.event, { name }, t);

/** A clicked element as the tracker's heatmap records it: its short visible text. */
const click = (text: string, t: number) => custom('tapedeck/click', { p: '/p', s: 'button', t: text, fx: 0.5, fy: 0.5, x: 20, y: 40, w: 1280, h: 1600 }, t);

/** A full snapshot of a page titled `title` (rrweb's serialised document), or of an empty one. */
const snapshot = (t: number, title?: string): TestEvent => {
  const text = (id: number, textContent: string) => ({ type: 3, textContent, id });
  const element = (id: number, tagName: string, childNodes: unknown[]) => ({ type: 2, tagName, attributes: {}, childNodes, id });
  const head = element(3, 'head', title === undefined ? [] : [element(4, 'title', [text(5, title)])]);
  const childNodes = title === undefined ? [] : [element(2, 'html', [head, element(6, 'body', [text(7, 'Kettle deals inside')])])];
  return { type: 2, data: { node: { type: 0, childNodes, id: 1 }, initialOffset: { top: 0, left: 0 } }, timestamp: t };
};

/** One batch of a session, as the tracker sends it (the first with the visitor's info), ending with a full snapshot (of a page titled `title`). */
async function send(campaignId: string, id: string, seq: number, events: (t: number) => TestEvent[], title?: string) {
  const t = Date.now() - 5000 + seq * 100;
  const response = await postBatch(server, campaignId, { sessionId: id, seq, info: seq === 0 ? info() : null, events: [...events(t), snapshot(t + 1, title)] });
  expect(response.status).toBe(200);
}

function list(query: string, campaignId = campaign.id) {
  return fetch(`${server.url}/api/v1/streaming/sessions/${campaignId}/?${query}`, { headers: owner.headers });
}

/** Every session the query lists, page after page, sorted. */
async function found(query: string, campaignId = campaign.id): Promise<string[]> {
  const listed: string[] = [];
  let cursor: string | null = null;
  do {
    const response = await list(`${query}${cursor ? `&cursor=${cursor}` : ''}`, campaignId);
    expect(response.status).toBe(200);
    const body = (await response.json()) as SessionsResponse;
    listed.push(...body.sessions.map((s) => s.sessionId));
    cursor = body.nextCursor;
  } while (cursor);
  return listed.sort();
}

const search = (text: string) => found(`search=${encodeURIComponent(text)}`);

beforeAll(async () => {
  ({ server, owner, other, campaign } = await ownerAndOther('Search Owner', 'Search Stranger', 'Shop'));
  elsewhere = await createCampaign(server, owner.headers, 'Other shop');
  await send(campaign.id, ids.kettle, 0, (t) => [
    page('https://shop.example.com/products/kettle?ref=mail', t),
    identify('cust-001', t + 2),
    event('Add to basket', t + 3),
  ]);
  await send(campaign.id, ids.toaster, 0, (t) => [page('https://shop.example.com/checkout', t), identify('cust-002', t + 2)]);
  // A later batch's page and event are found too.
  await send(campaign.id, ids.toaster, 1, (t) => [page('https://shop.example.com/products/toaster', t), event('refund', t + 1)]);
  await send(campaign.id, ids.anonymous, 0, (t) => [page('https://shop.example.com/cart', t)]);
  await send(campaign.id, ids.deleted, 0, (t) => [page('https://shop.example.com/products/kettle-deluxe', t), identify('cust-003', t + 1)]);
  await send(elsewhere.id, ids.otherCampaign, 0, (t) => [
    page('https://shop.example.com/products/kettle', t),
    identify('cust-001', t + 1),
    event('Add to basket', t + 2),
  ]);
});
afterAll(async () => server?.close());

describe('the search by what a person read and clicked', () => {
  beforeAll(async () => {
    reading = await createCampaign(server, owner.headers, 'Reading');
    await send(reading.id, read.titled, 0, (t) => [page('https://shop.example.com/p/1', t)], 'Electric Kettle 1.7 L – Shop');
    await send(reading.id, read.clicked, 0, (t) => [page('https://shop.example.com/p/2', t), click('Toaster', t + 1)]);
    // A later batch's clicked text is found too.
    await send(reading.id, read.clicked, 1, (t) => [click('Add  Kettle to basket', t)]);
    await send(reading.id, read.masked, 0, (t) => [page('https://shop.example.com/p/3', t), click('******', t + 1)], '*******');
    // Every click a new text: only the session's first MAX_SEARCH_TEXTS become terms.
    const items = Array.from({ length: MAX_SEARCH_TEXTS + 10 }, (_, i) => `Item ${String(i + 1).padStart(2, '0')}`);
    await send(reading.id, read.busy, 0, (t) => [page('https://shop.example.com/p/4', t), ...items.slice(0, 20).map((item, i) => click(item, t + 1 + i))]);
    await send(reading.id, read.busy, 1, (t) => items.slice(20).map((item, i) => click(item, t + i)));
    await send(reading.id, read.cust, 0, (t) => [page('https://shop.example.com/p/5', t), identify('cust-001', t + 1)], 'Toaster – Shop');
  });

  const inReading = (text: string) => found(`search=${encodeURIComponent(text)}`, reading.id);

  it('finds a session by its page title and by the text of what was clicked, by any word of them', async () => {
    expect(await inReading('kettle')).toEqual([read.titled, read.clicked].sort());
    expect(await inReading('Electric kettle 1')).toEqual([read.titled]);
    expect(await inReading('add kettle')).toEqual([read.clicked]);
    expect(await inReading('toaster')).toEqual([read.clicked, read.cust].sort());
    // The page's body is not its title.
    expect(await inReading('deals')).toEqual([]);
  });

  it('finds the user id and session id prefixes beside them, and nothing for what no session has', async () => {
    expect(await inReading('cust-00')).toEqual([read.cust]);
    expect(await inReading(read.titled.slice(0, 10))).toEqual([read.titled]);
    expect(await inReading('zzz')).toEqual([]);
    expect(await inReading('*')).toEqual([]);
  });

  it("takes a session's first titles and clicked texts only", async () => {
    expect(await inReading(`item ${MAX_SEARCH_TEXTS}`)).toEqual([read.busy]);
    expect(await inReading(`item ${MAX_SEARCH_TEXTS + 1}`)).toEqual([]);
    const terms = await server.db.selectFrom('session_terms').select('term').where('session_id', '=', read.busy).execute();
    expect(terms.filter(({ term }) => term.startsWith('item')).length).toBe(MAX_SEARCH_TEXTS);
  });
});

describe('the sessions list search', () => {
  it('finds sessions by user id, page path, event name and session id, by prefix and any case', async () => {
    expect(await search('cust-001')).toEqual([ids.kettle]);
    expect(await search('CUST-00')).toEqual([ids.kettle, ids.toaster, ids.deleted].sort());
    expect(await search('/products/kettle')).toEqual([ids.kettle, ids.deleted].sort());
    expect(await search('kettle')).toEqual([ids.kettle, ids.deleted].sort());
    expect(await search('Kettle-d')).toEqual([ids.deleted]);
    expect(await search('toast')).toEqual([ids.toaster]);
    expect(await search('/checkout')).toEqual([ids.toaster]);
    expect(await search('add to basket')).toEqual([ids.kettle]);
    expect(await search('basket')).toEqual([ids.kettle]);
    expect(await search('refund')).toEqual([ids.toaster]);
    expect(await search(ids.anonymous.slice(0, 10).toUpperCase())).toEqual([ids.anonymous]);
    // A prefix of a word, not any substring; the query string is never a page's.
    expect(await search('ettle')).toEqual([]);
    expect(await search('ref=mail')).toEqual([]);
  });

  it("never lists another campaign's sessions, and another owner cannot search this one", async () => {
    expect(await found('search=kettle', elsewhere.id)).toEqual([ids.otherCampaign]);
    expect(await search(ids.otherCampaign.slice(0, 12))).toEqual([]);
    const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/?search=kettle`, { headers: other.headers });
    expect(response.status).toBe(404);
  });

  it('matches the user filter by the start of the user id, case as written', async () => {
    expect(await found('user=cust-00')).toEqual([ids.kettle, ids.toaster, ids.deleted].sort());
    expect(await found('user=cust-002')).toEqual([ids.toaster]);
    expect(await found('user=CUST-00')).toEqual([]);
    expect(await found('user=001')).toEqual([]);
    expect(await found('user=cust-00&search=kettle')).toEqual([ids.kettle, ids.deleted].sort());
  });

  it('no longer finds a deleted session', async () => {
    const response = await fetch(`${server.url}/api/v1/streaming/sessions/${campaign.id}/${ids.deleted}`, { method: 'DELETE', headers: owner.headers });
    expect(response.status).toBe(200);
    expect(await search('kettle')).toEqual([ids.kettle]);
    expect(await search('cust-003')).toEqual([]);
    const terms = await server.db.selectFrom('session_terms').select('term').where('session_id', '=', ids.deleted).execute();
    expect(terms).toEqual([]);
  });

  it('refuses a search with a NUL or over 100 characters with a 400', async () => {
    for (const query of [`search=${encodeURIComponent('kettle\u0000')}`, `search=${'k'.repeat(101)}`, `user=${encodeURIComponent('cust\u0000')}`]) {
      const response = await list(query);
      expect(response.status, query).toBe(400);
    }
  });

  it('pages a common prefix along the list and a rarer one by its terms, newest first', async () => {
    const bulk = await createCampaign(server, owner.headers, 'Bulk');
    // Each has two terms starting "bulk" (its user id and its page): more than a common prefix's.
    const rows = Array.from({ length: COMMON_TERMS / 2 + 100 }, (_, i) => ({
      id: sessionId(),
      user_id: `bulk-${i}`,
      pages: '/bulk',
      started_at: 1_750_000_000_000 + i * 1000,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await server.db
        .insertInto('sessions')
        .values(rows.slice(i, i + 500).map((row) => sessionRow({ campaign_id: bulk.id, ...row })))
        .execute();
    }
    const newest = (match: (row: (typeof rows)[number]) => boolean) =>
      rows
        .filter(match)
        .reverse()
        .map((row) => row.id);
    const inOrder = async (query: string) => {
      const listed: string[] = [];
      let cursor: string | null = null;
      do {
        const body = (await (await list(`${query}${cursor ? `&cursor=${cursor}` : ''}`, bulk.id)).json()) as SessionsResponse;
        listed.push(...body.sessions.map((s) => s.sessionId));
        cursor = body.nextCursor;
      } while (cursor);
      return listed;
    };
    expect(await inOrder('search=bulk&limit=100')).toEqual(newest(() => true));
    expect(await inOrder('search=bulk-11')).toEqual(newest((row) => row.user_id.startsWith('bulk-11')));
    expect(await inOrder('search=bulk-1&limit=100')).toEqual(newest((row) => row.user_id.startsWith('bulk-1')));
    expect(await inOrder('user=bulk-7&limit=25')).toEqual(newest((row) => row.user_id.startsWith('bulk-7')));
    // "111 of 2,600 sessions": counted from the terms (search alone), by the rare prefix's ids (with
    // another filter or as the user filter), and "1000+" past the cap.
    const matched = async (query: string) => ((await (await list(`${query}&limit=10`, bulk.id)).json()) as SessionsResponse).matched;
    const startingWith = (prefix: string) => rows.filter((row) => row.user_id.startsWith(prefix)).length;
    expect(await matched('search=bulk-11')).toBe(startingWith('bulk-11'));
    expect(await matched('search=bulk-11&type=human')).toBe(startingWith('bulk-11'));
    expect(await matched('user=bulk-7')).toBe(startingWith('bulk-7'));
    expect(await matched('search=bulk')).toBe(MAX_MATCHED_COUNT + 1);
    expect(await matched('search=bulk-1')).toBe(MAX_MATCHED_COUNT + 1);
  });

  it('counts the sessions of a prefix whose sessions each have many of its terms, exactly up to the cap', async () => {
    const many = await createCampaign(server, owner.headers, 'Many terms');
    // Each session's terms starting "zz" (its user id and its events' names, one term each) lie
    // close together in the terms' index: the first terms read hold few sessions, and all of them
    // number more than COUNTED_TERMS while the sessions number MAX_MATCHED_COUNT.
    const events = Math.ceil(COUNTED_TERMS / MAX_MATCHED_COUNT);
    const rows = Array.from({ length: MAX_MATCHED_COUNT }, (_, i) => ({
      id: sessionId(),
      user_id: `zz${i}`,
      events: JSON.stringify(Object.fromEntries(Array.from({ length: events }, (_, k) => [`zz${i}x${k}`, 1]))),
      started_at: 1_750_000_000_000 + i * 1000,
    }));
    for (let i = 0; i < rows.length; i += 250) {
      await server.db
        .insertInto('sessions')
        .values(rows.slice(i, i + 250).map((row) => sessionRow({ campaign_id: many.id, ...row })))
        .execute();
    }
    const matched = async (query: string) => ((await (await list(`${query}&limit=10`, many.id)).json()) as SessionsResponse).matched;
    const startingWith = (prefix: string) => rows.filter((row) => row.user_id.startsWith(prefix)).length;
    expect(await matched('search=zz')).toBe(MAX_MATCHED_COUNT);
    expect(await matched('search=zz1')).toBe(startingWith('zz1'));
    expect(await matched('search=zz12')).toBe(startingWith('zz12'));
    expect(await matched('search=zz&type=human')).toBe(MAX_MATCHED_COUNT);
  }, 120_000);

  it('migration 0031 gives sessions recorded before it their whole texts as terms', async () => {
    const before = await createCampaign(server, owner.headers, 'Before 0031');
    await termsByStart.down(server.db);
    await sessionTerms.down(server.db);
    const row = {
      campaign_id: before.id,
      id: 'Old-Session',
      user_id: 'Cust-077',
      language: 'de-DE',
      events: '{"Wishlist":1}',
      pages: '/products/kettle\n/cart',
    };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the row as it was before the column
    await (server.db as any)
      .insertInto('sessions')
      .values({ ...row, started_at: 1, last_activity_at: 1 })
      .execute();
    await sessionTerms.up(server.db);
    await termsByStart.up(server.db);
    const terms = await server.db.selectFrom('session_terms').select('term').where('campaign_id', '=', before.id).orderBy('term').execute();
    expect(terms.map((t) => t.term)).toEqual(['/cart', '/products/kettle', 'cust-077', 'de-de', 'old-session', 'wishlist']);
    expect(await found('search=%2Fproducts%2Fk', before.id)).toEqual(['Old-Session']);
  });
});
