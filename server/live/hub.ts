import type { Db } from '../db/index.js';
import type { Session } from '../../common/api-types.js';
import { findSession } from '../sessions/repository.js';
import { toSession } from '../sessions/rows.js';
import type { LiveBus, LiveMessage } from './bus.js';

/** A list stream's reload of one session waits this long, so a burst of batches costs one query. */
export const LIST_COALESCE_MS = 250;
/** How often an open live replay or list tells every node it is followed, and how long that holds. */
export const WATCH_EVERY_MS = 3000;
const WATCH_TTL_MS = 10_000;

export interface ListListener {
  session(session: Session): void;
  deleted(id: string): void;
}

const key = (campaignId: string, sessionId: string) => `${campaignId}/${sessionId}`;

/**
 * The node's view of live sessions: who listens to which campaign's list and which session's
 * replay, and which sessions are watched on any node. Messages come from the bus.
 */
export class LiveHub {
  private readonly lists = new Map<string, Set<ListListener>>();
  private readonly replays = new Map<string, Set<() => void>>();
  private readonly watched = new Map<string, number>();
  /** Campaigns whose live list is open on some node, until when (renewed while it is). */
  private readonly followed = new Map<string, number>();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly sweep: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly bus: LiveBus,
    private readonly onError: (error: unknown) => void,
  ) {
    bus.subscribe((message) => this.heard(message));
    this.sweep = setInterval(() => {
      const now = Date.now();
      for (const seen of [this.watched, this.followed]) for (const [k, until] of seen) if (until <= now) seen.delete(k);
    }, WATCH_TTL_MS);
    this.sweep.unref();
  }

  /**
   * Called once after a batch is committed (or a session is closed or deleted). Told to the nodes
   * only while someone follows the campaign's list or the session's replay: ingest's usual batch
   * then costs no NOTIFY.
   */
  sessionChanged(campaignId: string, sessionId: string): void {
    const now = Date.now();
    if ((this.followed.get(campaignId) ?? 0) <= now && (this.watched.get(key(campaignId, sessionId)) ?? 0) <= now) return;
    this.bus.publish({ kind: 'changed', campaignId, sessionId });
  }

  /** Whether a live replay of the session is open on any node (ingest then says so to the tracker). */
  isWatched(campaignId: string, sessionId: string): boolean {
    return (this.watched.get(key(campaignId, sessionId)) ?? 0) > Date.now();
  }

  /** A live replay of the session is open here (said at once, then every WATCH_EVERY_MS). */
  watching(campaignId: string, sessionId: string): void {
    this.bus.publish({ kind: 'watching', campaignId, sessionId });
  }

  /** A live sessions list of the campaign is open here (said at once, then every WATCH_EVERY_MS). */
  listening(campaignId: string): void {
    this.bus.publish({ kind: 'listening', campaignId, sessionId: '' });
  }

  listenList(campaignId: string, listener: ListListener): () => void {
    return this.add(this.lists, campaignId, listener);
  }

  /** `poke` is called whenever the session may have new chunks or an end. */
  listenReplay(campaignId: string, sessionId: string, poke: () => void): () => void {
    return this.add(this.replays, key(campaignId, sessionId), poke);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweep);
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    await this.bus.close();
  }

  private add<T>(map: Map<string, Set<T>>, k: string, item: T): () => void {
    let set = map.get(k);
    if (!set) map.set(k, (set = new Set()));
    set.add(item);
    return () => {
      set.delete(item);
      if (!set.size && map.get(k) === set) map.delete(k);
    };
  }

  private heard(message: LiveMessage): void {
    if (message.kind === 'resync') {
      for (const pokes of this.replays.values()) for (const poke of pokes) poke();
      return;
    }
    const k = key(message.campaignId, message.sessionId);
    if (message.kind === 'watching') {
      this.watched.set(k, Date.now() + WATCH_TTL_MS);
      return;
    }
    if (message.kind === 'listening') {
      this.followed.set(message.campaignId, Date.now() + WATCH_TTL_MS);
      return;
    }
    for (const poke of this.replays.get(k) ?? []) poke();
    if (this.lists.has(message.campaignId) && !this.pending.has(k)) {
      const timer = setTimeout(() => {
        this.pending.delete(k);
        this.reloadForLists(message.campaignId, message.sessionId).catch(this.onError);
      }, LIST_COALESCE_MS);
      timer.unref();
      this.pending.set(k, timer);
    }
  }

  private async reloadForLists(campaignId: string, sessionId: string): Promise<void> {
    if (this.closed || !this.lists.has(campaignId)) return;
    const row = await findSession(this.db, campaignId, sessionId);
    const session = row ? toSession(row) : null;
    for (const listener of this.lists.get(campaignId) ?? []) {
      if (session) listener.session(session);
      else listener.deleted(sessionId);
    }
  }
}
