/**
 * A counting semaphore with a bounded queue: at most `slots` holders at once, at most `queue`
 * waiting; past that a caller is turned away at once instead of piling up work.
 */
export class HeavyGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly slots: number,
    readonly queue: number,
  ) {}

  /** Holders and waiters now (tests and logs read them). */
  get counts(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * Resolves with a release function once a slot is free (call it exactly when the work ends;
   * further calls do nothing), or with null when the queue is full or `signal` aborts the wait.
   */
  enter(signal?: AbortSignal): Promise<(() => void) | null> {
    if (signal?.aborted) return Promise.resolve(null);
    if (this.running < this.slots) return Promise.resolve(this.hold());
    if (this.waiting.length >= this.queue) return Promise.resolve(null);
    return new Promise((resolve) => {
      const start = () => {
        signal?.removeEventListener('abort', leave);
        resolve(this.hold());
      };
      const leave = () => {
        const at = this.waiting.indexOf(start);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(null);
      };
      this.waiting.push(start);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  private hold(): () => void {
    this.running++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.running--;
      this.waiting.shift()?.();
    };
  }
}
