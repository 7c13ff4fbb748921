// Figure: what `npm start` costs to start: the compiled server (node dist/server/main.js, built by
// `npm run build`) against the same server run as TypeScript through tsx (as `npm start` did
// before, and development still does). Time from spawning the process to its first answer, and its
// resident memory once idle, both on SQLite with an empty data directory. Linux (/proc).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stats, type BenchOptions, type Row } from '../lib.js';
import { procRss } from './replay-memory.js';
import { freePort } from '../../tests/helpers/server.js';
import { spawnServer } from '../../tests/integration/spawn-server.js';

export const title = 'Server start';

const root = path.resolve(import.meta.dirname, '..', '..');
const MB = 1024 * 1024;
/** After the first answer the server warms its worker threads; its memory is read once that settled. */
const SETTLE_MS = 3000;

const COMMANDS = {
  compiled: [path.join(root, 'dist', 'server', 'main.js')],
  tsx: ['--import', 'tsx', path.join(root, 'server', 'main.ts')],
};

interface Start {
  firstAnswerMs: number;
  idleRssMb: number;
}

/** Starts one server, asks /healthz until it answers, then reads its idle RSS; stops it. */
async function startOnce(args: string[]): Promise<Start> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-bench-start-'));
  const port = await freePort();
  const started = performance.now();
  const server = spawnServer({ PORT: String(port), DATA_DIR: dataDir }, {}, args);
  try {
    for (;;) {
      if (server.child.exitCode !== null) throw new Error(`the server exited:\n${server.stderr()}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await sleep(5);
    }
    const firstAnswerMs = performance.now() - started;
    await sleep(SETTLE_MS);
    return { firstAnswerMs, idleRssMb: procRss(server.child.pid ?? 0, 'VmRSS') / MB };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Both measures over `runs` starts of each, the two commands taking turns (so a change in the
 * machine's load falls on both), after one warm-up start of each (which fills the file cache)
 * unless told not to (--quick).
 */
async function measure(runs: number, warmup: boolean) {
  const starts = { compiled: [] as Start[], tsx: [] as Start[] };
  for (let i = warmup ? 0 : 1; i <= runs; i++) {
    for (const kind of ['compiled', 'tsx'] as const) {
      const start = await startOnce(COMMANDS[kind]);
      if (i > 0) starts[kind].push(start);
    }
  }
  const measures = (of: Start[]) => ({ firstAnswer: stats(of.map((s) => s.firstAnswerMs)), idleRss: stats(of.map((s) => s.idleRssMb)) });
  return { compiled: measures(starts.compiled), tsx: measures(starts.tsx) };
}

export async function run(options: BenchOptions): Promise<Row[]> {
  // --quick: one start of each, no warm-up (a tsx start takes 5–25 s on a busy machine).
  const { compiled, tsx } = options.quick ? await measure(1, false) : await measure(options.runs, true);
  const baseline = 'same server as TypeScript through tsx (node --import tsx server/main.ts)';
  return [
    {
      group: title,
      name: 'spawn → first answer (GET /healthz), compiled (node dist/server/main.js), SQLite',
      unit: 'ms',
      ours: compiled.firstAnswer,
      baseline: { name: baseline, stats: tsx.firstAnswer },
    },
    {
      group: title,
      name: `idle RSS ${SETTLE_MS / 1000} s after the first answer, compiled, worker threads warmed`,
      unit: 'MB',
      ours: compiled.idleRss,
      baseline: { name: baseline, stats: tsx.idleRss },
    },
  ];
}
