// Shared by the recordings module's tests (server/recordings/).
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { findCampaign, type CampaignRow } from '../../server/campaigns/repository.js';
import { packBatch, type PackedBatch } from '../../server/ingest/pack.js';
import { visitorOf } from '../../server/ingest/pack.js';
import { openRecordings, type Recordings } from '../../server/recordings/index.js';
import type { SessionCaps } from '../../server/recordings/batch.js';
import { readChunks } from '../../server/storage/chunks.js';
import { makeCampaign, type CampaignOptions } from './ingest-support.js';

/** The batch as the route hands it to recordings: packed, its visitor read from `ip`. */
export function packed(body: Record<string, unknown>, ip = '127.0.0.1'): PackedBatch {
  const outcome = packBatch(Buffer.from(JSON.stringify(body)), Date.now());
  if (!outcome.ok) throw new Error(outcome.error);
  return { ...outcome.batch, visitor: visitorOf(ip, outcome.batch.info) };
}

/** A click a second after `start`: a moment the session's facts count. */
export const clickAt = (start: number) => [{ type: 3, data: { source: 2, type: 2, id: 1, x: 10, y: 10 }, timestamp: start + 1000 }];

/** A shared statement that fails writes nothing too: "nothing written" must come from its checks, so a test fails on any failure told. */
export function failureLog(): { warn(details: { err: unknown }): void; failures: unknown[] } {
  const failures: unknown[] = [];
  return { failures, warn: (details) => failures.push(details.err) };
}

/** A writer of the server's database (SQLite or PostgreSQL, as the tests run), with the server's caps unless told. */
export function writerFor(server: TestServer, log: ReturnType<typeof failureLog>, caps: Partial<SessionCaps> = {}): Recordings {
  return openRecordings(server.db, { ...server.config.limits, ...caps }, log);
}

export async function campaignRow(server: TestServer, options: CampaignOptions = {}): Promise<CampaignRow> {
  return (await findCampaign(server.db, await makeCampaign(server, options)))!;
}

export async function chunkSeqs(server: TestServer, campaignId: string, id: string): Promise<number[]> {
  const rows = await server.db.selectFrom('chunks').select('seq').where('campaign_id', '=', campaignId).where('session_id', '=', id).orderBy('seq').execute();
  return rows.map((row) => row.seq);
}

export async function eventsOf(server: TestServer, campaignId: string, id: string): Promise<unknown[][]> {
  const chunks: unknown[][] = [];
  for await (const events of readChunks(server.db, campaignId, id)) chunks.push(events);
  return chunks;
}

export const admittedCount = async (server: TestServer, campaignId: string) => (await findCampaign(server.db, campaignId))!.session_count;

export function expectNoFailures(log: ReturnType<typeof failureLog>): void {
  expect(log.failures.splice(0)).toEqual([]);
}

/**
 * The describe block's server, started before its tests (handed to `started`) and closed after
 * them; and the failure log its writers tell, checked empty after each test.
 */
export function useRecordingsServer(started: (server: TestServer) => void): ReturnType<typeof failureLog> {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer();
    started(server);
  });
  afterAll(async () => server?.close());
  const log = failureLog();
  afterEach(() => expectNoFailures(log));
  return log;
}
