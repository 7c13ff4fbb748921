// Figure: the server's peak RSS (over its idle RSS) while three owners retrieve a maximum-size
// session at once (SESSION_MAX_MB of event JSON, 64 MB by default) stored in the worst order a
// sender can choose — every chunk spanning the whole session — beside the same session stored in
// order, in the same run. The server runs in a child process, a fresh one for each measurement
// (one for the whole figure in --quick), on a database seeded beforehand; its RSS is read from /proc.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import os from 'node:os';
import crypto from 'node:crypto';
import { fork, type ChildProcess } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { repeat, stats as statsOf, type BenchOptions, type Row, type Stats } from '../lib.js';
import { loadConfig } from '../../server/config.js';
import { openDb, migrate } from '../../server/db/index.js';
import { upsertUser } from '../../server/auth/users.js';
import { createSessionTokens, ACCESS_COOKIE, REFRESH_COOKIE } from '../../server/auth/tokens.js';
import { createCampaign } from '../support/seed.js';
import { storeWorstSession, type WorstSession } from '../../tests/helpers/worst-session.js';
import type { ReplayServerSetup } from '../support/replay-server-process.js';

export const title = 'Maximum-size session retrieval';

const MB = 1024 * 1024;
const AT_ONCE = 3;

/** A process's resident set from /proc, in bytes: its current size or its high-water mark. */
export function procRss(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!kb) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(kb[1]) * 1024;
}

