// `npm run bench` (-- --quick): every performance figure in one table, each beside a baseline
// measured in the same run. Writes bench/results.md. Exits non-zero when a budget breaks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { brokenBudgets, keptNotes, PartialFigure, runsFor, table, type BenchOptions, type Row } from './lib.js';

interface Figure {
  title: string;
  run(options: BenchOptions): Promise<Row[]>;
}

const figureFiles = [
  'tracker-weight',
  'recording-overhead',
  'ingest',
  'ingest-flood',
  'ingest-nodes',
  'storage',
  'replay-retrieval',
  'replay-memory',
  'replay-open',
  'sessions-list',
  'insights',
  'funnels',
  'heavy-reads',
  'heatmaps',
  'heatmaps-ingest',
  'heatmaps-overlay',
  'pwa-weight',
  'live-delay',
  'live-streams',
  'server-start',
];

const resultsPath = path.join(import.meta.dirname, 'results.md');

function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const mem = (os.totalmem() / 2 ** 30).toFixed(0);
  return `${os.cpus().length} × ${cpu}, ${mem} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',');
  const options: BenchOptions = { quick, runs: runsFor(quick) };
  const root = path.resolve(import.meta.dirname, '..');
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-needed'], { stdio: 'inherit', cwd: root });

  const rows: Row[] = [];
  const failures: string[] = [];
  const began = Date.now();
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(', ');
  console.log(`Load average at the start: ${load()}`);
  for (const file of figureFiles) {
    if (only && !only.includes(file)) continue;
    const modulePath = path.join(import.meta.dirname, 'figures', `${file}.ts`);
    if (!fs.existsSync(modulePath)) {
      failures.push(`${file}: not implemented`);
      continue;
    }
    const figure = (await import(modulePath)) as Figure;
    const started = Date.now();
    process.stdout.write(`• ${figure.title} … `);
    try {
      const produced = await figure.run(options);
      rows.push(...produced);
      console.log(`${produced.length} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } catch (error) {
      if (error instanceof PartialFigure) rows.push(...error.rows);
      console.log('FAILED');
      failures.push(`${figure.title}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }

  console.log(`All figures in ${((Date.now() - began) / 1000).toFixed(0)} s; load average at the end: ${load()}`);
  const broken = brokenBudgets(rows);
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  const report = [
    '# Tapedeck benchmark results',
    '',
    `Run: \`npm run bench${quick ? ' -- --quick' : ''}\` on ${date}.`,
    `Machine: ${machine()}.`,
    '',
    `Each figure is the median of ${options.runs} runs or more with min–max, beside a baseline measured in the same run;`,
    'only the ratios compare across runs and machines. A budget is checked on the median.',
    '',
    table(rows),
    '',
    broken.length ? `## Budgets broken\n\n${broken.map((b) => `- ${b}`).join('\n')}\n` : 'All budgets met.',
    failures.length ? `\n## Figures that failed\n\n${failures.map((f) => `- ${f.split('\n')[0]}`).join('\n')}\n` : '',
    keptNotes(fs.existsSync(resultsPath) ? fs.readFileSync(resultsPath, 'utf8') : ''),
  ].join('\n');
  console.log('\n' + table(rows) + '\n');
  // bench/results.md holds full runs only: a --quick or --only pass just prints its table.
  if (!only && !quick) fs.writeFileSync(resultsPath, report);
  for (const f of failures) console.error(`figure failed: ${f}`);
  for (const b of broken) console.error(`budget broken: ${b}`);
  if (broken.length || failures.length) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
