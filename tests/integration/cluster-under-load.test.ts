import zlib from 'node:zlib';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../helpers/server.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { signIn, type SignedIn } from '../helpers/signin.js';
import { warnIfSkipped } from '../helpers/require-postgres.js';
import { info, pageEvents, sessionId } from './ingest-support.js';

// Ingest on two busy nodes: hundreds of batches through a round-robin proxy to two server
// processes on one PostgreSQL, while other processes keep the CPU busy. New and continuing
// sessions, small campaigns filled by more visitors than they take, a campaign its owner edits
// meanwhile. Every batch is answered 2xx, refused with a 4xx or asked again with a 503 and
// Retry-After (as the tracker retries), never another 5xx; every acknowledged batch is stored.
// PostgreSQL only (SQLite is one server by design).
warnIfSkipped('The busy two-node ingest test');

const DAY = 24 * 60 * 60 * 1000;
const SITE = 'https://shop.example.com';
/** The small campaigns' session limit, and how many visitors arrive at once at each. */
const LIMIT = 4;
const BURST = 8;

/** Processes that keep the CPU busy while they run (the machine of a busy deployment or CI). */
function spinners(count: number): { stop(): Promise<void> } {
  const children: ChildProcess[] = Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  return {
    stop: () =>
      Promise.all(
        children.map((child) =>
          child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve).kill('SIGKILL')) : null,
        ),
      ).then(() => undefined),
  };
}

