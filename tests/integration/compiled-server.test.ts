import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.mjs';
import { freePort, type TestServer } from '../helpers/server.js';
import { signIn } from '../helpers/signin.js';
import { INLINE_MAX_BYTES } from '../../server/ingest/pack.js';
import { createCampaign, info, pageEvents, sessionId } from './ingest-support.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';

// What `npm start` runs: the server built by scripts/build-server.mjs, started with plain node (no
// TypeScript loader), with its workers and assets beside it. The process runs on SQLite whatever
// TEST_DATABASE_URL says: what is checked is the build, not the database.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PASSWORD = 'analytical engine';

/** `npm run user -- add …`, compiled: node runs user.js from the build. */
function addAccount(built: string, dataDir: string, email: string, name: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(built, 'user.js'), 'add', email, name], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATA_DIR: dataDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  child.stdin.end(`${PASSWORD}\n`);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('the compiled server (node dist/server/main.js)', { timeout: 120_000 }, () => {
  // Inside the project, as dist/server is: the build's packages resolve from node_modules.
  const built = fs.mkdtempSync(path.join(root, 'dist', 'compiled-test-'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-compiled-'));
  let server: ServerProcess;
  let reach: TestServer;

  beforeAll(async () => {
    await buildServer(built);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    server = spawnServer({ PORT: String(port), DATA_DIR: dataDir, PUBLIC_URL: url, SIGNUP: 'closed' }, {}, [path.join(built, 'main.js')]);
    await server.printed(/^Tapedeck is running/);
    reach = { url, config: { publicUrl: url } } as TestServer;
  }, 120_000);
  afterAll(async () => {
    if (server?.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    fs.rmSync(built, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers /healthz and /readyz, and serves the demo recording it reads from beside itself', async () => {
    const ready = await fetch(`${reach.url}/readyz`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { ok: true } });
    expect((await fetch(`${reach.url}/healthz`)).status).toBe(200);
    const demo = await fetch(`${reach.url}/api/v1/replay/retrieve/demo`);
    expect(demo.status).toBe(200);
    expect(((await demo.json()) as { data: unknown[] }).data.length).toBeGreaterThan(2);
  });

  it('signs in an account made by the compiled user command, and stores a batch packed by the built worker', async () => {
    const added = await addAccount(built, dataDir, 'ada@example.test', 'Ada Lovelace');
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const owner = await signIn(reach, { name: '', email: 'ada@example.test', password: PASSWORD });
    expect(owner.user.email).toBe('ada@example.test');

    const campaign = await createCampaign(reach, owner.headers, 'Compiled');
    const id = sessionId();
    // Past the inline size, so a worker thread (dist/server/pack-worker.cjs) packs it.
    const [meta, snapshot, click] = pageEvents();
    const large = {
      ...snapshot,
      data: { ...snapshot.data, node: { type: 0, id: 1, childNodes: [{ type: 3, id: 2, textContent: 'x'.repeat(INLINE_MAX_BYTES * 2) }] } },
    };
    const batch = {
      sessionId: id,
      seq: 0,
      info: info({ url: 'https://example.com/' }),
      events: [{ ...meta, data: { ...meta.data, href: 'https://example.com/' } }, large, click],
    };
    const posted = await fetch(`${reach.url}/api/v1/ingest/${campaign.id}`, {
      method: 'POST',
      body: new Uint8Array(zlib.gzipSync(JSON.stringify(batch))),
      headers: { 'content-type': 'text/plain', origin: 'https://example.com' },
    });
    expect({ status: posted.status, body: await posted.json() }).toEqual({ status: 200, body: { stored: true } });

    const replay = await fetch(`${reach.url}/api/v1/replay/retrieve/${campaign.id}/${id}`, { headers: owner.headers });
    expect(replay.status).toBe(200);
    const events = ((await replay.json()) as { events: { type: number }[] }).events;
    expect(events.map((event) => event.type)).toEqual([4, 2, 3]);
    expect(JSON.stringify(events[1])).toContain('x'.repeat(INLINE_MAX_BYTES * 2));
  });
});
