import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, usingPostgres, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { STORAGE_FULL_MESSAGE } from '../../server/http/errors.js';
import { DISK_LOW_MESSAGE } from '../../server/storage/disk-guard.js';
import { makeCampaign, sessionId, info, pageEvents, postBatch, storedCounts } from './ingest-support.js';
import { spawnServer } from './spawn-server.js';

// Storage faults: a full disk is named in the log and answered 503 (the tracker retries),
// nothing acknowledged is lost; a nearly full volume stops ingest before it fills; an unusable
// DATA_DIR stops start-up in one line; database and secret files are owner-only.

/** Collects the server's log lines (pino JSON) for assertions. */
function logCollector() {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(line) } };
}

const tempDir = (mode = 0o700) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-storage-'));
  fs.chmodSync(dir, mode);
  return dir;
};

/** Events that take real space once stored: random text does not compress. */
const bulkyEvents = () => [
  ...pageEvents(),
  { type: 5, data: { tag: 'bulk', payload: { text: crypto.randomBytes(150_000).toString('hex') } }, timestamp: Date.now() - 1000 },
];

/**
 * Makes the database refuse the next write as a full disk would: on SQLite a page cap at the
 * current size (SQLITE_FULL); on PostgreSQL a trigger raising SQLSTATE 53100 (disk_full) on
 * chunk inserts, the error PostgreSQL gives when it cannot extend a file.
 */
async function fillStorage(server: TestServer): Promise<string> {
  if (usingPostgres()) {
    await sql`create function td_disk_full() returns trigger language plpgsql as $$ begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`.execute(
      server.db,
    );
    await sql`create trigger td_disk_full before insert on chunks for each row execute function td_disk_full()`.execute(server.db);
    return '53100';
  }
  const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(server.db);
  await sql.raw(`pragma max_page_count = ${rows[0].page_count}`).execute(server.db);
  return 'SQLITE_FULL';
}

async function freeStorage(server: TestServer): Promise<void> {
  if (usingPostgres()) await sql`drop trigger td_disk_full on chunks`.execute(server.db);
  else await sql.raw('pragma max_page_count = 1073741823').execute(server.db);
}

describe('a full disk', () => {
  let server: TestServer;
  const log = logCollector();
  beforeAll(async () => {
    server = await startServer({ LOG_LEVEL: 'warn' }, { build: { logStream: log.stream } });
  });
  afterAll(async () => server?.close());

  it('answers ingest 503 with Retry-After, logs the real error, and keeps what was acknowledged', async () => {
    const owner = await userSession(server, 'Fay Full');
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    const id = sessionId();
    const first = await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: pageEvents() });
    expect(await first.json()).toEqual({ stored: true });

    const code = await fillStorage(server);
    const refusedBatch = { sessionId: id, seq: 1, events: bulkyEvents() };
    const refused = await postBatch(server, campaignId, refusedBatch);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ error: STORAGE_FULL_MESSAGE });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The tracker on the visitor's page can read the answer (and keeps the batch for later).
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    // On PostgreSQL the short way's failed statement is logged too, before the long way's fault.
    const faults = log.lines.filter((line) => line.includes(code)).map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(
      faults.filter((msg) => msg.startsWith(`storage fault ${code}: `)),
      `a storage fault naming ${code}:\n${log.lines.join('')}`,
    ).toHaveLength(1);
    expect(log.lines.join('')).not.toContain('cannot rollback');

    // What was acknowledged is intact and still replays; the refused batch left nothing behind.
    expect(await storedCounts(server, campaignId)).toEqual({ sessions: 1, chunks: 1 });
    const replay = await fetch(`${server.url}/api/v1/replay/retrieve/${campaignId}/${id}`, { headers: owner.headers });
    expect(replay.status).toBe(200);
    expect(((await replay.json()) as { events: unknown[] }).events).toHaveLength(pageEvents().length);

    // Space again: the tracker's retry of the same batch is stored.
    await freeStorage(server);
    const retried = await postBatch(server, campaignId, refusedBatch);
    expect(await retried.json()).toEqual({ stored: true });
    expect(await storedCounts(server, campaignId)).toEqual({ sessions: 1, chunks: 2 });
  });
});

