import type { FastifyReply } from 'fastify';

/** How many slots and waiting places one owner may take at most (the rest stay for the others). */
export interface OwnerShare {
  slots: number;
  waiting: number;
}

interface Waiter {
  owner: string;
  start: () => void;
}

/**
 * A counting semaphore with a bounded queue, shared fairly between owners: at most `slots`
 * holders at once, at most `queue` waiting; one owner holds at most `share.slots` of the slots
 * and `share.waiting` of the places, so retrievals one owner never reads cannot take every slot.
 * A freed slot goes to the waiter whose owner holds the fewest slots now (earliest first among
 * equals). Past the bounds a caller is turned away at once instead of piling up work.
 */
export class HeavyGate {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private readonly held = new Map<string, number>();
  readonly share: OwnerShare;

  constructor(
    readonly slots: number,
    readonly queue: number,
    share: Partial<OwnerShare> = {},
  ) {
    this.share = { slots: share.slots ?? slots, waiting: share.waiting ?? queue };
  }

  /** Holders and waiters now (tests and logs read them). */
  get counts(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * Whether `owner` already holds or waits for as many slots as its share allows: a further
   * `enter` would be turned away for the owner's own sake, not the node's (heavy reads answer
   * 429 then, and 503 when the node is full).
   */
  ownerFull(owner: string): boolean {
    const mine = this.waiting.filter((w) => w.owner === owner).length;
    return this.heldBy(owner) >= this.share.slots && mine >= this.share.waiting;
  }

  /**
   * Resolves with a release function once a slot is free for `owner` (call it exactly when the
   * work ends; further calls do nothing), or with null when the queue or the owner's share of it
   * is full, or `signal` aborts the wait.
   */
  enter(owner: string, signal?: AbortSignal): Promise<(() => void) | null> {
    if (signal?.aborted) return Promise.resolve(null);
    if (this.running < this.slots && this.heldBy(owner) < this.share.slots) return Promise.resolve(this.hold(owner));
    const mine = this.waiting.filter((w) => w.owner === owner).length;
    if (this.waiting.length >= this.queue || mine >= this.share.waiting) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        owner,
        start: () => {
          signal?.removeEventListener('abort', leave);
          resolve(this.hold(owner));
        },
      };
      const leave = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(null);
      };
      this.waiting.push(waiter);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  private heldBy(owner: string): number {
    return this.held.get(owner) ?? 0;
  }

  private hold(owner: string): () => void {
    this.running++;
    this.held.set(owner, this.heldBy(owner) + 1);
    let holding = true;
    return () => {
      if (!holding) return;
      holding = false;
      this.running--;
      const left = this.heldBy(owner) - 1;
      if (left > 0) this.held.set(owner, left);
      else this.held.delete(owner);
      this.startNext();
    };
  }

  /** Fills free slots from the queue: the owner holding the fewest slots first, earliest among equals. */
  private startNext(): void {
    while (this.running < this.slots) {
      let next = -1;
      for (let i = 0; i < this.waiting.length; i++) {
        const count = this.heldBy(this.waiting[i].owner);
        if (count >= this.share.slots) continue;
        if (next < 0 || count < this.heldBy(this.waiting[next].owner)) next = i;
      }
      if (next < 0) return;
      this.waiting.splice(next, 1)[0].start();
    }
  }
}

/**
 * Waits for a slot of `gate` for `owner` while the caller is there: a caller who leaves while
 * waiting gives its place up. Null when turned away, or when the caller has gone.
 */
export async function enterWhileConnected(gate: HeavyGate, owner: string, reply: FastifyReply): Promise<(() => void) | null> {
  const gone = new AbortController();
  const leave = () => gone.abort();
  reply.raw.once('close', leave);
  const release = await gate.enter(owner, gone.signal);
  reply.raw.off('close', leave);
  if (release && reply.request.raw.socket.destroyed) {
    release(); // the caller left before its close could be heard
    return null;
  }
  return release;
}
