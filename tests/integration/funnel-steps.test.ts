import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { info, makeCampaign, postBatch, sessionId } from './ingest-support.js';
import { VisitLog } from '../../server/funnels/visits.js';
import type { Moment } from '../../common/session-facts.js';
import { insertSession } from '../../server/recordings/seed.js';
import { sweepExpiredRecordings } from '../../server/campaigns/retention.js';
import { MAX_CLICK_VISITS, MAX_EVENT_VISITS } from '../../common/funnels.js';
import type { Campaign } from '../../common/api-types.js';
import type { Funnel, FunnelResult } from '../../common/api/funnels.js';
import type { SessionsResponse } from '../../common/api/sessions.js';

// Funnels with click and event steps over HTTP, on the database the run uses (TEST_DATABASE_URL
// for PostgreSQL): batches ingested as the tracker sends them (its click records and
// tapedeck.event), the funnel home → click "#add" → event "checkout" counted and listed.

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let campaign: Campaign;
let funnel: Funnel;

type Event = { type: number; data: object; timestamp: number };
const meta = (t: number, path: string): Event => ({ type: 4, data: { href: `https://shop.example.com${path}`, width: 1280, height: 800 }, timestamp: t });
const full = (t: number): Event => ({ type: 2, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } }, timestamp: t });
const click = (t: number, s: string, text: string, p = '/'): Event[] => [
  { type: 3, data: { source: 2, type: 2, id: 5, x: 20, y: 40 }, timestamp: t },
  { type: 5, data: { tag: 'tapedeck/click', payload: { p, s, t: text, fx: 0.5, fy: 0.5, x: 20, y: 40, w: 1280, h: 1600 } }, timestamp: t },
];
const event = (t: number, name: string): Event => ({ type: 5, data: { tag: 'tapedeck/event', payload: { name } }, timestamp: t });
const load = (t: number, path: string) => [meta(t, path), full(t + 1)];

const start = Date.now() - 10 * 60_000;
/** Each visitor's batches (events a batch), ms after `start`. */
const VISITORS: Record<string, Event[][]> = {
  converted: [[...load(start, '/'), ...click(start + 1000, '#add', 'Add to cart')], [event(start + 5000, 'checkout')]],
  // Adds, by the button's selector path, and never checks out.
  added: [[...load(start, '/'), ...click(start + 2000, '#add', 'Add')]],
  // A button by the same text but another selector path: a click step by the text takes it, one by the selector not.
  byText: [[...load(start, '/'), ...click(start + 2000, 'main>button:nth-of-type(2)', 'Add to cart')]],
  // Clicks something else.
  otherClick: [[...load(start, '/'), ...click(start + 1000, '#help', 'Help'), event(start + 3000, 'checkout')]],
  // Clicked Add on another page before coming home: the click is before step 1.
  outOfOrder: [[...load(start, '/about'), ...click(start + 500, '#add', 'Add to cart', '/about'), ...load(start + 1000, '/')]],
  never: [[...load(start, '/about'), event(start + 500, 'checkout')]],
};
const ids: Record<string, string> = Object.fromEntries(Object.keys(VISITORS).map((name) => [name, sessionId()]));

