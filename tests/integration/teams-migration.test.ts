import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import * as workspaces from '../../server/db/migrations/0034_workspaces.js';
import * as workspaceSettings from '../../server/db/migrations/0035_workspace_settings.js';
import * as apiKeys from '../../server/db/migrations/0036_api_keys.js';
import * as webhooks from '../../server/db/migrations/0037_webhooks.js';
import { appendChunk, insertSession } from '../../server/recordings/seed.js';
import { createShare } from '../../server/shares/repository.js';
import { starSession } from '../../server/stars/repository.js';
import { addNote } from '../../server/notes/repository.js';
import { addSegment } from '../../server/segments/repository.js';

// Migration 0034 on a database as it was at 0033 (the migration's down leaves exactly that
// schema): two accounts with their campaigns, sessions, chunks, shares, stars, notes and segments.
// After it, every row is still there, each account reaches its own through the API (in its
// personal workspace), and neither reaches the other's.

type Session = Awaited<ReturnType<typeof userSession>>;

let server: TestServer;
let alice: Session;
let bob: Session;
const TABLES = ['users', 'campaigns', 'sessions', 'chunks', 'share_links', 'session_stars', 'notes', 'segments'] as const;

async function counts() {
  const entries = await Promise.all(
    TABLES.map(
      async (table) =>
        [
          table,
          Number(
            (
              await server.db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          ),
        ] as const,
    ),
  );
  return Object.fromEntries(entries);
}

/** An account's things as they were made before workspaces: each campaign's id and its session's. */
async function thingsOf(owner: Session, name: string) {
  const made: { campaign: string; session: string; token: string }[] = [];
  for (const n of [1, 2]) {
    const campaign = crypto.randomUUID();
    await server.db
      .insertInto('campaigns')
      .values({
        id: campaign,
        owner_id: owner.userId,
        name: `${name} ${n}`,
        domains: 'shop.example.com',
        session_limit: 0,
        start_date_time: 1,
        end_date_time: 2e12,
        created_at: Date.now() + n,
      })
      .execute();
    const session = `${name.toLowerCase()}-session-000${n}`;
    await insertSession(server.db, { campaign_id: campaign, id: session, started_at: Date.now() - 1000 });
    await appendChunk(server.db, {
      campaignId: campaign,
      sessionId: session,
      seq: 0,
      events: [{ type: 4, data: { href: 'https://shop.example.com/' }, timestamp: Date.now() - 900 }],
    });
    const { token } = await createShare(server.db, { campaignId: campaign, sessionId: session, expiresIn: '7d', includeDetails: false });
    await starSession(server.db, campaign, session);
    await addNote(server.db, { campaignId: campaign, sessionId: session, authorId: owner.userId, text: `${name}'s note`, timestamp: Date.now() - 950 }, 100);
    await addSegment(server.db, campaign, { name: `${name}'s humans`, filters: { search: 'shop' } }, 100);
    made.push({ campaign, session, token });
  }
  return made;
}

let before: Record<string, number>;
let aliceThings: Awaited<ReturnType<typeof thingsOf>>;
let bobThings: Awaited<ReturnType<typeof thingsOf>>;

beforeAll(async () => {
  server = await startServer();
  alice = await userSession(server, 'Alice Before');
  bob = await userSession(server, 'Bob Before');
  // Back to 0033: no workspaces at all (0037's webhooks and 0036's keys, which hang off workspaces, then 0035's switches, then 0034).
  await webhooks.down(server.db);
  await apiKeys.down(server.db);
  await workspaceSettings.down(server.db);
  await workspaces.down(server.db);
  aliceThings = await thingsOf(alice, 'Alice');
  bobThings = await thingsOf(bob, 'Bob');
  before = await counts();
  await workspaces.up(server.db);
  await workspaceSettings.up(server.db);
  await apiKeys.up(server.db);
  await webhooks.up(server.db);
});
afterAll(async () => server?.close());

const get = async (who: Session, path: string) => {
  const res = await fetch(`${server.url}${path}`, { headers: who.headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('migration 0034', () => {
  it('loses no row, and gives each account its personal workspace holding its campaigns', async () => {
    expect(await counts()).toEqual(before);
    for (const [who, mine] of [
      [alice, aliceThings],
      [bob, bobThings],
    ] as const) {
      const list = (await get(who, '/api/v1/workspaces')).body.data as { id: string; role: string; personal: boolean }[];
      expect(list).toEqual([expect.objectContaining({ id: expect.any(String), name: 'Personal', role: 'owner', personal: true })]);
      const campaigns = (await get(who, `/api/v1/campaign/getAll?workspace_id=${list[0].id}`)).body.data as { id: string }[];
      expect(campaigns.map((c) => c.id).sort()).toEqual(mine.map((t) => t.campaign).sort());
    }
    const unplaced = await server.db.selectFrom('campaigns').select('id').where('workspace_id', 'is', null).execute();
    expect(unplaced).toEqual([]);
  });

  it("lets each owner reach every one of their rows, and no one else's", async () => {
    for (const [who, mine, theirs] of [
      [alice, aliceThings, bobThings],
      [bob, bobThings, aliceThings],
    ] as const) {
      for (const { campaign, session, token } of mine) {
        const reads = {
          sessions: await get(who, `/api/v1/streaming/sessions/${campaign}/`),
          replay: await get(who, `/api/v1/replay/retrieve/${campaign}/${session}`),
          shares: await get(who, `/api/v1/replay/share/${campaign}/${session}`),
          star: await get(who, `/api/v1/streaming/sessions/${campaign}/${session}/star`),
          notes: await get(who, `/api/v1/notes/${campaign}/${session}`),
          segments: await get(who, `/api/v1/segments/${campaign}`),
        };
        expect(Object.fromEntries(Object.entries(reads).map(([k, v]) => [k, v.status]))).toEqual({
          sessions: 200,
          replay: 200,
          shares: 200,
          star: 200,
          notes: 200,
          segments: 200,
        });
        expect((reads.sessions.body.counts as { total: number }).total).toBe(1);
        expect((reads.replay.body.events as unknown[]).length).toBe(1);
        expect(reads.shares.body.links).toHaveLength(1);
        expect(reads.star.body).toEqual({ starred: true });
        expect(reads.notes.body.notes).toHaveLength(1);
        expect(reads.segments.body.segments).toHaveLength(1);
        // The share link still opens, for anyone.
        expect((await fetch(`${server.url}/api/v1/shared/${token}`)).status).toBe(200);
      }
      for (const { campaign, session } of theirs) {
        for (const path of [
          `/api/v1/streaming/sessions/${campaign}/`,
          `/api/v1/replay/retrieve/${campaign}/${session}`,
          `/api/v1/replay/share/${campaign}/${session}`,
          `/api/v1/streaming/sessions/${campaign}/${session}/star`,
          `/api/v1/notes/${campaign}/${session}`,
          `/api/v1/segments/${campaign}`,
        ])
          expect(await get(who, path)).toEqual({ status: 404, body: { error: 'Campaign not found' } });
      }
    }
  });

  it('puts a campaign an older seeder inserts without a workspace in its maker’s personal one', async () => {
    const id = crypto.randomUUID();
    await server.db
      .insertInto('campaigns')
      .values({
        id,
        owner_id: bob.userId,
        name: 'Seeded',
        domains: 'shop.example.com',
        session_limit: 0,
        start_date_time: 1,
        end_date_time: 2e12,
        created_at: Date.now(),
      })
      .execute();
    const row = await server.db
      .selectFrom('campaigns')
      .innerJoin('workspaces', 'workspaces.id', 'campaigns.workspace_id')
      .select('workspaces.personal_of')
      .where('campaigns.id', '=', id)
      .executeTakeFirst();
    expect(row).toEqual({ personal_of: bob.userId });
  });
});