describe('the disk guard', () => {
  let server: TestServer;
  const log = logCollector();
  beforeAll(async () => {
    // More free space asked for than any test machine has: the volume counts as nearly full.
    server = await startServer({ LOG_LEVEL: 'warn', DISK_MIN_FREE_MB: '10000000' }, { build: { logStream: log.stream } });
  });
  afterAll(async () => server?.close());

  it('refuses ingest with 503 and Retry-After while free space is under DISK_MIN_FREE_MB; owners still read', async () => {
    const owner = await userSession(server, 'Gus Guard');
    const campaignId = await makeCampaign(server, { ownerId: owner.userId });
    for (let i = 0; i < 3; i++) {
      const res = await postBatch(server, campaignId, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: DISK_LOW_MESSAGE });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    }
    expect(await storedCounts(server, campaignId)).toEqual({ sessions: 0, chunks: 0 });
    const list = await fetch(`${server.url}/api/v1/campaign/getAll`, { headers: owner.headers });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(1);
    // One warning for the change of state, not one per refused request.
    const warnings = log.lines.filter((line) => line.includes('storage nearly full'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]).msg).toContain(`under ${server.config.dataDir}`);
  });
});

describe('file modes in DATA_DIR', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  const modes = (dir: string) => Object.fromEntries(fs.readdirSync(dir).map((name) => [name, (fs.statSync(path.join(dir, name)).mode & 0o777).toString(8)]));
  const allOwnerOnly = (dir: string) => Object.fromEntries(fs.readdirSync(dir).map((name) => [name, '600']));

  async function writeSomething(server: TestServer) {
    const campaignId = await makeCampaign(server);
    const res = await postBatch(server, campaignId, { sessionId: sessionId(), seq: 0, info: info(), events: bulkyEvents() });
    expect(await res.json()).toEqual({ stored: true });
  }

  it('keeps the database, its WAL and SHM, and the secrets 0600 in a DATA_DIR made 0755 beforehand', async () => {
    const dir = tempDir(0o755);
    dirs.push(dir);
    const server = await startServer({ DATA_DIR: dir });
    try {
      await writeSomething(server);
      const found = modes(dir);
      // On PostgreSQL the generated secrets live in the database, which every node shares.
      if (!usingPostgres())
        expect(Object.keys(found)).toEqual(expect.arrayContaining(['tapedeck.sqlite', 'tapedeck.sqlite-wal', 'tapedeck.sqlite-shm', 'session.secret']));
      expect(found).toEqual(allOwnerOnly(dir));
    } finally {
      await server.close();
    }
  });

  it('tightens files an older version left readable by others', async () => {
    const dir = tempDir(0o755);
    dirs.push(dir);
    await (await startServer({ DATA_DIR: dir })).close();
    for (const name of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, name), 0o644);
    const server = await startServer({ DATA_DIR: dir });
    try {
      await writeSomething(server);
      expect(modes(dir)).toEqual(allOwnerOnly(dir));
    } finally {
      await server.close();
    }
  });
});

// Each test starts a real server process (TypeScript compiled on the fly): slow on a busy machine.
describe('start-up on unusable storage', { timeout: 90_000 }, () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('refuses to start, in one line naming the directory, when its user may not write DATA_DIR (EACCES)', async () => {
    const parent = tempDir(0o755);
    dirs.push(parent);
    const dir = path.join(parent, 'data');
    // Root writes anywhere: run the server as nobody, which may not write a root-owned 0755 dir.
    const asRoot = process.getuid?.() === 0;
    fs.mkdirSync(dir, { mode: asRoot ? 0o755 : 0o555 });
    // SQLite, whatever the run's database: on PostgreSQL nothing is written to DATA_DIR.
    const server = spawnServer({ PORT: '0', DATA_DIR: dir }, asRoot ? { uid: 65534, gid: 65534 } : {});
    expect(await server.exited).toBe(1);
    const lines = server
      .stderr()
      .split('\n')
      .filter((line) => line.includes(dir));
    expect(lines, server.stderr()).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Storage error: DATA_DIR ${dir} is not writable: EACCES`));
    expect(server.stdout()).not.toContain('Tapedeck is running');
  });

  it.skipIf(usingPostgres())('refuses to start when the SQLite database cannot be opened (a directory stands where the file should be)', async () => {
    const dir = tempDir(0o700);
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'tapedeck.sqlite'));
    const server = spawnServer({ PORT: '0', DATA_DIR: dir });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toMatch(new RegExp(`^Storage error: the database ${path.join(dir, 'tapedeck.sqlite')} cannot be opened for writing: EISDIR`, 'm'));
    expect(server.stdout()).not.toContain('Tapedeck is running');
  });
});
