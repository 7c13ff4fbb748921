// Figure 5: time to first byte and to the last byte of GET /api/v1/replay/retrieve/{c}/{s} for a
// 5,000-event and a 100,000-event session, vs reading the same stored chunks straight from the database.
import { repeat, stats as statsOf, type BenchOptions, type Row } from '../lib.js';
import { withServer, type BenchServer } from '../support/server.js';
import { createCampaign, createOwner, storeSession, type Owner } from '../support/seed.js';
import { demoEvents, sessionOfSize } from '../support/recording.js';
import { decodedBody, timedGet } from '../support/http.js';

export const title = 'Replay retrieval';

const replayUrl = (server: BenchServer, campaignId: string, sessionId: string) => `${server.url}/api/v1/replay/retrieve/${campaignId}/${sessionId}`;

/** One check outside the timings: the endpoint answers every stored event. */
async function checkComplete(server: BenchServer, owner: Owner, campaignId: string, sessionId: string, count: number): Promise<void> {
  const response = await timedGet(replayUrl(server, campaignId, sessionId), { cookie: owner.cookie });
  if (response.status !== 200) throw new Error(`replay endpoint answered ${response.status}: ${decodedBody(response).slice(0, 200)}`);
  const body = JSON.parse(decodedBody(response)) as { events?: unknown[] };
  if (body.events?.length !== count) throw new Error(`replay endpoint returned ${body.events?.length} of ${count} events`);
}

/** The baseline: the session's stored (compressed) chunks read from the database, in seq order. */
async function readStored(server: BenchServer, campaignId: string, sessionId: string): Promise<number> {
  const started = performance.now();
  const rows = await server.db
    .selectFrom('chunks')
    .select(['seq', 'data'])
    .where('campaign_id', '=', campaignId)
    .where('session_id', '=', sessionId)
    .orderBy('seq')
    .execute();
  if (rows.length === 0) throw new Error('no stored chunks');
  return performance.now() - started;
}

export async function run(options: BenchOptions): Promise<Row[]> {
  const demo = demoEvents();
  return withServer({}, async (server) => {
    const owner = await createOwner(server);
    const campaignId = await createCampaign(server.db, owner.userId, '127.0.0.1');
    const rows: Row[] = [];
    for (const count of [5_000, options.quick ? 20_000 : 100_000]) {
      const sessionId = await storeSession(server.db, campaignId, sessionOfSize(demo, count));
      await checkComplete(server, owner, campaignId, sessionId, count);
      const label = `${count.toLocaleString('en-US')}-event session`;
      const first: number[] = [];
      const last: number[] = [];
      await repeat(options.runs, async () => {
        const response = await timedGet(replayUrl(server, campaignId, sessionId), { cookie: owner.cookie });
        first.push(response.firstByteMs);
        last.push(response.lastByteMs);
        return response.lastByteMs;
      });
      const baseline = {
        name: 'same stored chunks read from the database',
        stats: await repeat(options.runs, () => readStored(server, campaignId, sessionId)),
      };
      // repeat() ran one warm-up first: drop it from the per-byte samples.
      rows.push(
        { group: title, name: `time to first byte (${label})`, unit: 'ms', ours: statsOf(first.slice(1)), baseline },
        { group: title, name: `time to last byte (${label})`, unit: 'ms', ours: statsOf(last.slice(1)), baseline },
      );
    }
    return rows;
  });
}
