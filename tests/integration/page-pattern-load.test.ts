import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { info, postBatch, sessionId } from './ingest-support.js';
import { clicks, full, meta } from './heatmaps-support.js';
import { MAX_PAGE_PATH, MAX_PATTERN_CHARS, MAX_PATTERN_STARS, patternFlaw } from '../../common/page-pattern.js';
import { MAX_PATTERNS } from '../../common/heatmaps.js';
import { MAX_HEAT_RECORDS } from '../../server/heatmaps/records.js';
import type { Campaign } from '../../common/api-types.js';
import type { Funnel } from '../../common/api/funnels.js';
import { insertSession } from '../../server/recordings/seed.js';

// ISSUE-34's High: an owner's pattern that a backtracking matcher takes for ever, against page
// paths a visitor chooses, froze the node for every tenant. Here the worst patterns each place
// accepts, against the longest paths ingest keeps, while another owner's calls must still be
// answered at once.

/** The old matcher's undoing (it never returned on a 300-character path), and the longest run of stars and letters the caps allow. */
const WORST = [`/${'*a'.repeat(MAX_PATTERN_STARS - 1)}*b`, `/${Array.from({ length: MAX_PATTERN_STARS }, () => `*${'a'.repeat(18)}`).join('')}b`];
const FORTY_STARS = `/${'*a'.repeat(40)}*b`;
/** As many heatmap patterns as a campaign keeps, each the costliest to look for in a path of "a"s (a long run with one "b" inside). */
const WORST_HEATMAP = Array.from({ length: MAX_PATTERNS }, (_, k) => `/*${'a'.repeat(49 + k)}b${'a'.repeat(98)}*`);
/** Paths a visitor sends: as long as a click record takes, and a page address far longer (ingest keeps its first MAX_PAGE_PATH characters). */
const FLOOD_BATCHES = 2;
const pathOf = (i: number, length = MAX_PAGE_PATH) => `/${String(i)}${'a'.repeat(length - 1 - String(i).length)}`;

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let other: Awaited<ReturnType<typeof userSession>>;

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Pattern Owner');
  other = await userSession(server, 'Other Owner');
});
afterAll(async () => server?.close());