/** Resolves once `done()` holds, looking again on each turn of the event loop's timers. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
}

interface Answered {
  campaignId: string;
  session: string;
  seq: number;
  status: number;
  retryAfter: string | null;
  body: string;
}

describe.skipIf(!usingPostgres())('ingest on two busy nodes on one PostgreSQL', { timeout: 180_000 }, () => {
  let cluster: Cluster;
  let owner: SignedIn;
  const busy: ReturnType<typeof spinners>[] = [];

  beforeAll(async () => {
    const unlimited = '1000000';
    cluster = await startCluster(process.env.TEST_DATABASE_URL as string, {
      RATE_NEW_SESSIONS_PER_IP: unlimited,
      RATE_BATCHES_PER_IP: unlimited,
      RATE_NEW_SESSIONS_PER_CAMPAIGN: unlimited,
    });
    owner = await signIn({ url: cluster.url, config: { publicUrl: cluster.url } }, { name: 'Ada Load', email: 'ada@load.test' });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(busy.map((spinning) => spinning.stop()));
    await cluster?.close();
  });

  const call = (path: string, method: string, body: unknown) =>
    fetch(`${cluster.url}${path}`, { method, headers: { ...owner.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  async function createCampaign(name: string, limit: number): Promise<string> {
    const response = await call('/api/v1/campaign/create', 'POST', {
      name,
      domains: 'shop.example.com',
      limit,
      start_date_time: Date.now() - DAY,
      end_date_time: Date.now() + DAY,
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { data: { id: string } }).data.id;
  }

  /**
   * A visitor's tab: its batches one after another, as the tracker sends them. A 503 is sent
   * again after its Retry-After, as the tracker does; a refusal stops the tab.
   */
  async function visit(campaignId: string, batches: number, answers: Answered[]): Promise<void> {
    const session = sessionId();
    const start = Date.now() - 60_000;
    // A batch answered 503 more than a few times in a row is given up (the test must end).
    for (let seq = 0, tries = 0; seq < batches && tries < 5;) {
      const batch = { sessionId: session, seq, ...(seq === 0 ? { info: info() } : {}), events: pageEvents(start + seq * 5_000) };
      const response = await fetch(`${cluster.url}/api/v1/ingest/${campaignId}`, {
        method: 'POST',
        body: new Uint8Array(zlib.gzipSync(JSON.stringify(batch))),
        headers: { 'content-type': 'text/plain', origin: SITE },
      });
      const retryAfter = response.headers.get('retry-after');
      answers.push({ campaignId, session, seq, status: response.status, retryAfter, body: await response.text() });
      tries++;
      if (response.status === 503 && retryAfter) await new Promise((resolve) => setTimeout(resolve, Number(retryAfter) * 1000));
      else if (response.status >= 300) return;
      else {
        seq++;
        tries = 0;
      }
    }
  }

  it('answers every batch 2xx, 4xx or a retryable 503 and loses none acknowledged, with the CPU busy', async () => {
    const open = await createCampaign('Open', 0);
    const small = await Promise.all(Array.from({ length: 10 }, (_, i) => createCampaign(`Small ${i}`, LIMIT)));
    const edited = await createCampaign('Edited meanwhile', 0);
    const answers: Answered[] = [];
    // New visitors keep arriving while earlier ones send their next batches: new and continuing
    // sessions are written together. More visitors than places arrive at once at each small
    // campaign: its last places are taken both by the nodes' shared statements and by their
    // transactions (which deadlocked).
    const tabs = Array.from({ length: 40 }, (_, i) => [
      () => visit(open, 3, answers),
      ...(i % 3 === 0 ? [() => visit(edited, 3, answers)] : []),
      ...(i % 4 === 0 ? Array.from({ length: BURST }, () => () => visit(small[i / 4], 2, answers)) : []),
    ]).flat();

    busy.push(spinners(2));
    const began = Date.now();
    const visits: Promise<void>[] = [];
    let visited = false;
    const arrivals = (async () => {
      for (const [i, tab] of tabs.entries()) {
        if (i % 15 === 0) await until(() => answers.length >= i / 2);
        visits.push(tab());
      }
      await Promise.all(visits);
      visited = true;
    })();
    // The owner changes the rules batches are judged by while they arrive (on either node), as an
    // owner edits: now and then, not in a loop.
    const edits = (async () => {
      for (let i = 1; i <= 3; i++) {
        await until(() => answers.length >= i * 60 || visited);
        const response = await call(`/api/v1/campaign/update/${edited}`, 'PATCH', {
          captureConsole: i % 2 === 0,
          domains: i % 2 === 1 ? 'shop.example.com, other.example.com' : 'shop.example.com',
        });
        expect(response.status).toBe(200);
      }
    })();
    await Promise.all([arrivals, edits]);
    const took = Date.now() - began;
    await busy.pop()?.stop();

    expect(answers.length).toBeGreaterThan(250);
    // Never a 500; a 503 only with a Retry-After (the tracker sends the batch again), with what
    // the nodes logged, to tell why.
    const failed = answers.filter((a) => a.status >= 500 && !(a.status === 503 && a.retryAfter));
    const errors = () =>
      cluster.nodes.flatMap((node) =>
        node
          .stdout()
          .split('\n')
          .filter((line) => line.includes('"level":50')),
      );
    expect({ failed, errors: failed.length ? errors() : [] }).toEqual({ failed: [], errors: [] });
    // 202: the edited campaign captures no console messages for a while.
    expect([...new Set(answers.map((a) => a.status))].filter((status) => ![200, 202, 403, 503].includes(status))).toEqual([]);
    // Refused only for the session limit, only new sessions of the nearly full campaign.
    for (const refused of answers.filter((a) => a.status === 403)) {
      expect(small).toContain(refused.campaignId);
      expect(refused).toMatchObject({ seq: 0, body: JSON.stringify({ error: 'Session limit reached for this campaign' }) });
    }

    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
    try {
      const { rows: chunks } = await client.query<{ campaign_id: string; session_id: string; seq: number }>('select campaign_id, session_id, seq from chunks');
      const stored = new Set(chunks.map((c) => `${c.campaign_id}/${c.session_id}/${c.seq}`));
      const acknowledged = answers.filter((a) => a.status < 300).map((a) => `${a.campaignId}/${a.session}/${a.seq}`);
      expect(acknowledged.filter((key) => !stored.has(key))).toEqual([]);
      // Nothing of a refused session, and each campaign's count is its sessions.
      for (const campaignId of small) {
        const { rows: sessions } = await client.query<{ id: string }>('select id from sessions where campaign_id = $1', [campaignId]);
        const admitted = answers.filter((a) => a.campaignId === campaignId && a.seq === 0 && a.status < 300).map((a) => a.session);
        expect(sessions.map((row) => row.id).sort()).toEqual(admitted.sort());
        expect(admitted).toHaveLength(LIMIT);
        const { rows } = await client.query<{ session_count: number }>('select session_count from campaigns where id = $1', [campaignId]);
        expect(rows[0].session_count).toBe(LIMIT);
      }
    } finally {
      await client.end();
    }
    // Bounded: the load is a test, not a benchmark (the machine is busy on purpose).
    expect(took).toBeLessThan(60_000);
  });
});