/** Resets the high-water mark, where the kernel allows it; else sampling alone measures the peak. */
export function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export function nextMessage<T>(child: ChildProcess, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the replay server exited with ${code}`));
    const onMessage = (message: Record<string, unknown>) => {
      if (!(key in message) && !('error' in message)) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      if ('error' in message) reject(new Error(`replay server: ${String(message.error)}`));
      else resolve(message[key] as T);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Reads a whole answer (gzip, as browsers ask), keeping its body only when asked. */
function retrieve(url: string, cookie: string, keep = false): Promise<{ status: number; body?: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie, 'accept-encoding': 'gzip' } }, (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => keep && parts.push(part));
        response.on('error', reject);
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: keep ? Buffer.concat(parts) : undefined }));
      })
      .on('error', reject);
  });
}

/** Chunks of the stored session; each event's JSON is about pad + 83 bytes. */
const CHUNKS = 256;
const PAD = 250;
const EVENT_BYTES = PAD + 83;

interface Seeded {
  dataDir: string;
  sessionSecret: string;
  cookie: string;
  campaignId: string;
  eventCount: number;
  jsonBytes: number;
}

/** A SQLite data directory holding an owner, a campaign and the session twice: worst-ordered and in order. */
async function seed(sessionBytes: number): Promise<Seeded> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-bench-replay-'));
  const sessionSecret = crypto.randomBytes(32).toString('hex');
  const db = openDb({ dataDir });
  try {
    await migrate(db);
    const userId = await upsertUser(db, { subject: 'bench|replay-memory', name: 'Bench Owner', email: 'owner@bench.test', picture: null });
    const keys = { key: new TextEncoder().encode(sessionSecret), secure: false };
    const { access, refresh } = await createSessionTokens(db, keys, userId);
    const campaignId = await createCampaign(db, userId, '127.0.0.1');
    const shape: WorstSession = { chunks: CHUNKS, eventsPerChunk: Math.round(sessionBytes / EVENT_BYTES / CHUNKS), pad: PAD, asReceived: 4 };
    const worst = await storeWorstSession(db, campaignId, SESSIONS.worst, shape);
    await storeWorstSession(db, campaignId, SESSIONS.inOrder, { ...shape, inOrder: true });
    return { dataDir, sessionSecret, cookie: `${ACCESS_COOKIE}=${access}; ${REFRESH_COOKIE}=${refresh}`, campaignId, ...worst };
  } finally {
    await db.destroy();
  }
}

const SESSIONS = { worst: 'bench-worst-ordered', inOrder: 'bench-in-order' } as const;

/** A fresh server process on the seeded directory, for one measurement (this figure's and live-streams'). */
/**
 * Watches a server process's memory from idle (it is asked to collect garbage first). The
 * returned function stops the watch and answers the peak RSS over idle, in MB.
 */
export async function watchRss(child: ChildProcess): Promise<() => number> {
  const askIdle = nextMessage<number>(child, 'rss');
  child.send('idle');
  await askIdle;
  const pid = child.pid!;
  const exact = resetPeak(pid);
  const idle = procRss(pid, 'VmRSS');
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, procRss(pid, 'VmRSS'))), 10);
  return () => {
    clearInterval(sampler);
    if (exact) peak = Math.max(peak, procRss(pid, 'VmHWM'));
    return (peak - idle) / MB;
  };
}

export async function withServerProcess<T>(seeded: ReplayServerSetup, use: (child: ChildProcess, url: string) => Promise<T>): Promise<T> {
  const child = fork(path.join(import.meta.dirname, '..', 'support', 'replay-server-process.ts'), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const ready = nextMessage<string>(child, 'ready');
    child.send({ dataDir: seeded.dataDir, sessionSecret: seeded.sessionSecret } satisfies ReplayServerSetup);
    return await use(child, await ready);
  } finally {
    if (child.connected) child.disconnect();
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  }
}

/** Runs `use` on a server process: in a full run a fresh one per call, in --quick the figure's one process. */
export type OnServer = <T>(use: (child: ChildProcess, url: string) => Promise<T>) => Promise<T>;

/**
 * A full run starts a fresh server process for each measurement, so no earlier one shapes its heap;
 * --quick starts one for the whole figure (each measurement still starts from idle after a full GC).
 */
export function serverPerMeasurement<T>(seeded: ReplayServerSetup, options: BenchOptions, measureAll: (onServer: OnServer) => Promise<T>): Promise<T> {
  if (!options.quick) return measureAll((use) => withServerProcess(seeded, use));
  return withServerProcess(seeded, (child, url) => measureAll((use) => use(child, url)));
}

export async function run(options: BenchOptions): Promise<Row[]> {
  const sessionBytes = options.quick ? 4 * MB : loadConfig({}).limits.sessionMaxBytes;
  const seeded = await seed(sessionBytes);
  try {
    return await serverPerMeasurement(seeded, options, (onServer) => measureBoth(seeded, options, onServer));
  } finally {
    fs.rmSync(seeded.dataDir, { recursive: true, force: true });
  }
}

async function measureBoth(seeded: Seeded, options: BenchOptions, onServer: OnServer): Promise<Row[]> {
  const url = (base: string, sessionId: string) => `${base}/api/v1/replay/retrieve/${seeded.campaignId}/${sessionId}`;

  /** One measurement: every retrieval at once; the peak RSS over idle in MB and the time until all answered. */
  const measure = (sessionId: string, times: number[]) =>
    onServer(async (child, base) => {
      const overIdle = await watchRss(child);
      const started = performance.now();
      let rss: number;
      try {
        const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => retrieve(url(base, sessionId), seeded.cookie)));
        const failed = answers.find((a) => a.status !== 200);
        if (failed) throw new Error(`a retrieval answered ${failed.status}`);
      } finally {
        rss = overIdle();
      }
      times.push(performance.now() - started);
      return rss;
    });

  const label = `${AT_ONCE} at once, ${(seeded.jsonBytes / MB).toFixed(0)} MB of event JSON`;
  const measured = new Map<keyof typeof SESSIONS, { rss: Stats; time: Stats }>();
  for (const kind of ['inOrder', 'worst'] as const) {
    // One check outside the measurements: the answer holds every stored event.
    await onServer(async (_child, base) => {
      const check = await retrieve(url(base, SESSIONS[kind]), seeded.cookie, true);
      const events = (JSON.parse(gunzipSync(check.body!).toString('utf8')) as { events: unknown[] }).events.length;
      if (check.status !== 200 || events !== seeded.eventCount) throw new Error(`${kind}: ${check.status}, ${events} of ${seeded.eventCount} events`);
    });
    const times: number[] = [];
    // No warm-up: in a full run each measurement is a fresh process, whose heap a warm-up would not shape.
    const rss = await repeat(options.runs, () => measure(SESSIONS[kind], times), false);
    measured.set(kind, { rss, time: statsOf(times) });
  }
  const worst = measured.get('worst')!;
  const inOrder = measured.get('inOrder')!;
  return [
    {
      group: title,
      name: `peak RSS over idle, worst-ordered session (${label})`,
      unit: 'MB',
      ours: worst.rss,
      baseline: { name: 'same session stored in order', stats: inOrder.rss },
      // Two merges at once (HEAVY_REPLAYS) of at most 16 MB open each, with room for zlib and
      // the garbage collector; the whole-session sort this replaced took gigabytes.
      budget: 160,
    },
    {
      group: title,
      name: `time until all are answered, worst-ordered session (${label})`,
      unit: 'ms',
      ours: worst.time,
      baseline: { name: 'same session stored in order', stats: inOrder.time },
    },
  ];
}
