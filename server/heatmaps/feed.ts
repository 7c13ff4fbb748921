// Heatmap aggregation off ingest's hot path: each stored batch's heat records come here (a few
// map updates, no I/O); they are written a while later in their own transaction (store.ts, by
// recordings/buffered-writer.ts). Deleted sessions' contributions are taken off (unfed.ts) before
// a read and by the housekeeping job. Bounded: so many sessions' carried state, so many pending
// contributions; past that, heat is dropped (counted in the log), never ingest slowed.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.js';
import type { FactMarks } from '../../common/session-facts.js';
import type { HeatRecord } from './records.js';
import { emptyFed, heatOfBatch, newSessionHeat, type Fed, type FedKey, type SessionHeat } from './fed.js';
import { storeContributions, type Contribution } from './store.js';
import { drainUnfed } from './unfed.js';
import { BufferedWriter } from '../recordings/buffered-writer.js';
import type { Projection, StoredBatch } from '../recordings/after-stored.js';

export interface FeedOptions {
  /** How long gathered heat waits before it is written. */
  flushMs: number;
  /** Sessions whose carried state is kept (the oldest forgotten first). */
  maxSessions: number;
  /** Contributions waiting for a flush; past this, new heat is dropped until it is written. */
  maxPending: number;
}

// 5 s after the first: an active session's contribution is rewritten at most once per flush (a
// reader on this node flushes first anyway).
const DEFAULTS: FeedOptions = { flushMs: 5_000, maxSessions: 20_000, maxPending: 50_000 };

/** A projection of stored batches (recordings/after-stored.ts): their heat, gathered in memory. */
export class HeatmapFeed implements Projection {
  private readonly options: FeedOptions;
  private readonly sessions = new Map<string, SessionHeat>();
  private readonly writer: BufferedWriter<Contribution>;

  constructor(
    private readonly db: Db,
    log: FastifyBaseLogger,
    options: Partial<FeedOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    const { flushMs, maxPending } = this.options;
    this.writer = new BufferedWriter({ name: 'heatmap feed', flushMs, maxPending, log, write: (batch) => storeContributions(db, batch) });
  }

  stored({ campaignId, sessionId, heat, outcome }: StoredBatch): void {
    if (outcome.stored) this.fed(campaignId, sessionId, outcome.marks ?? [], heat);
  }

  /** A stored batch's heat records and the marks its fold found: gathered now, in memory; written by the next flush. */
  private fed(campaignId: string, sessionId: string, marks: FactMarks, records: HeatRecord[]): void {
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
      const make = (): Contribution => ({ campaignId, sessionId, path: key.path, device: key.device, day: key.day, fed: emptyFed() });
      // Past the bound, the heat is folded into a contribution that is never written.
      const contribution = this.writer.entry(`${id}\n${key.path}\n${key.device}\n${key.day}`, make) ?? make();
      last = { key, fed: contribution.fed };
      return contribution.fed;
    });
  }

  /** Before a heatmap of the campaign is read: what this node gathered is written, what deleted sessions fed taken off. */
  async flush(campaignId?: string): Promise<void> {
    await this.writer.flush();
    if (campaignId !== undefined) await drainUnfed(this.db, campaignId);
  }

  close = (): Promise<void> => this.writer.close();
}
