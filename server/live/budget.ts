interface Request {
  bytes: number;
  start: () => void;
}

/**
 * Bytes of event data each user's live streams may hold in memory at once on this node. A
 * stream takes a chunk's share before it opens the chunk and gives it back once the chunk went
 * out, so twenty streams nobody reads hold no more than one budget between them. A user's
 * requests are served in order; one larger than the whole budget runs alone.
 */
export class UserByteBudget {
  private readonly used = new Map<string, number>();
  private readonly queues = new Map<string, Request[]>();

  constructor(readonly perUser: number) {}

  /** Bytes the user holds now (tests read it). */
  held(user: string): number {
    return this.used.get(user) ?? 0;
  }

  /** Resolves with a release function once `bytes` fit the user's budget, or with null when `signal` aborts first. */
  take(user: string, bytes: number, signal: AbortSignal): Promise<(() => void) | null> {
    if (signal.aborted) return Promise.resolve(null);
    const queue = this.queues.get(user) ?? [];
    if (!queue.length && this.fits(user, bytes)) return Promise.resolve(this.hold(user, bytes));
    return new Promise((resolve) => {
      const request: Request = {
        bytes,
        start: () => {
          signal.removeEventListener('abort', leave);
          resolve(this.hold(user, bytes));
        },
      };
      const leave = () => {
        this.remove(user, request);
        resolve(null);
        this.startNext(user);
      };
      queue.push(request);
      this.queues.set(user, queue);
      signal.addEventListener('abort', leave, { once: true });
    });
  }

  private fits(user: string, bytes: number): boolean {
    const used = this.held(user);
    return used === 0 || used + bytes <= this.perUser;
  }

  private hold(user: string, bytes: number): () => void {
    this.used.set(user, this.held(user) + bytes);
    let holding = true;
    return () => {
      if (!holding) return;
      holding = false;
      const left = this.held(user) - bytes;
      if (left > 0) this.used.set(user, left);
      else this.used.delete(user);
      this.startNext(user);
    };
  }

  private startNext(user: string): void {
    const queue = this.queues.get(user);
    while (queue?.length && this.fits(user, queue[0].bytes)) queue.shift()!.start();
    if (queue && !queue.length) this.queues.delete(user);
  }

  private remove(user: string, request: Request): void {
    const queue = this.queues.get(user);
    const at = queue?.indexOf(request) ?? -1;
    if (queue && at >= 0) queue.splice(at, 1);
    if (queue && !queue.length) this.queues.delete(user);
  }
}
