import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startServer, type TestServer } from '../helpers/server.js';
import { startDraining } from '../../server/cluster/health.js';

// What a load balancer or an orchestrator asks a node: is it alive, should it get traffic?
describe('health endpoints', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const get = async (path: string) => {
    const response = await fetch(`${server?.url}${path}`);
    return { status: response.status, body: await response.json(), cache: response.headers.get('cache-control') };
  };

  it('answers 200 {ok: true} to /healthz and /readyz on a node that can serve, without signing in', async () => {
    server = await startServer();
    expect(await get('/healthz')).toEqual({ status: 200, body: { ok: true }, cache: 'no-store' });
    expect(await get('/readyz')).toEqual({ status: 200, body: { ok: true }, cache: 'no-store' });
  });

  it('answers a crowd of /readyz callers at once, all from one check', async () => {
    server = await startServer();
    const answers = await Promise.all(Array.from({ length: 50 }, () => get('/readyz')));
    expect(answers.every((answer) => answer.status === 200 && answer.body.ok === true)).toBe(true);
  });

  it('is not ready while draining after SIGTERM, yet still alive', async () => {
    server = await startServer();
    startDraining(server.app);
    expect(await get('/readyz')).toMatchObject({ status: 503, body: { ok: false, reason: 'shutting down' } });
    expect((await get('/healthz')).status).toBe(200);
  });

  it('is not ready while storage is nearly full', async () => {
    server = await startServer({ DISK_MIN_FREE_MB: '10000000' });
    expect(await get('/readyz')).toMatchObject({ status: 503, body: { ok: false, reason: 'storage nearly full' } });
  });

  it('is not ready when the database lacks a migration this version needs', async () => {
    server = await startServer();
    await sql`delete from kysely_migration where name = '0007_shared_node_state'`.execute(server.db);
    expect(await get('/readyz')).toMatchObject({ status: 503, body: { ok: false, reason: 'database migrations pending: 0007_shared_node_state' } });
  });

  it('is not ready when the database cannot be reached', async () => {
    server = await startServer();
    await server.db.destroy();
    expect(await get('/readyz')).toMatchObject({ status: 503, body: { ok: false, reason: 'database unreachable' } });
    expect((await get('/healthz')).status).toBe(200);
  });
});
