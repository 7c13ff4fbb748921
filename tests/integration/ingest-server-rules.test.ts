import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { info, makeCampaign, postBatch, sessionId, type TestEvent } from './ingest-support.js';
import { MAX_ID_RUNS } from '../../common/id-runs.js';

// The recording rules ingest enforces itself, whatever the sender: batches forged by a modified
// tracker (no page-load event where one was due, pages the campaign does not record).

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Rules Owner');
});
afterAll(async () => server?.close());

const SITE = 'https://shop.example.com';
const T0 = Date.now() - 60_000;

/** A page load: Meta, then a full snapshot holding `text`. */
const load = (path: string, t: number, text = `text of ${path}`): TestEvent[] => [
  { type: 4, data: { href: `${SITE}${path}`, width: 1280, height: 720 }, timestamp: t },
  {
    type: 2,
    data: {
      node: { type: 0, id: 1, childNodes: [{ type: 2, id: 2, tagName: 'p', attributes: {}, childNodes: [{ type: 3, id: 3, textContent: text }] }] },
      initialOffset: { top: 0, left: 0 },
    },
    timestamp: t + 1,
  },
];
/** A text change and a click on the page the tab is on, with no page load: what a modified tracker sends. */
const onThePage = (t: number, text: string): TestEvent[] => [
  { type: 3, data: { source: 0, texts: [{ id: 3, value: text }], attributes: [], removes: [], adds: [] }, timestamp: t },
  { type: 3, data: { source: 2, type: 2, id: 2, x: 5, y: 5 }, timestamp: t + 1 },
];

async function stored(campaignId: string, id: string) {
  const row = await server.db.selectFrom('sessions').selectAll().where('campaign_id', '=', campaignId).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const response = await fetch(`${server.url}/api/v1/replay/retrieve/${campaignId}/${id}`, { headers: owner.headers });
  expect(response.status).toBe(200);
  const events = ((await response.json()) as { events: TestEvent[] }).events;
  return { row, events, text: JSON.stringify(events) + JSON.stringify(row) };
}

const chunkCount = async (campaignId: string) => (await server.db.selectFrom('chunks').select('seq').where('campaign_id', '=', campaignId).execute()).length;

describe('pages the campaign does not record, judged by ingest on every batch', () => {
  it('stores nothing of a visit that only saw pages not recorded: no session row, no chunk, and the tracker is not asked to retry', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, columns: { url_exclude: '/account*' } });
    const id = sessionId();
    const first = await postBatch(server, campaignId, {
      sessionId: id,
      seq: 0,
      info: info({ url: `${SITE}/account/orders` }),
      events: load('/account/orders', T0),
    });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ stored: false });
    // A forged batch without a page load, then one with none of the session's info: still nothing.
    const next = await postBatch(server, campaignId, {
      sessionId: id,
      seq: 1,
      info: info({ url: `${SITE}/account/orders` }),
      events: onThePage(T0 + 10, 'card 4111'),
    });
    expect(next.status).toBe(200);
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 2, events: onThePage(T0 + 20, 'more') })).status).toBeLessThan(500);
    expect(await stored(campaignId, id)).toBeUndefined();
    expect(await chunkCount(campaignId)).toBe(0);
  });

  it('does not keep an entry page it does not record: the first recorded page is the entry', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, columns: { url_exclude: '/account*' } });
    const id = sessionId();
    const events = [...load('/account/secret', T0, 'secret entry'), ...load('/cart', T0 + 100)];
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info({ url: `${SITE}/account/secret` }), events })).status).toBe(200);
    const session = await stored(campaignId, id);
    expect(session?.row).toMatchObject({ entry_url: '/cart', pages: '/cart' });
    expect(session?.text).not.toContain('account');
    expect(session?.text).not.toContain('secret entry');
  });

  it("drops a later batch's events that carry no page load while the session is on a page not recorded, until a recorded page loads", async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, columns: { url_exclude: '/account*' } });
    const id = sessionId();
    const post = (seq: number, events: TestEvent[]) => postBatch(server, campaignId, { sessionId: id, seq, info: seq === 0 ? info() : null, events });
    expect((await post(0, load('/cart', T0))).status).toBe(200);
    // The tab goes on to a page left out, and a modified tracker keeps sending from it without a page load.
    expect((await post(1, [...onThePage(T0 + 100, 'still cart'), ...load('/account/orders', T0 + 200, 'order 1234')])).status).toBe(200);
    expect((await post(2, onThePage(T0 + 300, 'typed on account'))).status).toBe(200);
    expect((await post(3, onThePage(T0 + 400, 'more on account'))).status).toBe(200);
    let session = await stored(campaignId, id);
    expect(session?.text).toContain('still cart');
    for (const hidden of ['account', 'order 1234', 'typed on account', 'more on account']) expect(session?.text).not.toContain(hidden);
    // Back on a recorded page: recorded again, and its next batches too.
    expect((await post(4, load('/cart', T0 + 500, 'cart again'))).status).toBe(200);
    expect((await post(5, onThePage(T0 + 600, 'after cart'))).status).toBe(200);
    session = await stored(campaignId, id);
    expect(session?.text).toContain('cart again');
    expect(session?.text).toContain('after cart');
    expect(session?.row.batch_count).toBe(6);
  });

  it('judges a batch without a page load by the rules as they are now: a page left out since is no longer recorded', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const id = sessionId();
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: load('/cart', T0) })).status).toBe(200);
    await server.db.updateTable('campaigns').set({ url_include: '/shop*' }).where('id', '=', campaignId).execute();
    server.app.ctx.keptCampaigns.forget();
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 1, events: onThePage(T0 + 100, 'after the change') })).status).toBe(200);
    expect((await stored(campaignId, id))?.text).not.toContain('after the change');
  });
});

