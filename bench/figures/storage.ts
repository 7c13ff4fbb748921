// Figure 4: stored bytes per 1,000 events and per recorded minute of a realistic session,
// vs the raw JSON of the same events and vs `xz -9` of it (the practical floor).
import { execFileSync } from 'node:child_process';
import { sql } from 'kysely';
import { stats, type BenchOptions, type Row, type Stats } from '../lib.js';
import { withServer } from '../support/server.js';
import { createCampaign, createOwner, storeSession } from '../support/seed.js';
import { demoEvents, minutesOf } from '../support/recording.js';
import type { ReplayEvent } from '../../common/api-types.js';

export const title = 'Storage';

function xzBytes(json: Buffer): number {
  try {
    return execFileSync('xz', ['-9', '-e', '-c', '-T1'], { input: json, maxBuffer: 1 << 30 }).length;
  } catch (error) {
    throw new Error(`xz -9 is needed for the storage floor (install xz-utils): ${String(error)}`, { cause: error });
  }
}

interface Sizes {
  stored: number;
  json: number;
  xz: number;
  events: number;
  minutes: number;
}

export async function run(options: BenchOptions): Promise<Row[]> {
  const demo = demoEvents();
  // The demo recording as recorded: a repeated recording would flatter xz, which finds the
  // repetitions across the whole session.
  const sessions: Array<{ label: string; events: ReplayEvent[] }> = [{ label: `demo session, ${demo.length.toLocaleString('en-US')} events`, events: demo }];
  return withServer({}, async (server) => {
    const owner = await createOwner(server);
    const campaignId = await createCampaign(server.db, owner.userId, '127.0.0.1');
    const rows: Row[] = [];
    for (const [index, session] of sessions.entries()) {
      const json = Buffer.from(JSON.stringify(session.events));
      const xz = xzBytes(json);
      const samples: Sizes[] = [];
      for (let run = 0; run < options.runs; run++) {
        const sessionId = await storeSession(server.db, campaignId, session.events, index * 100 + run);
        const stored = await server.db
          .selectFrom('chunks')
          .select(sql<number | string>`sum(length(data))`.as('bytes'))
          .where('campaign_id', '=', campaignId)
          .where('session_id', '=', sessionId)
          .executeTakeFirstOrThrow();
        samples.push({ stored: Number(stored.bytes), json: json.length, xz, events: session.events.length, minutes: minutesOf(session.events) });
      }
      rows.push(...sizeRows(session.label, samples));
    }
    return rows;
  });
}

function sizeRows(label: string, samples: Sizes[]): Row[] {
  const per = (pick: (s: Sizes) => number, unit: (s: Sizes) => number): Stats => stats(samples.map((s) => pick(s) / unit(s) / 1024));
  const perThousand = (s: Sizes) => s.events / 1000;
  const perMinute = (s: Sizes) => s.minutes;
  const minutes = samples[0].minutes.toFixed(1);
  return [
    {
      group: title,
      name: `stored per 1,000 events (${label})`,
      unit: 'KB',
      ours: per((s) => s.stored, perThousand),
      baseline: { name: 'raw JSON', stats: per((s) => s.json, perThousand) },
    },
    {
      group: title,
      name: `stored per 1,000 events (${label})`,
      unit: 'KB',
      ours: per((s) => s.stored, perThousand),
      baseline: { name: 'xz -9 of the JSON (floor)', stats: per((s) => s.xz, perThousand) },
    },
    {
      group: title,
      name: `stored per recorded minute (${label}, ${minutes} min)`,
      unit: 'KB',
      ours: per((s) => s.stored, perMinute),
      baseline: { name: 'raw JSON', stats: per((s) => s.json, perMinute) },
    },
    {
      group: title,
      name: `stored per recorded minute (${label}, ${minutes} min)`,
      unit: 'KB',
      ours: per((s) => s.stored, perMinute),
      baseline: { name: 'xz -9 of the JSON (floor)', stats: per((s) => s.xz, perMinute) },
    },
  ];
}