const json = (method: string, body: unknown) => ({
  method,
  headers: { ...owner.headers, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const call = (path: string, init: RequestInit = { headers: owner.headers }) => fetch(`${server.url}${path}`, init);

/**
 * Another owner asking who they are, again and again, until stopped: the slowest answer, and the
 * calls not answered 200 (a frozen node answers nothing: each call gives up after five seconds).
 */
function poll() {
  let stopped = false;
  let slowest = 0;
  let answers = 0;
  let unanswered = 0;
  const running = (async () => {
    while (!stopped) {
      const started = performance.now();
      const status = await fetch(`${server.url}/api/v1/auth/me`, { headers: other.headers, signal: AbortSignal.timeout(5000) }).then(
        (response) => response.status,
        () => 0,
      );
      if (status !== 200) unanswered++;
      slowest = Math.max(slowest, performance.now() - started);
      answers++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await running;
      return { slowest, answers, unanswered };
    },
  };
}

describe('the worst page patterns, against the longest paths', () => {
  it('every place refuses a 40-star pattern with its reason, and takes the worst within the caps', () => {
    expect(patternFlaw(FORTY_STARS)).toBe(`A page pattern has at most ${MAX_PATTERN_STARS} stars (*)`);
    for (const pattern of [...WORST, ...WORST_HEATMAP]) expect(pattern.length <= MAX_PATTERN_CHARS && patternFlaw(pattern) === null, pattern).toBe(true);
  });

  it('leave every other owner answered within a second: recording rules at ingest, heatmap pages at a flush, funnel steps', async () => {
    const stars = `A page pattern has at most ${MAX_PATTERN_STARS} stars (*): ${FORTY_STARS}`;
    const campaignBody = { name: 'Worst', domains: 'shop.example.com', limit: 0, start_date_time: 1, end_date_time: 2e12 };
    const refused = await call('/api/v1/campaign/create', json('POST', { ...campaignBody, url_exclude: [FORTY_STARS] }));
    expect([refused.status, await refused.json()]).toEqual([400, { error: `url_exclude: ${stars}` }]);
    const created = await call('/api/v1/campaign/create', json('POST', { ...campaignBody, url_include: ['/*', ...WORST], url_exclude: WORST }));
    expect(created.status).toBe(201);
    const campaign = ((await created.json()) as { data: Campaign }).data;

    const patterns = (list: string[]) => call(`/api/v1/heatmaps/${campaign.id}/patterns`, json('PUT', { patterns: list }));
    const refusedPatterns = await patterns([FORTY_STARS]);
    expect([refusedPatterns.status, await refusedPatterns.json()]).toEqual([400, { error: stars }]);
    expect((await patterns([...WORST, ...WORST_HEATMAP.slice(WORST.length)])).status).toBe(200);

    const funnel = (steps: string[]) => call(`/api/v1/funnels/${campaign.id}`, json('POST', { name: 'Worst', steps: steps.map((page) => ({ page })) }));
    const refusedFunnel = await funnel([FORTY_STARS]);
    expect([refusedFunnel.status, await refusedFunnel.json()]).toEqual([400, { error: stars }]);
    const saved = await funnel(['/*', ...WORST, '/1*']);
    expect(saved.status).toBe(201);
    const { id: funnelId } = (await saved.json()) as Funnel;

    const poller = poll();
    // A new session's first batch, entering on the batch's own page.
    const firstBatch = (batch: number, events: object[]) =>
      postBatch(server, campaign.id, { sessionId: sessionId(), seq: 0, info: info({ url: `https://shop.example.com${pathOf(batch)}` }), events });
    const start = Date.now() - 60_000;
    for (let batch = 0; batch < 20; batch++) {
      // Each page loaded by a long address, then clicked on its longest kept path.
      const events = [];
      for (let page = 0; page < 10; page++) {
        const t = start + page * 1000;
        events.push(meta(t, pathOf(batch * 10 + page, page % 2 ? 100_000 : MAX_PAGE_PATH), 1280), full(t + 1));
        for (let click = 0; click < 5; click++) events.push(...clicks(t + 10 + click * 150, pathOf(batch * 10 + page), `#e${click}`, 'Go', 1280));
      }
      expect((await firstBatch(batch, events)).status).toBe(200);
    }
    // Reading a heatmap flushes the heat gathered (each click's page judged by the patterns).
    expect((await call(`/api/v1/heatmaps/${campaign.id}/pages`)).status).toBe(200);
    // Then a flood: sessions with as many click records as a batch takes, each on another page (the
    // same pages in each session), every path judged by every pattern at the next flush.
    for (let batch = 0; batch < FLOOD_BATCHES; batch++) {
      const t = start + batch;
      const events: { type: number; data: object; timestamp: number }[] = [meta(t, pathOf(batch), 1280), full(t + 1)];
      for (let click = 0; click < MAX_HEAT_RECORDS; click++) events.push(...clicks(t + 10, pathOf(1000 + click), '#e', 'Go', 1280));
      expect((await firstBatch(batch, events)).status).toBe(200);
    }
    await server.app.ctx.afterStored.flushFor(campaign.id, 'heat');
    const result = await call(`/api/v1/funnels/${campaign.id}/${funnelId}/result?from=${start - 86_400_000}&to=${Date.now() + 60_000}`);
    expect(result.status).toBe(200);
    const { slowest, answers, unanswered } = await poller.stop();

    expect(answers).toBeGreaterThan(0);
    expect(unanswered).toBe(0);
    expect(slowest).toBeLessThan(1000);
    // What was recorded is what the patterns say: every page (none is excluded), its heat under its own path.
    const pages = await server.db.selectFrom('session_pages').select('path').where('campaign_id', '=', campaign.id).execute();
    expect(pages.length).toBe(200 + FLOOD_BATCHES);
    expect(pages.every((p) => p.path.length === MAX_PAGE_PATH)).toBe(true);
    const heat = await server.db.selectFrom('heatmap_pages').select(['page', 'clicks']).where('campaign_id', '=', campaign.id).execute();
    expect(heat.length).toBe(200 + MAX_HEAT_RECORDS);
    expect(heat.every((row) => row.page.length === MAX_PAGE_PATH && Number(row.clicks) >= 1)).toBe(true);
    const steps = ((await result.json()) as { steps: { sessions: number }[] }).steps.map((s) => s.sessions);
    expect(steps).toEqual([20 + FLOOD_BATCHES, 0, 0, 0]);
  });

  it('leave every other owner answered within a second while a funnel of star steps counts sessions of long pages', async () => {
    const body = { name: 'Funnel', domains: 'shop.example.com', limit: 0, start_date_time: 1, end_date_time: 2e12 };
    const campaign = ((await (await call('/api/v1/campaign/create', json('POST', body))).json()) as { data: Campaign }).data;
    // Sessions of as many pages as a funnel sees, each path as long as ingest keeps: every page is
    // step 1, none is step 2, so each session's pages are all judged by every step.
    const start = Date.now() - 3_600_000;
    const pages = Array.from({ length: 50 }, (_, i) => pathOf(i)).join('\n');
    for (let i = 0; i < 200; i++) await insertSession(server.db, { campaign_id: campaign.id, id: sessionId(), started_at: start + i, pages });
    const saved = await call(
      `/api/v1/funnels/${campaign.id}`,
      json('POST', { name: 'Stars', steps: ['/*', ...WORST, ...WORST_HEATMAP.slice(0, 7)].map((page) => ({ page })) }),
    );
    expect(saved.status).toBe(201);
    const { id } = (await saved.json()) as Funnel;

    const poller = poll();
    const result = await call(`/api/v1/funnels/${campaign.id}/${id}/result?from=${start - 60_000}&to=${Date.now()}`);
    const { slowest, unanswered } = await poller.stop();
    expect(result.status).toBe(200);
    expect(((await result.json()) as { steps: { sessions: number }[] }).steps.map((s) => s.sessions).slice(0, 2)).toEqual([200, 0]);
    expect(unanswered).toBe(0);
    expect(slowest).toBeLessThan(1000);
  });
});
