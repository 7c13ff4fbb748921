// Heatmaps at ingest: batches/s against the real ingest endpoint with the tracker's heat records
// (the ingest figure's bodies: the demo recording, a click record per click), with the heatmap
// aggregation on, vs the same server and bodies with it off (the route's hand-over a no-op),
// alternating within each run; the time counted ends when the aggregation's flush has written it all. SQLite and PostgreSQL. Budget: ≥ 0.9× without it.
import type { HeatmapFeed } from '../../server/heatmaps/feed.js';
import { stats, type BenchOptions, type Row } from '../lib.js';
import { eachDatabase, withServer, type BenchServer, type DatabaseKind } from '../support/server.js';
import { createCampaign, createOwner } from '../support/seed.js';
import { LoadGenerator } from '../support/load.js';
import { CONNECTIONS, ingestOnce } from './ingest.js';

export const title = 'Heatmaps at ingest';

/** Batches/s over the load and the flush that writes what it gathered (so no aggregation work escapes the clock). */
async function batchesPerSecond(load: LoadGenerator, server: BenchServer, feed: HeatmapFeed, ownerId: string, sessions: number, tag: string): Promise<number> {
  const campaignId = await createCampaign(server.db, ownerId, 'shop.example.com', `Heat ${tag}`);
  const result = await ingestOnce(load, server.url, campaignId, sessions, tag);
  if (result.non2xx || result.errors)
    throw new Error(
      `ingest refused ${result.non2xx + result.errors} batches (answers ${JSON.stringify(result.statuses)}, ${result.errors} errors, ${result.timeouts} timeouts)`,
    );
  const flushStart = performance.now();
  await feed.flush();
  return result.acked / (result.seconds + (performance.now() - flushStart) / 1000);
}

async function figureFor(kind: DatabaseKind, options: BenchOptions): Promise<Row[]> {
  const sessions = options.quick ? 40 : 400;
  return withServer({ database: kind }, async (server) => {
    const owner = await createOwner(server);
    const load = new LoadGenerator();
    const feed = server.app.ctx.afterStored.get('heat') as HeatmapFeed;
    const aggregating = feed.stored.bind(feed);
    const withIt: number[] = [];
    const without: number[] = [];
    try {
      // Warmed up both ways, with as many sessions as the runs (with few, a session's second batch
      // can overtake its first, still in a pack worker, and be refused): the first run after a
      // single warm-up was ~20% slower, and it was always one with aggregation. --quick, a smoke
      // pass whose figure is not judged, measures without.
      for (const on of options.quick ? [] : [true, false]) {
        feed.stored = on ? aggregating : () => undefined;
        await batchesPerSecond(load, server, feed, owner.userId, sessions, `warmup-${on ? 'on' : 'off'}`);
      }
      for (let run = 0; run < options.runs; run++) {
        // Alternating which goes first, so a slow moment of the machine falls on both.
        for (const on of run % 2 ? [false, true] : [true, false]) {
          feed.stored = on ? aggregating : () => undefined;
          (on ? withIt : without).push(await batchesPerSecond(load, server, feed, owner.userId, sessions, `${on ? 'on' : 'off'}${run}`));
        }
      }
    } finally {
      feed.stored = aggregating;
      load.close();
    }
    return [
      {
        group: title,
        name: `batches/s with aggregation (${kind}, ${sessions} sessions, ${CONNECTIONS} connections)`,
        unit: '1/s',
        ours: stats(withIt),
        baseline: { name: 'same server and bodies, aggregation off', stats: stats(without) },
      },
    ];
  });
}

export async function run(options: BenchOptions): Promise<Row[]> {
  return eachDatabase((kind) => figureFor(kind, options));
}
