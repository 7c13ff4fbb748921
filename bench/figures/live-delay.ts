// Live delay: a visitor in Chromium clicks and types on a site recorded by the real tracker; the
// owner follows the session live (the replay's SSE stream, read by a client in Node). Two server
// processes on PostgreSQL behind a round-robin proxy: batches land on either node, the stream is
// served by one, so half the events cross nodes through LISTEN/NOTIFY. The delay of an action is
// the time from its rrweb timestamp (the page's clock, the same machine) to its arrival in the stream.
import path from 'node:path';
import type { BenchOptions, Row } from '../lib.js';
import { postgresUrl } from '../support/server.js';
import { percentile } from '../support/http.js';
import { newContext, withBrowser } from '../support/browser.js';
import { serveSite } from '../support/static-site.js';
import { startCluster } from '../../tests/helpers/cluster.js';
import { signIn } from '../../tests/helpers/signin.js';
import { openSse, type SseClient } from '../../tests/helpers/sse.js';

export const title = 'Live delay, visitor action → owner’s player (two nodes, PostgreSQL)';

const DAY = 24 * 60 * 60 * 1000;
const BUDGET_P95_MS = 2000;

interface RrwebEvent {
  type: number;
  data: { source?: number; type?: number };
  timestamp: number;
}

/** A click (mouse interaction 2) or an input (source 5): what the visitor did. */
const isAction = (e: RrwebEvent) => e.type === 3 && ((e.data.source === 2 && e.data.type === 2) || e.data.source === 5);

/** The visitor's page: its tracker's address comes after the # (the campaign is made once the site has its port). */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body>
<h1>Shop</h1><button id="buy">Buy</button><input id="name" placeholder="Name"><p id="out"></p>
<script>document.getElementById('buy').onclick = function () { document.getElementById('out').textContent = 'Bought ' + Date.now(); };</script>
<script>var s = document.createElement('script'); s.async = true; s.src = location.hash.slice(1); document.head.appendChild(s);</script></body></html>`;

export async function run(options: BenchOptions): Promise<Row[]> {
  const actions = options.quick ? 8 : 30;
  // --quick runs the compiled server (the same code as `npm start`): two tsx starts cost a busy machine tens of seconds.
  const cluster = await startCluster(
    postgresUrl,
    {},
    2,
    options.quick ? [path.resolve(import.meta.dirname, '..', '..', 'dist', 'server', 'main.js')] : undefined,
  );
  const site = await serveSite(PAGE);
  try {
    const owner = await signIn({ url: cluster.url, config: { publicUrl: cluster.url } }, { name: 'Bench Live', email: 'bench@live.test' });
    const port = new URL(site.url).port;
    const created = await fetch(`${cluster.url}/api/v1/campaign/create`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Live delay', domains: `127.0.0.1:${port}`, limit: 0, start_date_time: Date.now() - DAY, end_date_time: Date.now() + DAY }),
    });
    const campaignId = ((await created.json()) as { data: { id: string } }).data.id;

    const list = await openSse(`${cluster.url}/api/v1/streaming/sessions/${campaignId}/live`, owner.headers);
    const samples = await withBrowser(async (browser) => {
      const context = await newContext(browser);
      const visitor = await context.newPage();
      await visitor.goto(`${site.url}#${cluster.url}/t/${campaignId}.js`);
      // The first batch (the full snapshot) makes the session: the owner opens its live replay.
      const first = await list.next((m) => m.event === 'session', 30_000);
      const sessionId = (JSON.parse(first.data) as { sessionId: string }).sessionId;
      const stream = await openSse(`${cluster.url}/api/v1/replay/live/${campaignId}/${sessionId}`, owner.headers);
      try {
        return await measure(visitor, stream, actions);
      } finally {
        stream.close();
      }
    });
    list.close();
    const p50 = percentile(samples, 50);
    const p95 = percentile(samples, 95);
    const spread = { min: Math.min(...samples), max: Math.max(...samples), runs: samples.length };
    const group = 'Live delay';
    const note = 'visitor click/type in Chromium → event in the owner’s SSE stream, through a round-robin proxy to two nodes (PostgreSQL LISTEN/NOTIFY)';
    return [
      { group, name: 'visitor action → owner, p50', unit: 'ms', ours: { median: p50, ...spread }, note },
      { group, name: 'visitor action → owner, p95', unit: 'ms', ours: { median: p95, ...spread }, budget: BUDGET_P95_MS, note },
    ];
  } finally {
    await site.close();
    await cluster.close();
  }
}

/** Clicks or types at irregular intervals; each action's delay is read from the stream. */
async function measure(visitor: import('playwright-core').Page, stream: SseClient, actions: number): Promise<number[]> {
  const delays: number[] = [];
  let read = 0;
  const collect = () => {
    for (; read < stream.messages.length; read++) {
      const message = stream.messages[read];
      if (message.event !== 'events') continue;
      for (const event of JSON.parse(message.data) as RrwebEvent[])
        if (isAction(event) && event.timestamp >= startedAt) delays.push(message.at - event.timestamp);
    }
  };
  // Warm-up: the tracker learns a viewer is present from its next ingest reply (up to 5 s away,
  // its usual pace); the figure measures the live pace that follows.
  await visitor.click('#buy');
  const warm = stream.messages.length;
  await stream.waitFor(() => stream.messages.slice(warm).some((m) => m.event === 'events' && (JSON.parse(m.data) as RrwebEvent[]).some(isAction)), 15_000);
  read = stream.messages.length;
  const startedAt = Date.now();
  for (let i = 0; i < actions; i++) {
    if (i % 2) await visitor.click('#buy');
    else await visitor.type('#name', 'x');
    await new Promise((resolve) => setTimeout(resolve, 600 + Math.round(Math.random() * 900)));
    collect();
  }
  await stream.waitFor(() => (collect(), delays.length >= actions), 15_000).catch(() => undefined);
  if (delays.length < actions) throw new Error(`only ${delays.length} of ${actions} actions reached the owner’s stream`);
  return delays;
}
