// Figure 3b: ingest batches/s with 2 server processes vs 1, on one fresh PostgreSQL database,
// behind a round-robin proxy (the same proxy, with one upstream, for the single node), and the
// events lost (acknowledged − stored) with two nodes writing at once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { stats, type BenchOptions, type Row } from '../lib.js';
import { postgresUrl } from '../support/server.js';
import { createCampaign } from '../support/seed.js';
import { LoadGenerator, type LoadResult } from '../support/load.js';
import { CONNECTIONS, ingestOnce, storedEvents } from './ingest.js';
import { freePort } from '../../tests/helpers/server.js';
import { spawnServer, type ServerProcess } from '../../tests/integration/spawn-server.js';
import { openDb, type Db } from '../../server/db/index.js';
import { upsertUser } from '../../server/auth/users.js';

export const title = 'Ingest, 2 nodes vs 1';

/** Each request to the next node in turn, over kept-alive connections. */
function roundRobin(ports: number[]): http.Server {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let next = 0;
  return http.createServer((request, response) => {
    const port = ports[next++ % ports.length];
    const upstream = http.request({ host: '127.0.0.1', port, method: request.method, path: request.url, headers: request.headers, agent }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.writableEnded || response.writeHead(502).end());
    request.pipe(upstream);
  });
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Cluster {
  db: Db;
  nodes: ServerProcess[];
  ports: number[];
  close(): Promise<void>;
}

/**
 * Two server processes on one fresh database (only the first serves the single-node runs). A full
 * run starts them through tsx; --quick starts the compiled server (dist/server/main.js, the same
 * code as `npm start` runs), which starts in a fraction of tsx's time on a busy machine.
 */
async function startCluster(compiled: boolean): Promise<Cluster> {
  const database = `bench_nodes_${crypto.randomBytes(6).toString('hex')}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${database}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${database}`;
  const dirs: string[] = [];
  const ports = [await freePort(), await freePort()];
  const dist = path.resolve(import.meta.dirname, '..', '..', 'dist');
  const spawn = compiled ? (env: Record<string, string>) => spawnServer(env, {}, [path.join(dist, 'server', 'main.js')]) : spawnServer;
  const nodes = ports.map((port) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-bench-node-'));
    dirs.push(dataDir);
    return spawn({
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: url.href,
      DIST_DIR: dist,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'error',
      // The load comes from one address and measures throughput, not the limits on a sender.
      RATE_NEW_SESSIONS_PER_IP: '0',
      RATE_NEW_SESSIONS_PER_CAMPAIGN: '0',
      RATE_BATCHES_PER_SESSION: '0',
      RATE_BATCHES_PER_IP: '0',
      RATE_INGEST_MB_PER_IP: '0',
      RATE_INGEST_MB_PER_CAMPAIGN: '0',
    });
  });
  const db = openDb({ databaseUrl: url.href, dataDir: dirs[0] });
  try {
    await Promise.all(nodes.map((node) => node.printed(/Tapedeck is running/)));
  } catch (error) {
    for (const node of nodes) node.child.kill('SIGTERM');
    await db.destroy();
    await admin(`drop database if exists ${database} with (force)`);
    throw error;
  }
  return {
    db,
    nodes,
    ports,
    async close() {
      for (const node of nodes) node.child.kill('SIGTERM');
      await Promise.all(nodes.map((node) => node.exited));
      await db.destroy();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
      await admin(`drop database if exists ${database} with (force)`);
    },
  };
}

interface Sample {
  result: LoadResult;
  lost: number;
}

async function oneRun(load: LoadGenerator, cluster: Cluster, ownerId: string, nodes: number, sessions: number, tag: string): Promise<Sample> {
  const proxy = roundRobin(cluster.ports.slice(0, nodes));
  try {
    const url = await listen(proxy);
    const campaignId = await createCampaign(cluster.db, ownerId, 'shop.example.com', `Ingest ${tag}`);
    const result = await ingestOnce(load, url, campaignId, sessions, tag);
    return { result, lost: result.ackedEvents - (await storedEvents(cluster, campaignId)) };
  } finally {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
  }
}

export async function run(options: BenchOptions): Promise<Row[]> {
  const sessions = options.quick ? 20 : 400;
  const cluster = await startCluster(options.quick);
  const load = new LoadGenerator();
  try {
    const ownerId = await upsertUser(cluster.db, { subject: 'bench|nodes@bench.test', name: 'Bench Owner', email: 'nodes@bench.test', picture: null });
    // Each node's first batches (worker threads, connections) are not what is measured (--quick: no warm-up).
    if (!options.quick) await oneRun(load, cluster, ownerId, 2, 20, 'warmup');
    const one: Sample[] = [];
    const two: Sample[] = [];
    // Alternated, so the machine's other load falls on both alike.
    for (let run = 0; run < options.runs; run++) {
      one.push(await oneRun(load, cluster, ownerId, 1, sessions, `one-r${run}`));
      two.push(await oneRun(load, cluster, ownerId, 2, sessions, `two-r${run}`));
    }
    const rate = (s: Sample) => s.result.acked / s.result.seconds;
    const failed = [...one, ...two].reduce((sum, s) => sum + s.result.non2xx + s.result.errors + s.result.timeouts, 0);
    const label = `PostgreSQL, ${sessions} sessions, ${one[0].result.sent.toLocaleString('en-US')} gzip batches, ${CONNECTIONS} connections, round-robin proxy`;
    return [
      {
        group: 'Ingest',
        name: `ingest batches/s, 2 nodes vs 1 (${label})`,
        unit: '1/s',
        ours: stats(two.map(rate)),
        baseline: { name: '1 node, same proxy and bodies', stats: stats(one.map(rate)) },
      },
      {
        group: 'Ingest',
        name: 'events lost: acknowledged − stored (2 nodes, PostgreSQL)',
        unit: 'events',
        ours: stats(two.map((s) => s.lost)),
        budget: 0,
        note: failed ? `${failed} batches not acknowledged` : 'every batch acknowledged',
      },
    ];
  } finally {
    load.close();
    await cluster.close();
  }
}
