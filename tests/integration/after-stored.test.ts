import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insights } from '../../common/api/insights.js';
import type { HeatmapPages } from '../../common/api/heatmaps.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { info, makeCampaign, postBatch, sessionId } from './ingest-support.js';
import { clicks, full, meta } from './heatmaps-support.js';

// The one seam after a stored batch (server/recordings/after-stored.ts): its projections write a
// while later (the error log a second, the heat feed five), so a read calls flushFor first and
// sees the batch stored just before it; closing the app writes what still waits, before the
// database closes.

const error = (t: number, message: string) => ({ type: 5, data: { tag: 'tapedeck/error', payload: { message, source: 'app.js:1', stack: '' } }, timestamp: t });

/** One batch with a page load, a click on #buy and an error with `message`. */
const batchBody = (id: string, t: number, message: string) => ({
  sessionId: id,
  seq: 0,
  info: info(),
  events: [meta(t, '/cart', 1280), full(t + 1), ...clicks(t + 10, '/cart', '#buy', 'Buy', 1280), error(t + 20, message)],
});

describe('reads after a stored batch', () => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof userSession>>;
  const logLines: string[] = [];

  beforeAll(async () => {
    server = await startServer({ LOG_LEVEL: 'warn' }, { build: { logStream: { write: (line) => void logLines.push(line) } } });
    owner = await userSession(server, 'Seam Owner');
  });
  afterAll(async () => server?.close());

  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${server.url}${path}`, { headers: { cookie: owner.cookie } });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };

  it('see it at once: the insights its error, the heatmaps its page, the list filtered by the error its session', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const id = sessionId();
    const t = Date.now() - 60_000;
    expect((await postBatch(server, campaignId, batchBody(id, t, 'RangeError: cart'))).status).toBe(200);

    const insights = await get<Insights>(`/api/v1/insights/${campaignId}`);
    expect(insights.errors).toEqual([{ message: 'RangeError: cart', count: 1, sessions: 1, firstSeen: t + 20, lastSeen: t + 20 }]);
    const heat = await get<HeatmapPages>(`/api/v1/heatmaps/${campaignId}/pages`);
    expect(heat.pages.map((p) => [p.path, p.sessions])).toEqual([['/cart', 1]]);
    const listed = await get<{ sessions: { sessionId: string }[] }>(
      `/api/v1/streaming/sessions/${campaignId}/?error=${encodeURIComponent('RangeError: cart')}`,
    );
    expect(listed.sessions.map((s) => s.sessionId)).toEqual([id]);
  });

  it('writes what waits when the app closes, before its database closes', async () => {
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    expect((await postBatch(server, campaignId, batchBody(sessionId(), Date.now() - 30_000, 'TypeError: last'))).status).toBe(200);
    // What the error log wrote, read as the database is about to close.
    const db = server.app.ctx.db;
    const destroy = db.destroy.bind(db);
    let written: string[] = [];
    db.destroy = async () => {
      written = (await db.selectFrom('session_errors').select('message').where('campaign_id', '=', campaignId).execute()).map((r) => r.message);
      return destroy();
    };
    await server.app.close();
    expect(written).toEqual(['TypeError: last']);
    expect(logLines.filter((line) => line.includes('write failed'))).toEqual([]);
  });
});
