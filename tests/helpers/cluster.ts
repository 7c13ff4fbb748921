import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { freePort } from './server.js';
import { spawnServer, type ServerProcess } from '../integration/spawn-server.js';

export interface Served {
  node: number;
  method: string;
  path: string;
}

/** A load balancer at its plainest: each request to the next node in turn (a dead node answers 502). */
export function roundRobin(ports: number[]) {
  const served: Served[] = [];
  let next = 0;
  const server = http.createServer((request, response) => {
    const node = next++ % ports.length;
    served.push({ node, method: request.method ?? 'GET', path: request.url ?? '/' });
    const upstream = http.request({ host: '127.0.0.1', port: ports[node], method: request.method, path: request.url, headers: request.headers }, (answer) => {
      // Hop-by-hop headers stay on their hop: the node's "Keep-Alive: timeout=65" passed on made
      // clients keep idle connections to the proxy longer than the proxy does (5 s), so under
      // load a request went out on a connection the proxy had just closed (ECONNRESET).
      const { connection: _connection, 'keep-alive': _keepAlive, ...headers } = answer.headers;
      response.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(response);
      // A node that dies mid-answer (a live stream) drops the client's connection too.
      answer.on('close', () => answer.complete || response.destroy());
    });
    upstream.on('error', () => (response.headersSent ? response.destroy() : response.writeHead(502).end()));
    request.pipe(upstream);
  });
  return { server, served };
}

export interface Cluster {
  /** The proxy's URL (also every node's PUBLIC_URL). */
  url: string;
  /** The nodes' database, to check what they stored. */
  databaseUrl: string;
  nodes: ServerProcess[];
  nodeUrls: string[];
  served: Served[];
  close(): Promise<void>;
}

/**
 * Two (or more) server processes on a fresh PostgreSQL database (dropped on close) behind a
 * round-robin proxy, sharing nothing but DATABASE_URL. `env` adds settings to every node; `args`,
 * node's arguments (spawnServer's: server/main.ts through tsx unless told).
 */
export async function startCluster(adminUrl: string, env: Record<string, string> = {}, count = 2, args?: string[]): Promise<Cluster> {
  const database = `cluster_${crypto.randomBytes(6).toString('hex')}`;
  const admin = () => new pg.Client({ connectionString: adminUrl });
  const client = admin();
  await client.connect();
  await client.query(`create database ${database}`);
  await client.end();
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const proxy = roundRobin(ports);
  await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
  const dataDirs: string[] = [];
  const nodes = ports.map((port) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-node-'));
    dataDirs.push(dataDir);
    return spawnServer({ PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: databaseUrl.href, PUBLIC_URL: url, ...env }, {}, args);
  });
  await Promise.all(nodes.map((node) => node.printed(/Tapedeck is running/)));
  return {
    url,
    databaseUrl: databaseUrl.href,
    nodes,
    nodeUrls: ports.map((port) => `http://127.0.0.1:${port}`),
    served: proxy.served,
    async close() {
      for (const node of nodes) if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGTERM');
      await Promise.all(nodes.map((node) => node.exited));
      proxy.server.closeAllConnections();
      await new Promise((resolve) => proxy.server.close(resolve));
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
      const end = admin();
      await end.connect();
      await end.query(`drop database if exists ${database} with (force)`);
      await end.end();
    },
  };
}
