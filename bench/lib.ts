// The bench's common parts: repeated measurement, statistics, the table and the budgets.

export interface Stats {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export interface Row {
  /** Which figure (e.g. "Tracker weight"). */
  group: string;
  /** What is measured (e.g. "loader gzip"). */
  name: string;
  unit: string;
  ours: Stats;
  /** The baseline measured in the same run, and what it is. */
  baseline?: { name: string; stats: Stats };
  /** Upper bound on `ours` (in `unit`), or on the ratio ours/baseline when `budgetOn` is 'ratio'. */
  budget?: number;
  budgetOn?: 'value' | 'ratio';
  /** A --quick row whose budget is set on the full run's workload: the budget is shown, not checked. */
  notJudged?: boolean;
  note?: string;
}

export interface BenchOptions {
  quick: boolean;
  /** Repetitions per figure: at least 5 in a full run, 2 with --quick (see `runsFor`). */
  runs: number;
}

/** A full run takes the median of 5; --quick, a smoke pass of every figure in minutes, of 2. */
export const runsFor = (quick: boolean): number => (quick ? 2 : 5);

/** Runs one phase of a figure (seeding, measuring) and says on stderr how long it took. */
export async function phase<T>(what: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    process.stderr.write(`    ${what}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
}

/** A figure that measured some rows before a part of it failed (e.g. PostgreSQL unreachable). */
export class PartialFigure extends Error {
  constructor(
    message: string,
    readonly rows: Row[],
  ) {
    super(message);
  }
}

/** Rows from each part in turn; a failing part fails the figure but keeps the others' rows. */
export async function eachPart<T>(parts: T[], measure: (part: T) => Promise<Row[]>, name: (part: T) => string): Promise<Row[]> {
  const rows: Row[] = [];
  const failures: string[] = [];
  for (const part of parts) {
    try {
      rows.push(...(await measure(part)));
    } catch (error) {
      failures.push(`${name(part)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (failures.length) throw new PartialFigure(failures.join('; '), rows);
  return rows;
}

export function stats(samples: number[]): Stats {
  if (samples.length === 0) throw new Error('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: sorted.length };
}

/** Runs `measure` `runs` times (after one warm-up unless told not to) and returns its statistics. */
export async function repeat(runs: number, measure: () => Promise<number> | number, warmup = true): Promise<Stats> {
  if (warmup) await measure();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await measure());
  return stats(samples);
}

const NOTES_HEADING = '## Notes';

/**
 * The hand-written notes of bench/results.md: everything from its "## Notes" heading on, which a
 * full run keeps below the table it writes (the table above is replaced every time).
 */
export function keptNotes(previous: string): string {
  const at = previous.search(/^## Notes$/m);
  if (at >= 0) return previous.slice(at).trimEnd() + '\n';
  return `${NOTES_HEADING}\n\nDated measurements and what they showed, by hand; \`npm run bench\` keeps this section.\n`;
}

/**
 * A budget set on the full run's workload, which --quick's smaller one (on a busy machine) cannot
 * judge: a --quick row shows it as "quick: not judged" rather than report a false breach.
 */
export const budgetOf = (
  options: Pick<BenchOptions, 'quick'>,
  budget: number,
  budgetOn: 'value' | 'ratio' = 'value',
): Pick<Row, 'budget' | 'budgetOn' | 'notJudged'> => (options.quick ? { budget, budgetOn, notJudged: true } : { budget, budgetOn });

/** A constant figure (a size) still reads as a median of identical runs. */
export const exact = (value: number, runs = 5): Stats => ({ median: value, min: value, max: value, runs });

export const ratio = (row: Row): number | undefined =>
  row.baseline && row.baseline.stats.median !== 0 ? row.ours.median / row.baseline.stats.median : undefined;

function fmt(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 100) return Math.round(value).toLocaleString('en-US');
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

const cell = (s: Stats) => (s.min === s.max ? fmt(s.median) : `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})`);

/** Which budgets broke, as sentences. */
export function brokenBudgets(rows: Row[]): string[] {
  const broken: string[] = [];
  for (const row of rows) {
    if (row.budget === undefined || row.notJudged) continue;
    const value = row.budgetOn === 'ratio' ? ratio(row) : row.ours.median;
    if (value !== undefined && value > row.budget) {
      broken.push(
        `${row.group} / ${row.name}: ${fmt(value)}${row.budgetOn === 'ratio' ? '×' : ' ' + row.unit} exceeds the budget of ${fmt(row.budget)}${row.budgetOn === 'ratio' ? '×' : ' ' + row.unit}`,
      );
    }
  }
  return broken;
}

/** The results as a Markdown table: median (min–max) beside the baseline and the ratio. */
export function table(rows: Row[]): string {
  const lines = [
    '| figure | measure | unit | ours: median (min–max) | baseline | baseline: median (min–max) | ratio | budget | runs |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const r = ratio(row);
    const budget = row.budget === undefined ? '' : row.budgetOn === 'ratio' ? `≤ ${fmt(row.budget)}×` : `≤ ${fmt(row.budget)}`;
    const ok = row.budget === undefined ? '' : row.notJudged ? ' (quick: not judged)' : brokenBudgets([row]).length ? ' ✗' : ' ✓';
    lines.push(
      `| ${row.group} | ${row.name}${row.note ? ` (${row.note})` : ''} | ${row.unit} | ${cell(row.ours)} | ${row.baseline?.name ?? ''} | ${row.baseline ? cell(row.baseline.stats) : ''} | ${r === undefined ? '' : fmt(r) + '×'} | ${budget}${ok} | ${row.ours.runs} |`,
    );
  }
  return lines.join('\n');
}
