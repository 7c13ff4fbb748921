import net from 'node:net';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// REDIS_URL: rate-limit counters in Redis, shared by every node. Runs where a Redis answers
// (TEST_REDIS_URL, else the machine's own at 127.0.0.1:6379); elsewhere it says why it is skipped,
// and with REQUIRE_REDIS=1 (CI) a missing Redis fails the file instead.
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const redisAnswers = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(redisUrl);
  const socket = net.connect({ host: hostname, port: Number(port || 6379) });
  socket.setTimeout(2_000);
  socket.once('connect', () => resolve(true));
  socket.once('error', () => resolve(false));
  socket.once('timeout', () => resolve(false));
});
if (!redisAnswers) {
  const message = `Redis rate-limit tests skipped: no Redis answers at ${redisUrl} (set TEST_REDIS_URL)`;
  if (process.env.REQUIRE_REDIS === '1') throw new Error(`REQUIRE_REDIS=1 but ${message}`);
  console.warn(`\n${'!'.repeat(message.length)}\n${message}\n${'!'.repeat(message.length)}\n`);
}

describe.skipIf(!redisAnswers)('rate limits in Redis (REDIS_URL)', () => {
  const LIMIT = 3;
  const nodes: TestServer[] = [];
  beforeAll(async () => {
    // Two servers that share nothing but Redis: whatever each counts alone, the limit is one.
    for (let i = 0; i < 2; i++) nodes.push(await startServer({ REDIS_URL: redisUrl, TRUST_PROXY: '1', RATE_REFRESH_PER_IP: String(LIMIT) }));
  });
  afterAll(async () => {
    for (const node of nodes) await node.close();
  });

  it(`counts a limit of ${LIMIT} a minute once for both servers`, async () => {
    // A visitor address of its own, so no other run's counter is ours.
    const ip = `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 2 * LIMIT; i++) {
      const node = nodes[i % 2];
      const response = await fetch(`${node.url}/api/v1/auth/refresh`, { method: 'POST', headers: { origin: node.config.publicUrl, 'x-forwarded-for': ip } });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
  });
});
