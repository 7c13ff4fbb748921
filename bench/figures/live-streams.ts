// Figure: live replay streams nobody reads. Four accounts each open 20 live replays (the most one
// user may hold) of their own worst-ordered session and never read a byte; a stream the server
// closes is opened again a second later, as an attacker would. Measured over a fixed window: the
// server's peak RSS over its idle RSS, and the p99 of the owner API (GET /api/v1/auth/me, one call
// after another) meanwhile, beside the same window with no streams. The server runs in a child
// process with the default settings, a fresh one per run (one in all with --quick), on a SQLite
// directory seeded beforehand.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { budgetOf, stats, type BenchOptions, type Row } from '../lib.js';
import { percentile, timedGet } from '../support/http.js';
import { createCampaign } from '../support/seed.js';
import { serverPerMeasurement, watchRss, type OnServer } from './replay-memory.js';
import { openDb, migrate } from '../../server/db/index.js';
import { upsertUser } from '../../server/auth/users.js';
import { createSessionTokens, ACCESS_COOKIE } from '../../server/auth/tokens.js';
import { storeWorstSession } from '../../tests/helpers/worst-session.js';

export const title = 'Live replay streams that never read';

const MB = 1024 * 1024;
const ACCOUNTS = 4;
const STREAMS_PER_ACCOUNT = 20;
const SESSION_ID = 'bench-live-worst';
/** How long each run holds the streams open: the run stops by itself. */
const windowFor = (quick: boolean) => (quick ? 3000 : 10_000);
const REOPEN_MS = 1000;

interface Seeded {
  dataDir: string;
  sessionSecret: string;
  accounts: { cookie: string; campaignId: string }[];
  jsonBytes: number;
}

/** Four accounts, each with a campaign holding one worst-ordered session still in progress. */
async function seed(sessionBytes: number): Promise<Seeded> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-bench-live-'));
  const sessionSecret = crypto.randomBytes(32).toString('hex');
  const keys = { key: new TextEncoder().encode(sessionSecret), secure: false };
  const db = openDb({ dataDir });
  try {
    await migrate(db);
    const accounts: Seeded['accounts'] = [];
    let jsonBytes = 0;
    for (let a = 0; a < ACCOUNTS; a++) {
      const userId = await upsertUser(db, { subject: `bench|live-${a}`, name: `Live ${a}`, email: `live${a}@bench.test`, picture: null });
      const { access } = await createSessionTokens(db, keys, userId);
      const campaignId = await createCampaign(db, userId, '127.0.0.1');
      const chunks = 128;
      ({ jsonBytes } = await storeWorstSession(db, campaignId, SESSION_ID, {
        chunks,
        eventsPerChunk: Math.round(sessionBytes / 333 / chunks),
        pad: 250,
        asReceived: 4,
      }));
      accounts.push({ cookie: `${ACCESS_COOKIE}=${access}`, campaignId });
    }
    return { dataDir, sessionSecret, accounts, jsonBytes };
  } finally {
    await db.destroy();
  }
}

/** Keeps a live stream open that never reads; opened again a second after the server closes it, until stopped. */
function unreadStream(url: string, cookie: string): () => void {
  let stopped = false;
  let request: http.ClientRequest | undefined;
  let timer: NodeJS.Timeout | undefined;
  const open = () => {
    if (stopped) return;
    request = http.get(url, { headers: { cookie, accept: 'text/event-stream' } }, (response) => {
      // No 'data' listener: the body is never read; its end (or a refusal's) is still noticed.
      response.socket.once('close', again);
    });
    request.on('error', again);
  };
  const again = () => {
    if (!stopped && !timer) timer = setTimeout(() => ((timer = undefined), open()), REOPEN_MS);
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    request?.destroy();
  };
}

/** Owner API calls one after another until `until`; their durations in ms. */
async function apiTimes(base: string, cookie: string, until: number): Promise<number[]> {
  const times: number[] = [];
  while (Date.now() < until) {
    const answer = await timedGet(`${base}/api/v1/auth/me`, { cookie });
    if (answer.status !== 200) throw new Error(`GET /api/v1/auth/me answered ${answer.status}`);
    times.push(answer.lastByteMs);
  }
  return times;
}

/** One window: the peak RSS over idle (MB) and the API's p99 (ms), with or without the streams. */
function measure(onServer: OnServer, seeded: Seeded, withStreams: boolean, windowMs: number): Promise<{ rss: number; p99: number }> {
  return onServer(async (child, base) => {
    const overIdle = await watchRss(child);
    const stops: (() => void)[] = [];
    try {
      if (withStreams) {
        for (const { cookie, campaignId } of seeded.accounts) {
          for (let s = 0; s < STREAMS_PER_ACCOUNT; s++) stops.push(unreadStream(`${base}/api/v1/replay/live/${campaignId}/${SESSION_ID}`, cookie));
        }
      }
      const times = await apiTimes(base, seeded.accounts[0].cookie, Date.now() + windowMs);
      return { rss: overIdle(), p99: percentile(times, 99) };
    } finally {
      overIdle();
      for (const stop of stops) stop();
    }
  });
}

export async function run(options: BenchOptions): Promise<Row[]> {
  const seeded = await seed(options.quick ? 4 * MB : 32 * MB);
  const span = windowFor(options.quick);
  try {
    const rss: number[] = [];
    const p99: number[] = [];
    const idleRss: number[] = [];
    const idleP99: number[] = [];
    // In a full run each window is a fresh server process: no warm-up, whose heap would shape the next one's.
    await serverPerMeasurement(seeded, options, async (onServer) => {
      for (let i = 0; i < options.runs; i++) {
        const quiet = await measure(onServer, seeded, false, span);
        idleRss.push(quiet.rss);
        idleP99.push(quiet.p99);
        const loaded = await measure(onServer, seeded, true, span);
        rss.push(loaded.rss);
        p99.push(loaded.p99);
      }
    });
    const label = `${ACCOUNTS} accounts × ${STREAMS_PER_ACCOUNT} streams, ${(seeded.jsonBytes / MB).toFixed(0)} MB worst-ordered session each, ${span / 1000} s`;
    const baseline = 'same window, no streams';
    return [
      { group: title, name: `peak RSS over idle (${label})`, unit: 'MB', ours: stats(rss), baseline: { name: baseline, stats: stats(idleRss) }, budget: 200 },
      {
        group: title,
        name: `owner API p99 meanwhile (GET /api/v1/auth/me)`,
        unit: 'ms',
        ours: stats(p99),
        baseline: { name: baseline, stats: stats(idleP99) },
        // The p99 of --quick's few hundred calls in a short window is the busy machine's noise.
        ...budgetOf(options, 5, 'ratio'),
      },
    ];
  } finally {
    fs.rmSync(seeded.dataDir, { recursive: true, force: true });
  }
}
