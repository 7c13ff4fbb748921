// Heatmap aggregation off ingest's hot path: the ingest route hands each stored batch's heat
// records here (a few map updates, no I/O); a timer flushes what gathered in its own
// transaction (store.ts), and drains deleted sessions' contributions (unfed.ts). Bounded: so
// many sessions' carried state, so many pending contributions; past that, heat is dropped
// (counted in the log), never ingest slowed.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.js';
import type { FactMarks } from '../../common/session-facts.js';
import type { HeatRecord } from './records.js';
import { emptyFed, heatOfBatch, newSessionHeat, type Fed, type FedKey, type SessionHeat } from './fed.js';
import { storeContributions, type Contribution } from './store.js';
import { drainAllUnfed } from './unfed.js';

export interface FeedOptions {
  /** How often gathered heat is written. */
  flushMs: number;
  /** Sessions whose carried state is kept (the oldest forgotten first). */
  maxSessions: number;
  /** Contributions waiting for a flush; past this, new heat is dropped until it is written. */
  maxPending: number;
}

// Every 5 s: an active session's contribution is rewritten at most once per flush (a reader on
// this node flushes first anyway).
const DEFAULTS: FeedOptions = { flushMs: 5_000, maxSessions: 20_000, maxPending: 50_000 };

export class HeatmapFeed {
  private readonly options: FeedOptions;
  private readonly sessions = new Map<string, SessionHeat>();
  private pending = new Map<string, Contribution>();
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: Partial<FeedOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.timer = setInterval(
      () =>
        void this.flush()
          .then(() => drainAllUnfed(this.db))
          .catch((error: unknown) => this.log.warn({ err: error }, 'heatmap drain failed')),
      this.options.flushMs,
    );
    this.timer.unref();
  }

  /** A stored batch's heat records and the marks its fold found: gathered now, in memory; written by the next flush. */
  fed(campaignId: string, sessionId: string, marks: FactMarks, records: HeatRecord[]): void {
    const id = `${campaignId}\n${sessionId}`;
    let state = this.sessions.get(id);
    // A session that never sent a heat record (an older tracker) costs nothing.
    if (!state && !records.length) return;
    if (state)
      this.sessions.delete(id); // kept in recently-used order
    else if (this.sessions.size >= this.options.maxSessions) this.sessions.delete(this.sessions.keys().next().value as string);
    state ??= newSessionHeat();
    this.sessions.set(id, state);
    if (!records.length && !state.remembered.length) return;
    // A batch's records are mostly of one page, device class and day: the last one's contribution is kept at hand.
    let last: { key: FedKey; fed: Fed } | null = null;
    heatOfBatch(state, marks, records, (key: FedKey): Fed => {
      if (last && last.key.path === key.path && last.key.device === key.device && last.key.day === key.day) return last.fed;
      const pendingId = `${id}\n${key.path}\n${key.device}\n${key.day}`;
      let contribution = this.pending.get(pendingId);
      if (!contribution) {
        contribution = { campaignId, sessionId, path: key.path, device: key.device, day: key.day, fed: emptyFed() };
        if (this.pending.size < this.options.maxPending) this.pending.set(pendingId, contribution);
        else this.dropped++;
      }
      last = { key, fed: contribution.fed };
      return contribution.fed;
    });
  }

  /** Writes what gathered; one flush at a time. A failed flush loses its heat (logged), never ingest's batches. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.dropped) this.log.warn({ dropped: this.dropped }, 'heatmap contributions dropped: too many waiting');
      this.dropped = 0;
      if (!this.pending.size) return;
      const batch = [...this.pending.values()];
      this.pending = new Map();
      await storeContributions(this.db, batch).catch((error: unknown) => this.log.warn({ err: error, contributions: batch.length }, 'heatmap flush failed'));
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
