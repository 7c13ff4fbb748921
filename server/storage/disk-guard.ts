import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const DISK_LOW_MESSAGE = 'Server storage is nearly full; try again later';
/** How long the tracker should wait before sending again while storage is low. */
export const DISK_LOW_RETRY_AFTER_S = 300;
/** Free space is measured at most this often, never per request. */
export const DISK_CHECK_INTERVAL_MS = 5_000;

interface Log {
  warn(message: string): void;
}

const MB = 1024 * 1024;

/** The directory itself or its nearest existing parent (DATA_DIR may not exist yet on PostgreSQL). */
function existing(dir: string): string {
  let current = path.resolve(dir);
  while (!fs.existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  return current;
}

/**
 * Refuses new recordings while the volume under DATA_DIR has less free space than
 * DISK_MIN_FREE_MB, so a full disk never corrupts or loses what is stored; reads go on.
 * The state is cached and refreshed in the background, and logged once per change.
 */
export class DiskGuard {
  #low = false;
  #checkedAt = 0;
  #checking = false;

  constructor(
    readonly dir: string,
    readonly minFreeBytes: number,
    private readonly log: Log,
    private readonly intervalMs = DISK_CHECK_INTERVAL_MS,
  ) {
    if (minFreeBytes <= 0) return;
    try {
      this.#update(this.#freeBytes(fs.statfsSync(existing(dir))));
    } catch (error) {
      this.log.warn(`free space under ${dir} could not be measured: ${String(error)}`);
    }
  }

  /** Whether ingest may store more; a stale answer starts a refresh for the next caller. */
  ok(): boolean {
    if (this.minFreeBytes <= 0) return true;
    if (!this.#checking && Date.now() - this.#checkedAt >= this.intervalMs) void this.refresh();
    return !this.#low;
  }

  /** Measures free space now (the background refresh; tests call it directly). */
  async refresh(): Promise<void> {
    this.#checking = true;
    try {
      this.#update(this.#freeBytes(await fs.promises.statfs(existing(this.dir))));
    } catch (error) {
      // Unknown free space must not stop recording: keep the last state.
      this.log.warn(`free space under ${this.dir} could not be measured: ${String(error)}`);
      this.#checkedAt = Date.now();
    } finally {
      this.#checking = false;
    }
  }

  /** A route hook for ingest: 503 with Retry-After while storage is low. */
  readonly hook = async (_request: FastifyRequest, reply: FastifyReply) => {
    if (this.ok()) return;
    return reply.status(503).header('Retry-After', String(DISK_LOW_RETRY_AFTER_S)).send({ error: DISK_LOW_MESSAGE });
  };

  #freeBytes(stats: fs.StatsFs): number {
    return stats.bavail * stats.bsize;
  }

  #update(free: number): void {
    this.#checkedAt = Date.now();
    const low = free < this.minFreeBytes;
    if (low === this.#low) return;
    this.#low = low;
    const numbers = `${Math.floor(free / MB)} MB free under ${this.dir}, DISK_MIN_FREE_MB is ${Math.round(this.minFreeBytes / MB)}`;
    if (low) this.log.warn(`storage nearly full (${numbers}): ingest answers 503 until space is freed; replays and the dashboard keep working`);
    else this.log.warn(`storage has room again (${numbers}): ingest accepts recordings`);
  }
}
