import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, type TestServer } from '../helpers/server.js';
import { openDb, type Db } from '../../server/db/index.js';
import { upsertUser } from '../../server/auth/users.js';
import { makeCampaign, sessionId, info, pageEvents } from './ingest-support.js';
import { spawnServer } from './spawn-server.js';

// Graceful shutdown of the real process: on SIGTERM it stops accepting, lets a request in flight
// finish, ends what is still running after the grace period, and exits 0. The process runs on
// SQLite whatever TEST_DATABASE_URL says: shutdown does not depend on the database.

/** A raw HTTP/1.1 client for one request whose body is sent when the test says so. */
function slowUpload(port: number, target: string, body: string) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  socket.on('error', () => undefined);
  const seen = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (pattern.test(received)) {
          socket.off('data', check);
          resolve();
        }
      };
      socket.on('data', check);
    });
  socket.on('data', (data: string) => (received += data));
  const head = [
    `POST ${target} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Origin: https://shop.example.com',
    'Content-Type: text/plain',
    `Content-Length: ${Buffer.byteLength(body)}`,
    // The server answers "100 Continue" once it has read the headers: the request is in flight.
    'Expect: 100-continue',
    '',
    '',
  ].join('\r\n');
  const half = Math.floor(body.length / 2);
  return {
    /** Sends the headers and half the body, once the server has taken the request in. */
    async start() {
      socket.write(head);
      await seen(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
      socket.write(body.slice(0, half));
    },
    // The rest of the body, on a connection kept open as a browser keeps it (not half-closed).
    finish: () => socket.write(body.slice(half)),
    answered: () => seen(/\r\n\r\n\{.*\}$/s).then(() => received),
    closed,
  };
}

// A real server process (TypeScript compiled on the fly) and a 5 s grace period.
describe('graceful shutdown', { timeout: 90_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-shutdown-'));
  let db: Db | undefined;
  afterAll(async () => {
    await db?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('on SIGTERM finishes the request in flight (200), ends one that never finishes after the grace period, and exits 0', async () => {
    const port = await freePort();
    const server = spawnServer({ PORT: String(port), DATA_DIR: dir, SHUTDOWN_GRACE_MS: '5000' });
    try {
      await server.printed(/^Tapedeck is running/);
      db = openDb({ dataDir: dir });
      const ownerId = await upsertUser(db, { subject: 'test|sam@example.test', name: 'Sam Shutdown', email: 'sam@example.test', picture: null });
      const campaignId = await makeCampaign({ db } as TestServer, { ownerId });
      const inFlightSession = sessionId();
      const batch = JSON.stringify({ sessionId: inFlightSession, seq: 0, info: info(), events: pageEvents() });
      const target = `/api/v1/ingest/${campaignId}`;
      // A server that has taken a batch before: the pack worker's cold start (slow on a busy
      // machine) is not what the grace period is for, and could outlast it.
      const warmUp = JSON.stringify({ sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() });
      const warm = await fetch(`http://127.0.0.1:${port}${target}`, {
        method: 'POST',
        headers: { origin: 'https://shop.example.com', 'content-type': 'text/plain' },
        body: warmUp,
      });
      expect(warm.status).toBe(200);

      const inFlight = slowUpload(port, target, batch);
      const neverEnding = slowUpload(port, target, batch);
      await inFlight.start();
      await neverEnding.start();

      server.child.kill('SIGTERM');
      await server.printed(/^SIGTERM: finishing requests in flight/);
      // No new work is taken on.
      const late = await fetch(`http://127.0.0.1:${port}/api/v1/auth/me`).then(
        (res) => res.status,
        () => 'refused',
      );
      expect(['refused', 503]).toContain(late);

      inFlight.finish();
      const answer = await inFlight.answered();
      expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
      expect(answer).toMatch(/\{"stored":true\}$/);

      // The other never sends the rest: it is ended after the grace period, then the process exits.
      expect(await neverEnding.closed).not.toMatch(/HTTP\/1\.1 200 /);
      expect(await server.exited).toBe(0);
      expect(server.stderr()).toContain('requests still running after 5 s: ending them');
      const stored = await db.selectFrom('chunks').select('seq').where('campaign_id', '=', campaignId).where('session_id', '=', inFlightSession).execute();
      expect(stored).toHaveLength(1);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  });
});
