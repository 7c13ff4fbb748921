import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, usingPostgres, type TestServer } from '../helpers/server.js';
import Fastify from 'fastify';
import { housekeeping, oneNodeAtATime, settleStoredBatches, startJobs } from '../../server/cluster/jobs.js';
import { insertSession } from '../../server/recordings/seed.js';
import { makeCampaign, sessionId } from './ingest-support.js';

// Periodic jobs (housekeeping) run on one node at a time when several share PostgreSQL.
describe('background jobs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it('runs a job and says so', async () => {
    let runs = 0;
    expect(await oneNodeAtATime(server.db, 'count', async () => void runs++)).toBe(true);
    expect(runs).toBe(1);
  });

  it.skipIf(!usingPostgres())('on PostgreSQL, skips a job another connection (another node) is running, and runs it again once that one ended', async () => {
    let release = () => {};
    let started = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    const first = oneNodeAtATime(server.db, 'sweep', () => {
      started();
      return new Promise<void>((resolve) => (release = resolve));
    });
    await running;
    let ranTwice = false;
    expect(await oneNodeAtATime(server.db, 'sweep', async () => void (ranTwice = true))).toBe(false);
    expect(ranTwice).toBe(false);
    // Another job's lock is another lock.
    expect(await oneNodeAtATime(server.db, 'other job', async () => undefined)).toBe(true);
    release();
    expect(await first).toBe(true);
    expect(await oneNodeAtATime(server.db, 'sweep', async () => void (ranTwice = true))).toBe(true);
    expect(ranTwice).toBe(true);
  });

  it("housekeeping removes the built-in provider's expired records (and, on PostgreSQL, ended rate-limit windows), and keeps the rest", async () => {
    const record = (id: string, expiresAt: number | null) => ({
      model: 'Interaction',
      id,
      payload: '{}',
      uid: null,
      grant_id: null,
      user_code: null,
      expires_at: expiresAt,
      consumed_at: null,
    });
    await server.db
      .insertInto('oidc_models')
      .values([record('old', Date.now() - 1000), record('fresh', Date.now() + 60_000), record('forever', null)])
      .execute();
    await server.db
      .insertInto('rate_limit_hits')
      .values([
        { key: 'ended', hits: 3, reset_at: Date.now() - 1000 },
        { key: 'running', hits: 1, reset_at: Date.now() + 60_000 },
      ])
      .execute();
    await housekeeping(server.db);
    const left = await server.db.selectFrom('oidc_models').select('id').orderBy('id').execute();
    expect(left.map((r) => r.id)).toEqual(['forever', 'fresh']);
    const windows = await server.db.selectFrom('rate_limit_hits').select('key').orderBy('key').execute();
    expect(windows.map((r) => r.key)).toEqual(usingPostgres() ? ['running'] : ['ended', 'running']);
  });

  it('housekeeping removes expired refresh tokens, which can no longer buy a session, and keeps the rest', async () => {
    const user = await server.db
      .insertInto('users')
      .values({ id: 'housekept-user', subject: 'test|housekept', name: 'Kept', email: null, picture: null, created_at: Date.now(), updated_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = (id: string, expiresAt: number, rotatedAt: number | null) => ({
      id,
      user_id: user.id,
      family_id: 'housekept-family',
      token_hash: `hash-${id}`,
      created_at: expiresAt - 30 * 24 * 60 * 60 * 1000,
      expires_at: expiresAt,
      rotated_at: rotatedAt,
      revoked_at: null,
    });
    await server.db
      .insertInto('refresh_tokens')
      .values([token('expired', Date.now() - 1000, Date.now() - 2000), token('current', Date.now() + 60_000, null)])
      .execute();
    await housekeeping(server.db);
    const left = await server.db.selectFrom('refresh_tokens').select('id').where('family_id', '=', 'housekept-family').execute();
    expect(left.map((r) => r.id)).toEqual(['current']);
  });

  it('settles what stored batches leave, in every campaign: ended sessions without human input become bots, live ones stay', async () => {
    const now = Date.now();
    const campaigns = [await makeCampaign(server), await makeCampaign(server)];
    const ended = campaigns.map(() => sessionId());
    const live = sessionId();
    for (const [i, campaign_id] of campaigns.entries())
      await insertSession(server.db, { campaign_id, id: ended[i], started_at: now - 3_600_000, last_activity_at: now - 3_000_000, has_human_input: 0 });
    await insertSession(server.db, { campaign_id: campaigns[0], id: live, started_at: now - 60_000, last_activity_at: now - 1000, has_human_input: 0 });
    expect(await settleStoredBatches(server.db, now)).toBe(true);
    const rows = await server.db.selectFrom('sessions').select(['id', 'is_bot']).where('campaign_id', 'in', campaigns).execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.is_bot]))).toEqual({ [ended[0]]: 1, [ended[1]]: 1, [live]: 0 });
  });

  it('runs the jobs soon after a start, then again and again, and stops with the server', async () => {
    // The first run comes on a real 20 ms timer; the runs after it only when the test moves time on.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const app = Fastify({ logger: false });
      startJobs(app, server.db, { firstAfterMs: 20, everyMs: 100 });
      const expired = (id: string) => ({
        model: 'Session',
        id,
        payload: '{}',
        uid: null,
        grant_id: null,
        user_code: null,
        expires_at: Date.now() - 1000,
        consumed_at: null,
      });
      const gone = async (id: string) => (await server.db.selectFrom('oidc_models').select('id').where('id', '=', id).execute()).length === 0;
      // Waits on the database without moving the fake clock, so no further run starts meanwhile.
      const until = async (id: string) => {
        for (let i = 0; i < 100 && !(await gone(id)); i++) await new Promise((resolve) => setTimeout(resolve, 20));
        return gone(id);
      };
      await server.db.insertInto('oidc_models').values(expired('first-run')).execute();
      expect(await until('first-run')).toBe(true);
      await server.db.insertInto('oidc_models').values(expired('next-run')).execute();
      await vi.advanceTimersByTimeAsync(100);
      expect(await until('next-run')).toBe(true);
      await app.close();
      expect(vi.getTimerCount()).toBe(0); // nothing left to run a job
      await server.db.insertInto('oidc_models').values(expired('after-close')).execute();
      await vi.advanceTimersByTimeAsync(1000);
      expect(await gone('after-close')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
