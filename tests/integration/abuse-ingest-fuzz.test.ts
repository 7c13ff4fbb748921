import zlib from 'node:zlib';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { info, makeCampaign, postBatch, storedCounts } from './ingest-support.js';

// Property: whatever bytes an anonymous sender posts, ingest answers 2xx, or 4xx with a reason —
// never 5xx — and a refused body leaves the database as it was.

const near = () => fc.integer({ min: Date.now() - 2 * 86_400_000, max: Date.now() + 86_400_000 });
const anyNumber = () => fc.oneof(fc.integer(), fc.double(), near(), fc.constantFrom(1e300, -0, 2 ** 53, 2 ** 31));

const eventLike = fc.record(
  {
    type: fc.oneof(fc.integer({ min: -2, max: 10 }), fc.anything()),
    data: fc.oneof(fc.object(), fc.anything()),
    timestamp: fc.oneof(near(), anyNumber(), fc.anything()),
  },
  { requiredKeys: [] },
);

const batchLike = fc.record(
  {
    sessionId: fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/), fc.string(), fc.anything()),
    seq: fc.oneof(fc.nat({ max: 5 }), anyNumber(), fc.anything()),
    info: fc.oneof(
      fc.constant(info()),
      fc.record({ ...Object.fromEntries(Object.keys(info()).map((k) => [k, fc.oneof(fc.string({ unit: 'binary' }), anyNumber(), fc.boolean())])) }),
      fc.anything(),
    ),
    events: fc.oneof(fc.array(eventLike, { maxLength: 6 }), fc.anything()),
  },
  { requiredKeys: [] },
);

/** Well-formed batches, sometimes with one field of one event replaced by anything. */
const validEvent = fc.record({
  type: fc.integer({ min: 0, max: 8 }),
  data: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
  timestamp: fc.integer({ min: Date.now() - 3_600_000, max: Date.now() }),
});
const nearlyValid = fc
  .record({
    sessionId: fc.stringMatching(/^[A-Za-z0-9_-]{8,16}$/),
    seq: fc.nat({ max: 3 }),
    info: fc.constant(info()),
    events: fc.array(validEvent, { minLength: 1, maxLength: 5 }),
    spoil: fc.option(fc.tuple(fc.constantFrom('type', 'data', 'timestamp'), fc.anything()), { freq: 3 }),
  })
  .map(({ spoil, ...batch }) => {
    if (spoil) (batch.events[0] as Record<string, unknown>)[spoil[0]] = spoil[1];
    return batch;
  });

const body = fc.oneof(
  nearlyValid.map((batch) => zlib.gzipSync(JSON.stringify(batch))),
  fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)),
  fc.uint8Array({ maxLength: 600 }).map((bytes) => zlib.gzipSync(bytes)),
  fc.json().map((text) => Buffer.from(text)),
  batchLike.map((batch) => Buffer.from(JSON.stringify(batch))),
  batchLike.map((batch) => zlib.gzipSync(JSON.stringify(batch))),
  fc.string({ unit: 'binary', maxLength: 300 }).map((text) => Buffer.from(text)),
);

describe('ingest takes any byte string', () => {
  let server: TestServer;
  let campaignId: string;
  beforeAll(async () => {
    server = await startServer({ RATE_NEW_SESSIONS_PER_IP: '0', RATE_NEW_SESSIONS_PER_CAMPAIGN: '0', RATE_BATCHES_PER_SESSION: '0', RATE_BATCHES_PER_IP: '0' });
    campaignId = await makeCampaign(server);
  });
  afterAll(async () => server?.close());

  /** Every stored session's counters agree with its chunks, and the campaign's count with its sessions. */
  async function consistent(): Promise<boolean> {
    const mismatched = await sql<{ n: number }>`
      select count(*) as n from sessions s
      where s.campaign_id = ${campaignId}
        and s.batch_count <> (select count(*) from chunks c where c.campaign_id = s.campaign_id and c.session_id = s.id)`.execute(server.db);
    const campaign = await server.db.selectFrom('campaigns').select('session_count').where('id', '=', campaignId).executeTakeFirstOrThrow();
    const { sessions } = await storedCounts(server, campaignId);
    return Number(mismatched.rows[0].n) === 0 && campaign.session_count === sessions;
  }

  it('answers 2xx or 4xx with a reason, never 5xx, and never writes part of a refused batch', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(body, async (bytes) => {
        const before = await storedCounts(server, campaignId);
        const res = await postBatch(server, campaignId, bytes);
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          const answer = (await res.json()) as { error?: unknown };
          expect(typeof answer.error).toBe('string');
          expect(await storedCounts(server, campaignId)).toEqual(before);
        } else {
          await res.arrayBuffer();
        }
        expect(await consistent()).toBe(true);
      }),
      { numRuns: 300 },
    );
    // The generators reach both sides: some bodies are stored, most are refused.
    expect(seen.get(200) ?? 0).toBeGreaterThan(0);
    expect(seen.get(400) ?? 0).toBeGreaterThan(0);
  });
});