const json = (method: string, body: unknown) => ({ method, headers: { ...owner.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const api = (path: string, init?: RequestInit) => fetch(`${server.url}/api/v1${path}`, init ?? { headers: owner.headers });
async function listed(query: string, funnelId = funnel.id): Promise<string[]> {
  const response = await api(`/streaming/sessions/${campaign.id}/?funnel=${funnelId}${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as SessionsResponse).sessions.map((s) => s.sessionId).sort();
}
const named = (...names: string[]) => names.map((name) => ids[name]).sort();
const visitRows = async (session?: string) =>
  (await server.db.selectFrom('session_visits').select(['session_id', 'kind']).where('campaign_id', '=', campaign.id).execute()).filter(
    (row) => !session || row.session_id === session,
  );

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Step Owner');
  const body = { name: 'Shop', domains: 'shop.example.com', limit: 0, start_date_time: start - 86_400_000 * 10, end_date_time: start + 1e10 };
  campaign = ((await (await api('/campaign/create', json('POST', body))).json()) as { data: Campaign }).data;
  for (const [name, batches] of Object.entries(VISITORS)) {
    for (const [seq, events] of batches.entries()) {
      const batch = { sessionId: ids[name], seq, events, ...(seq === 0 ? { info: info({ url: `https://shop.example.com/` }) } : {}) };
      expect((await postBatch(server, campaign.id, batch)).status).toBe(200);
    }
  }
  const steps = [{ page: '/' }, { click: '#add' }, { event: 'checkout' }];
  const created = await api(`/funnels/${campaign.id}`, json('POST', { name: 'Add and check out', steps, withinMs: 3_600_000 }));
  expect(created.status).toBe(201);
  funnel = (await created.json()) as Funnel;
});
afterAll(async () => server?.close());

describe('funnels with click and event steps', () => {
  it('keeps the steps as given', () => {
    expect(funnel.steps).toEqual([{ page: '/' }, { click: '#add' }, { event: 'checkout' }]);
  });

  it('counts home → click #add (its selector or its text) → checkout', async () => {
    const result = (await (await api(`/funnels/${campaign.id}/${funnel.id}/result`)).json()) as FunnelResult;
    expect(result.steps.map(({ sessions, conversion, droppedOff }) => ({ sessions, conversion, droppedOff }))).toEqual([
      { sessions: 5, conversion: 1, droppedOff: 0 },
      { sessions: 2, conversion: 0.4, droppedOff: 3 },
      { sessions: 1, conversion: 0.2, droppedOff: 1 },
    ]);
    expect(result.steps[2].medianMsFromPrevious).toBeGreaterThan(0);
  });

  it('lists exactly the sessions of a step, of a drop-off and of the conversion', async () => {
    expect(await listed('')).toEqual(named('converted', 'added', 'byText', 'otherClick', 'outOfOrder'));
    expect(await listed('&step=2')).toEqual(named('converted', 'added'));
    expect(await listed('&step=3')).toEqual(named('converted'));
    expect(await listed('&step=2&outcome=dropped')).toEqual(named('added'));
    expect(await listed('&step=1&outcome=dropped')).toEqual(named('byText', 'otherClick', 'outOfOrder'));
    expect(await listed('&outcome=dropped')).toEqual(named('added', 'byText', 'otherClick', 'outOfOrder'));
    expect(await listed('&outcome=converted')).toEqual(named('converted'));
  });

  it('takes a click step by the text when no selector is it', async () => {
    const byText = await api(`/funnels/${campaign.id}`, json('POST', { name: 'By text', steps: [{ page: '/' }, { click: ' Add to cart ' }] }));
    const made = (await byText.json()) as Funnel;
    expect(made.steps).toEqual([{ page: '/' }, { click: 'Add to cart' }]);
    const result = (await (await api(`/funnels/${campaign.id}/${made.id}/result`)).json()) as FunnelResult;
    expect(result.steps.map((s) => s.sessions)).toEqual([5, 2]);
    expect(await listed('&step=2', made.id)).toEqual(named('converted', 'byText'));
  });

  it("keeps a session's first clicks and events only, batch after batch", async () => {
    const id = sessionId();
    const clicks = Array.from({ length: MAX_CLICK_VISITS + 20 }, (_, i) => click(start + 10 + i, `#b${i}`, '')[1]);
    const events = Array.from({ length: MAX_EVENT_VISITS + 20 }, (_, i) => event(start + 10 + i, `e${i}`));
    const half = (list: Event[], first: boolean) => (first ? list.slice(0, list.length / 2) : list.slice(list.length / 2));
    for (const seq of [0, 1]) {
      const batchEvents = [...(seq ? [] : load(start, '/')), ...half(clicks, !seq), ...half(events, !seq)];
      expect((await postBatch(server, campaign.id, { sessionId: id, seq, events: batchEvents, ...(seq ? {} : { info: info() }) })).status).toBe(200);
      await api(`/funnels/${campaign.id}/${funnel.id}/result`); // writes what the visit log holds
    }
    const rows = await visitRows(id);
    expect([rows.filter((r) => r.kind === 'click').length, rows.filter((r) => r.kind === 'event').length]).toEqual([MAX_CLICK_VISITS, MAX_EVENT_VISITS]);
    const kept = await server.db.selectFrom('session_visits').select('value').where('session_id', '=', id).where('kind', '=', 'click').execute();
    expect(kept.map((r) => r.value)).toContain(`#b${MAX_CLICK_VISITS - 1}`);
    expect(kept.map((r) => r.value)).not.toContain(`#b${MAX_CLICK_VISITS}`);
  });

  it('writes the visits of hundreds of sessions at once, each within its caps, none for a session that is gone', async () => {
    const campaignId = await makeCampaign(server);
    const ids = Array.from({ length: 620 }, () => sessionId());
    const [nearCap, gone, ...rest] = ids;
    for (const id of [nearCap, ...rest]) await insertSession(server.db, { campaign_id: campaignId, id, started_at: start });
    // One session keeps all its events but one already.
    const earlier = Array.from({ length: MAX_EVENT_VISITS - 1 }, (_, i) => ({
      campaign_id: campaignId,
      session_id: nearCap,
      seq: i,
      kind: 'event' as const,
      value: `e${i}`,
      text: '',
      at: start + i,
    }));
    await server.db.insertInto('session_visits').values(earlier).execute();
    const log = new VisitLog(server.db, server.app.log);
    const page = (t: number): Moment => ({ kind: 'page', t, path: '/' });
    const stored = { stored: true, admitted: false };
    for (const id of ids) log.stored({ campaignId, sessionId: id, seq: 1, moments: [page(start + 1000)], heat: [], outcome: stored });
    log.stored({
      campaignId,
      sessionId: nearCap,
      outcome: stored,
      seq: 2,
      moments: [1, 2, 3].map((i): Moment => ({ kind: 'event', t: start + 2000 + i, name: `late${i}` })),
      heat: [],
    });
    await log.flush();
    const rows = await server.db.selectFrom('session_visits').select(['session_id', 'kind', 'value']).where('campaign_id', '=', campaignId).execute();
    const pages = new Set(rows.filter((r) => r.kind === 'page').map((r) => r.session_id));
    expect(pages.size).toBe(ids.length - 1);
    expect(pages.has(gone)).toBe(false);
    const nearCapEvents = rows.filter((r) => r.session_id === nearCap && r.kind === 'event').map((r) => r.value);
    expect(nearCapEvents).toHaveLength(MAX_EVENT_VISITS);
    expect(nearCapEvents).toContain('late1');
    expect(nearCapEvents).not.toContain('late2');
  });

  it("drops a settled day's kept tally when one of its sessions gets visits", async () => {
    const day = Math.floor((Date.now() - 5 * 86_400_000) / 86_400_000) * 86_400_000;
    const old = sessionId();
    await insertSession(server.db, { campaign_id: campaign.id, id: old, started_at: day + 3_600_000, last_activity_at: day + 3_660_000 });
    const range = `from=${day}&to=${day + 86_400_000}`;
    const read = async () => ((await (await api(`/funnels/${campaign.id}/${funnel.id}/result?${range}`)).json()) as FunnelResult).steps.map((s) => s.sessions);
    expect(await read()).toEqual([0, 0, 0]);
    expect(await server.db.selectFrom('funnel_days').select('day').where('funnel_id', '=', funnel.id).where('day', '=', day).execute()).toHaveLength(1);
    const t = day + 3_600_000;
    server.app.ctx.afterStored.stored({
      campaignId: campaign.id,
      sessionId: old,
      outcome: { stored: true, admitted: false },
      seq: 0,
      moments: [
        { kind: 'page', t, path: '/' },
        { kind: 'event', t: t + 2, name: 'checkout' },
      ],
      heat: [{ kind: 'click', t: t + 1, p: '/', s: '#add', text: '', fx: 0, fy: 0, x: 0, y: 0, w: 1, h: 1 }],
    });
    expect(await read()).toEqual([1, 1, 1]);
  });

  it('filters a heatmap by a funnel as the list does: with the visits of a batch just stored', async () => {
    const converted = async () =>
      ((await (await api(`/heatmaps/${campaign.id}?path=/&device=desktop&funnel=${funnel.id}&outcome=converted`)).json()) as { sessions: number }).sessions;
    const before = await converted();
    const id = sessionId();
    const [first, second] = VISITORS.converted;
    expect((await postBatch(server, campaign.id, { sessionId: id, seq: 0, events: first, info: info() })).status).toBe(200);
    expect((await postBatch(server, campaign.id, { sessionId: id, seq: 1, events: second })).status).toBe(200);
    // At once, before the visit log's own write a second later.
    expect(await converted()).toBe(before + 1);
    expect(await listed('&outcome=converted')).toContain(id);
  });

  it("removes the visits with their session: deleted by the owner, by retention, by a person's erasure, or with the campaign", async () => {
    expect((await visitRows(ids.converted)).length).toBe(3);
    expect((await api(`/streaming/sessions/${campaign.id}/${ids.converted}`, { method: 'DELETE', headers: owner.headers })).status).toBe(200);
    expect(await visitRows(ids.converted)).toEqual([]);
    expect(await listed('&outcome=converted')).not.toContain(ids.converted);
    expect((await visitRows(ids.byText)).length).toBe(2);
    await server.db.updateTable('campaigns').set({ retention_days: 1 }).where('id', '=', campaign.id).execute();
    await server.db
      .updateTable('sessions')
      .set({ started_at: start - 3 * 86_400_000 })
      .where('id', '=', ids.byText)
      .execute();
    expect(await sweepExpiredRecordings(server.db)).toBeGreaterThan(0);
    expect(await visitRows(ids.byText)).toEqual([]);
    expect((await visitRows()).length).toBeGreaterThan(0);
    await server.db.updateTable('sessions').set({ user_id: 'ada@example.com' }).where('id', '=', ids.otherClick).execute();
    expect((await visitRows(ids.otherClick)).length).toBe(3);
    const erased = await api(`/people/${campaign.id}/${encodeURIComponent('ada@example.com')}`, { method: 'DELETE', headers: owner.headers });
    expect(((await erased.json()) as { erased: number }).erased).toBe(1);
    expect(await visitRows(ids.otherClick)).toEqual([]);
    expect((await api(`/campaign/delete/${campaign.id}`, { method: 'DELETE', headers: owner.headers })).status).toBe(200);
    expect(await visitRows()).toEqual([]);
  });
});
