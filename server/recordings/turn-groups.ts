/**
 * Gathers what is queued during one turn of the event loop into groups and runs them, at most
 * `concurrency` at once; what arrives while they run makes the next group. SQLite's group commit
 * (group-commit.ts) and PostgreSQL's shared statements (statement-groups.ts) group batches this way.
 */
export class TurnGroups<Entry> {
  readonly #queue: Entry[] = [];
  #running = 0;
  #scheduled = false;

  constructor(
    private readonly concurrency: number,
    /** Takes the next group out of the queue (it removes what it takes). */
    private readonly take: (queue: Entry[]) => Entry[],
    private readonly run: (group: Entry[]) => Promise<void>,
  ) {}

  push(entry: Entry): void {
    this.#queue.push(entry);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled || this.#running >= this.concurrency || !this.#queue.length) return;
    // Waits for the rest of this turn of the event loop: batches read together go together.
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#running >= this.concurrency || !this.#queue.length) return;
      const group = this.take(this.#queue);
      this.#running++;
      void this.run(group).finally(() => {
        this.#running--;
        this.#schedule();
      });
      this.#schedule();
    });
  }
}