describe('elements never recorded, cut by ingest from what a modified tracker sends', () => {
  const el = (id: number, tagName: string, attributes: Record<string, string>, childNodes: unknown[] = []) => ({
    type: 2,
    id,
    tagName,
    attributes,
    childNodes,
  });
  const text = (id: number, textContent: string) => ({ type: 3, id, textContent });

  it('keeps a blocked element as a placeholder without its text, in the full snapshot and in the same batch’s mutations', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId, columns: { block_selector: '.secret, form#pay > input[name=card i]' } });
    const id = sessionId();
    const page = el(2, 'body', {}, [
      el(3, 'div', { class: 'box secret', title: 'Title secret', rr_width: '10px', rr_height: '5px' }, [
        text(4, 'Balance 1234'),
        el(5, 'span', {}, [text(6, 'Nested secret')]),
      ]),
      el(7, 'form', { id: 'pay' }, [el(8, 'input', { name: 'CARD', value: '4111 1111' }), el(9, 'p', {}, [text(10, 'Visible text')])]),
      el(11, 'div', { class: 'tapedeck-block' }, [text(12, 'Always blocked')]),
    ]);
    const t = T0;
    const events: TestEvent[] = [
      { type: 4, data: { href: `${SITE}/cart`, width: 1280, height: 720 }, timestamp: t },
      { type: 2, data: { node: { type: 0, id: 1, childNodes: [page] }, initialOffset: { top: 0, left: 0 } }, timestamp: t + 1 },
      {
        type: 3,
        data: {
          source: 0,
          texts: [
            { id: 4, value: 'Balance 9999' },
            { id: 10, value: 'Visible change' },
          ],
          attributes: [{ id: 5, attributes: { title: 'Attribute secret' } }],
          removes: [],
          // Children listed before their parents, as rrweb may: a new blocked element, and text added under an old one.
          adds: [
            { parentId: 20, nextId: null, node: text(21, 'Added inside new secret') },
            { parentId: 2, nextId: null, node: el(20, 'section', { class: 'secret' }) },
            { parentId: 5, nextId: null, node: text(22, 'Added under old secret') },
            { parentId: 2, nextId: null, node: text(23, 'Added visible') },
          ],
        },
        timestamp: t + 2,
      },
    ];
    expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events })).status).toBe(200);
    const session = await stored(campaignId, id);
    for (const hidden of [
      'Balance',
      'Nested secret',
      'Title secret',
      '4111',
      'Always blocked',
      'Attribute secret',
      'Added inside new secret',
      'Added under old secret',
    ])
      expect(session?.text).not.toContain(hidden);
    for (const shown of ['Visible text', 'Visible change', 'Added visible', 'box secret', '10px']) expect(session?.text).toContain(shown);
  });

  describe('across batches', () => {
    const snapshot = (t: number, body: unknown): TestEvent[] => [
      { type: 4, data: { href: `${SITE}/cart`, width: 1280, height: 720 }, timestamp: t },
      { type: 2, data: { node: { type: 0, id: 1, childNodes: [body] }, initialOffset: { top: 0, left: 0 } }, timestamp: t + 1 },
    ];
    const mutation = (t: number, data: { texts?: unknown[]; attributes?: unknown[]; adds?: unknown[] }): TestEvent[] => [
      { type: 3, data: { source: 0, texts: [], attributes: [], removes: [], adds: [], ...data }, timestamp: t },
    ];
    const carriedRuns = (row: { facts_carry: string | null } | undefined) =>
      (JSON.parse(row?.facts_carry ?? '{}') as { blockedRuns?: unknown[] }).blockedRuns ?? [];

    it('cuts a later batch’s text changes and added nodes under an element blocked in an earlier batch, until a new page view', async () => {
      const campaignId = await makeCampaign(server, { ownerId: owner.userId, columns: { block_selector: '.secret' } });
      const id = sessionId();
      const post = (seq: number, events: TestEvent[]) => postBatch(server, campaignId, { sessionId: id, seq, info: seq === 0 ? info() : null, events });
      const body = el(2, 'body', {}, [el(3, 'div', { class: 'secret' }, [text(4, 'Balance 1234')]), el(5, 'p', {}, [text(6, 'Visible text')])]);
      expect((await post(0, snapshot(T0, body))).status).toBe(200);
      const later = mutation(T0 + 100, {
        texts: [
          { id: 4, value: 'Later balance 9999' },
          { id: 6, value: 'Visible change' },
        ],
        attributes: [{ id: 3, attributes: { title: 'Attribute secret' } }],
        adds: [
          { parentId: 3, nextId: null, node: el(30, 'span', {}, [text(31, 'Added under old secret')]) },
          { parentId: 2, nextId: null, node: text(32, 'Added visible') },
        ],
      });
      expect((await post(1, later)).status).toBe(200);
      // A node added under the blocked element in batch 2 is carried too.
      expect((await post(2, mutation(T0 + 200, { texts: [{ id: 31, value: 'Third batch secret' }] }))).status).toBe(200);
      let session = await stored(campaignId, id);
      for (const hidden of ['Balance', 'Attribute secret', 'Added under old secret', 'Third batch secret']) expect(session?.text).not.toContain(hidden);
      for (const shown of ['Visible text', 'Visible change', 'Added visible']) expect(session?.text).toContain(shown);
      // A new page view numbers its nodes afresh: what was blocked before no longer is.
      const next = el(2, 'body', {}, [el(3, 'div', {}, [text(4, 'Open text')])]);
      expect((await post(3, [...snapshot(T0 + 300, next), ...mutation(T0 + 400, { texts: [{ id: 4, value: 'Open change' }] })])).status).toBe(200);
      expect((await post(4, mutation(T0 + 500, { texts: [{ id: 4, value: 'Open later' }] }))).status).toBe(200);
      session = await stored(campaignId, id);
      for (const shown of ['Open text', 'Open change', 'Open later']) expect(session?.text).toContain(shown);
      expect(carriedRuns(session?.row)).toEqual([]);
    });

    it(`carries at most ${MAX_ID_RUNS} runs of blocked ids, the newest kept`, async () => {
      const campaignId = await makeCampaign(server, { ownerId: owner.userId, columns: { block_selector: '.secret' } });
      const id = sessionId();
      // 600 blocked elements, each between visible ones: 600 runs of ids.
      const count = MAX_ID_RUNS + 100;
      const children = Array.from({ length: count }, (_, i) => [
        el(10 + 4 * i, 'b', { class: 'secret' }, [text(11 + 4 * i, `Secret ${i}`)]),
        el(12 + 4 * i, 'i', {}, [text(13 + 4 * i, `Shown ${i}`)]),
      ]).flat();
      expect((await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: snapshot(T0, el(2, 'body', {}, children)) })).status).toBe(
        200,
      );
      const last = count - 1;
      const change = mutation(T0 + 100, {
        texts: [
          { id: 11 + 4 * last, value: 'Newest secret changed' },
          { id: 13 + 4 * last, value: 'Newest shown changed' },
        ],
      });
      expect((await postBatch(server, campaignId, { sessionId: id, seq: 1, events: change })).status).toBe(200);
      const session = await stored(campaignId, id);
      expect(carriedRuns(session?.row)).toHaveLength(MAX_ID_RUNS);
      expect(session?.row.facts_carry?.length).toBeLessThan(20_000);
      expect(session?.text).not.toContain('Newest secret changed');
      expect(session?.text).toContain('Newest shown changed');
    });
  });
});
