import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, createQueryId, sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { startServer, usingPostgres, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { sessionRow } from '../../server/sessions/rows.js';
import { encodeCursor, listPeople } from '../../server/people/directory.js';
import { createCampaign } from './ingest-support.js';

// The people directory at 100,000 sessions (20,000 people): every statement a page runs is read
// by index ranges, and the ids of a page come in index order (no scan of the campaign, no sort of
// all its people before the first row), on SQLite and on PostgreSQL, as the database plans them.

const SESSIONS = 100_000;
const PEOPLE = 20_000;
const PLANS = ['', 'p-01', 'plan=pro', 'pro'];

let server: TestServer;
let campaignId: string;

beforeAll(async () => {
  server = await startServer();
  const owner = await userSession(server, 'Plan Owner');
  campaignId = (await createCampaign(server, owner.headers, 'Plans')).id;
  const t0 = Date.UTC(2026, 0, 1);
  // Rows per statement: SQLite takes at most 32,766 parameters in one.
  const batch = usingPostgres() ? 1000 : 250;
  for (let start = 0; start < SESSIONS; start += batch) {
    const rows = Array.from({ length: batch }, (_, j) => {
      const i = start + j;
      const person = i % (PEOPLE + 1); // one in PEOPLE + 1 is anonymous
      const userId = person === PEOPLE ? null : `p-${String(person).padStart(5, '0')}`;
      const traits = userId && JSON.stringify({ plan: ['free', 'pro', 'team'][person % 3], seats: person % 50 });
      return sessionRow({
        campaign_id: campaignId,
        id: `plan-${String(i).padStart(6, '0')}`,
        started_at: t0 + i * 1000,
        user_id: userId,
        traits,
        device: 'desktop',
      });
    });
    await server.db.insertInto('sessions').values(rows).execute();
    // Fresh statistics as the table grows: the insert triggers' own lookups otherwise plan for an
    // empty table, and each batch takes longer than the last (ten minutes in all on PostgreSQL).
    if (usingPostgres() && (start / batch) % 10 === 0) await sql`analyze`.execute(server.db);
  }
  await sql`analyze`.execute(server.db);
}, 600_000);
afterAll(async () => server?.close());

/** The statements a directory page runs. */
async function statements(q: string, cursor?: string): Promise<CompiledQuery[]> {
  const nodes: RootOperationNode[] = [];
  const recorder: KyselyPlugin = {
    transformQuery: ({ node }) => (nodes.push(node), node),
    transformResult: async ({ result }) => result,
  };
  await listPeople(server.db.withPlugin(recorder), campaignId, { q, cursor });
  return nodes.map((node) => server.db.getExecutor().compileQuery(node, createQueryId()));
}

/** The plan as lines: SQLite's EXPLAIN QUERY PLAN details, or PostgreSQL's node types with their index. */
async function plan(query: CompiledQuery): Promise<string[]> {
  if (!usingPostgres()) {
    const { rows } = await server.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
    return rows.map((row) => row.detail);
  }
  const { rows } = await server.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
  );
  const lines: string[] = [];
  const walk = (node: PlanNode) => {
    lines.push(`${node['Node Type']}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}${node['Relation Name'] ? ` on ${node['Relation Name']}` : ''}`);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(rows[0]['QUERY PLAN'][0].Plan);
  return lines;
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

const fullScan = (line: string) => /^SCAN (sessions|session_traits)\b/.test(line) || /^Seq Scan/.test(line) || /^Bitmap Heap Scan on sessions$/.test(line);
/** Reading every match before the first row: a sort, or a temporary b-tree for DISTINCT or ORDER BY. */
const sortsAll = (line: string) => /USE TEMP B-TREE|^Sort|^Incremental Sort|^HashAggregate/.test(line);

describe('the people directory at 100,000 sessions', () => {
  it.each(PLANS)('reads index ranges only for the search %j, its ids in index order', async (q) => {
    for (const cursor of [undefined, encodeCursor('p-01000'), encodeCursor('p-00999')]) {
      const [ids, ...rest] = await statements(q, cursor);
      const idLines = await plan(ids);
      expect(idLines.filter(fullScan), idLines.join('\n')).toEqual([]);
      expect(idLines.filter(sortsAll), idLines.join('\n')).toEqual([]);
      // A bare text runs the id range and the trait range side by side.
      const traitIds = q && !q.includes('=') ? [rest.shift() as CompiledQuery] : [];
      for (const statement of [...traitIds, ...rest]) {
        const lines = await plan(statement);
        expect(lines.filter(fullScan), `${statement.sql}\n${lines.join('\n')}`).toEqual([]);
      }
      for (const statement of traitIds) expect((await plan(statement)).filter(sortsAll)).toEqual([]);
    }
  });
});
