// The heatmap aggregates as days of clicks leave them (per day: the page's row, its elements up to
// the cap of 200, up to 3,000 position bins, 11 scroll depths), for the heatmap figures.
import type { Db } from '../../server/db/index.js';

const ELEMENTS = 200;
const BINS = 3_000;

/** One page at one device class: `clicks` spread over the days, its elements and its bins (a few hot, a long tail). */
export async function seedHeatmapPage(
  db: Db,
  { campaignId, page, device, clicks }: { campaignId: string; page: string; device: string; clicks: number },
  { firstDay, days, snapshot }: { firstDay: number; days: number; snapshot: { sessionId: string; at: number } },
): Promise<void> {
  const dayClicks = (day: number) => Math.floor((clicks * (day + 1)) / days) - Math.floor((clicks * day) / days);
  const key = (day: number) => ({ campaign_id: campaignId, page, device, day: firstDay + day });
  /** `total` split over `n` parts by 1/(i+1), summing to `total` exactly. */
  const spread = (total: number, n: number) => {
    const weights = Array.from({ length: n }, (_, i) => 1 / (i + 1));
    const sum = weights.reduce((a, b) => a + b, 0);
    const parts = weights.map((w) => Math.floor((total * w) / sum));
    parts[0] += total - parts.reduce((a, b) => a + b, 0);
    return parts;
  };
  await db.transaction().execute(async (trx) => {
    for (let day = 0; day < days; day++) {
      const perDay = dayClicks(day);
      const elementClicks = spread(perDay, Math.min(ELEMENTS, perDay || 1));
      const binClicks = spread(perDay, Math.min(BINS, perDay || 1));
      const layers = (n: number) => ({ clicks: n, rage_clicks: Math.floor(n / 50), dead_clicks: Math.floor(n / 20), error_clicks: Math.floor(n / 100) });
      await trx
        .insertInto('heatmap_pages')
        .values({
          ...key(day),
          views: Math.floor(perDay / 4),
          sessions: Math.floor(perDay / 8),
          ...layers(perDay),
          rage_sessions: 1,
          dead_sessions: 1,
          error_sessions: 1,
          fold_sum: 40 * Math.floor(perDay / 4),
          snapshot_session: snapshot.sessionId,
          // The last day's is the newest: the page is rebuilt at that moment.
          snapshot_at: snapshot.at + day,
        })
        .execute();
      const elements = elementClicks.map((n, i) => ({
        ...key(day),
        selector: `main>div:nth-of-type(${i + 1})>button`,
        text: `Button ${i}`,
        ...layers(n),
        fx_sum: 500 * n,
        fy_sum: 500 * n,
      }));
      for (let i = 0; i < elements.length; i += 200)
        await trx
          .insertInto('heatmap_elements')
          .values(elements.slice(i, i + 200))
          .execute();
      const bins = binClicks.map((n, i) => ({ ...key(day), bin: (i * 7919) % 10_000, ...layers(n) }));
      for (let i = 0; i < bins.length; i += 500)
        await trx
          .insertInto('heatmap_bins')
          .values(bins.slice(i, i + 500))
          .execute();
      await trx
        .insertInto('heatmap_scroll')
        .values(Array.from({ length: 11 }, (_, i) => ({ ...key(day), depth: i * 10, reached: Math.floor(perDay / 4 / (i + 1)) })))
        .execute();
    }
  });
}
