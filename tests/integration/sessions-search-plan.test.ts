import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { startServer, usingPostgres, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { MAX_MATCHED_COUNT } from '../../common/session-list.js';
import { sessionRow } from '../../server/sessions/rows.js';
import { countMatching, pageSessions } from '../../server/sessions/repository.js';
import { COMMON_TERMS } from '../../server/sessions/search.js';
import type { SessionFilters } from '../../server/sessions/query.js';
import type { Executor } from '../../server/db/executor.js';
import { createCampaign } from './ingest-support.js';

// The sessions list's search box and people filters at 100,000 sessions (bench/figures/
// sessions-list.ts's campaign): every statement a first page and its `matched` count run reads
// index ranges (no scan of the campaign), the few ids a search or event gives are read by their
// keys, and on PostgreSQL no statement reads more index entries than a prefix's decision does
// (COMMON_TERMS + 1): a common prefix's count reads its first terms, not all of them.

const SESSIONS = 100_000;
const languages = ['en-US', 'de-DE', 'fr-FR', 'es-ES', 'pt-BR', 'ja-JP', 'nl-NL', 'it-IT'];

let server: TestServer;
let campaignId: string;

/** The bench's i-th session: one in three identified (about 3 sessions a person), 2 pages, a checkout in one of 50, a refund in one of 5,000. */
function row(i: number) {
  const events: Record<string, number> = {};
  if (i % 50 === 0) events.checkout = 1;
  if (i % 5000 === 0) events.refund = 1;
  return sessionRow({
    campaign_id: campaignId,
    id: `s${i.toString(36).padStart(8, '0')}`,
    started_at: Date.UTC(2026, 0, 1) + i * 60_000,
    language: languages[i % languages.length],
    pages: `/products/${i % 500}\n/cart`,
    user_id: i % 3 === 0 ? `customer-${i % 30_000}` : null,
    events: Object.keys(events).length ? JSON.stringify(events) : null,
  });
}

beforeAll(async () => {
  server = await startServer();
  const owner = await userSession(server, 'Search Plan Owner');
  campaignId = (await createCampaign(server, owner.headers, 'Search plans')).id;
  // Rows per statement: SQLite takes at most 32,766 parameters in one.
  const batch = usingPostgres() ? 1000 : 250;
  for (let start = 0; start < SESSIONS; start += batch) {
    await server.db
      .insertInto('sessions')
      .values(Array.from({ length: batch }, (_, j) => row(start + j)))
      .execute();
    // Fresh statistics as the table grows: the insert triggers' own lookups otherwise plan for an empty table.
    if (usingPostgres() && (start / batch) % 10 === 0) await sql`analyze`.execute(server.db);
  }
  if (usingPostgres()) await sql`analyze`.execute(server.db);
}, 900_000);
afterAll(async () => server?.close());

/** The statements the list's first page runs (and its second, by the first's cursor), with the first's `matched` count. */
async function statements(filters: SessionFilters): Promise<CompiledQuery[]> {
  const nodes = new Map<unknown, RootOperationNode>();
  const ran: CompiledQuery[] = [];
  const recorder: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => (nodes.set(queryId.queryId, node), node),
    transformResult: async ({ result, queryId }) => {
      ran.push(server.db.getExecutor().compileQuery(nodes.get(queryId.queryId) as RootOperationNode, queryId));
      return result;
    },
  };
  const db: Executor = server.db.withPlugin(recorder);
  const first = await pageSessions(db, campaignId, { ...filters, limit: 50 });
  if (first.nextCursor) {
    await countMatching(db, campaignId, filters, MAX_MATCHED_COUNT);
    await pageSessions(db, campaignId, { ...filters, limit: 50, cursor: first.nextCursor });
  }
  return ran;
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

interface Plan {
  lines: string[];
  /** PostgreSQL: the rows its scans returned, all loops. */
  scanned: number;
}

/** SQLite's EXPLAIN QUERY PLAN details, or PostgreSQL's node types with their index, as it ran. */
async function plan(query: CompiledQuery): Promise<Plan> {
  if (!usingPostgres()) {
    const { rows } = await server.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
    return { lines: rows.map((row) => row.detail), scanned: 0 };
  }
  const { rows } = await server.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
  );
  const found: Plan = { lines: [], scanned: 0 };
  const walk = (node: PlanNode) => {
    found.lines.push(
      `${node['Node Type']}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}${node['Relation Name'] ? ` on ${node['Relation Name']}` : ''}`,
    );
    if (node['Node Type'].endsWith('Scan')) found.scanned += node['Actual Rows'] * node['Actual Loops'];
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(rows[0]['QUERY PLAN'][0].Plan);
  return found;
}

/** Scans of a whole table (SQLite: not a SEARCH by an index's columns; a subquery's rows are its own). */
function fullScans(lines: string[]): string[] {
  const subqueries = lines.map((line) => /^(?:CO-ROUTINE|MATERIALIZE) (\S+)/.exec(line)?.[1]).filter(Boolean);
  const scanned = (line: string) => /^SCAN (\S+)/.exec(line)?.[1];
  return lines.filter(
    (line) => (/^SCAN (sessions|session_terms|session_events)\b/.test(line) && !subqueries.includes(scanned(line))) || /^Seq Scan on sessions$/.test(line),
  );
}
/** The sessions read by the keys of the ids a statement names. */
const byKeys = (lines: string[]) =>
  lines.some(
    (line) =>
      /^SEARCH sessions USING INDEX sqlite_autoindex_sessions_1 \(campaign_id=\? AND id=\?\)$/.test(line) || / using sessions_pk on sessions$/.test(line),
  );

const SEARCHES: [string, SessionFilters][] = [
  ['search "/" (every session)', { search: '/' }],
  ['search "de-de" (1 in 8)', { search: 'de-de' }],
  ['search a session id prefix', { search: 's0000abc' }],
  ['search "customer-471"', { search: 'customer-471' }],
  ['search "customer-4" (1 in 80)', { search: 'customer-4' }],
  ['search "products/42" (1 in 45)', { search: 'products/42' }],
  ['search "refund" (1 in 5,000)', { search: 'refund' }],
  ['user filter "customer-47"', { user: 'customer-47' }],
  ['user filter (one person)', { user: 'customer-0' }],
  ['event filter "checkout" (1 in 50)', { event: 'checkout' }],
  ['event filter "refund" with a search', { event: 'refund', search: 'customer' }],
];

describe('the sessions list search at 100,000 sessions', () => {
  it.each(SEARCHES)('reads index ranges and ids by their keys for the %s', async (_, filters) => {
    for (const statement of await statements(filters)) {
      const { lines, scanned } = await plan(statement);
      const shown = `${statement.sql}\n${lines.join('\n')}`;
      expect(fullScans(lines), shown).toEqual([]);
      // SQLite without statistics once walked a covering index over the whole campaign instead.
      if (/"id" in \(/.test(statement.sql)) expect(byKeys(lines), shown).toBe(true);
      expect(scanned, shown).toBeLessThanOrEqual(COMMON_TERMS + 1);
    }
  });
});
