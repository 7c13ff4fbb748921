import { TurnGroups } from './turn-groups.js';

interface Queued<Item, Answer> {
  item: Item;
  resolve: (answer: Answer) => void;
}

/**
 * Where a shared statement's failure is told (the server's log): nothing is lost, but a failure
 * that recurs costs every batch a second write and must be seen.
 */
export interface WriterLog {
  warn(details: { err: unknown; batches?: number; campaignId?: string }, message: string): void;
}

interface GroupBounds {
  concurrency: number;
  maxGroup: number;
  maxBytes: number;
}

/**
 * Runs the items queued in one turn of the event loop as one statement (PostgreSQL's writer): a statement costs PostgreSQL about as much for one row as for a few, so batches
 * that arrive together share it. One item a key a statement (a session's row is written once
 * by it); a second item of a key waits for the next. `run` answers each item by its key.
 */
export class StatementGroups<Item extends { key: string; bytes: number }, Answer> {
  readonly #groups: TurnGroups<Queued<Item, Answer>>;

  constructor(
    private readonly run: (group: Item[]) => Promise<Map<string, Answer>>,
    /** The answer of an item the statement did not answer, or of every item of a statement that failed (it wrote nothing). */
    private readonly unanswered: Answer,
    /** Told of a statement that failed: its items are answered as unanswered all the same. */
    private readonly log: WriterLog,
    // One statement at a time: the items that wait meanwhile make the next statement bigger,
    // which costs PostgreSQL less an item than two smaller statements at once.
    // At most 64 items or 4 MB of them (a statement's parameters are held in memory, as text).
    private readonly options: GroupBounds = { concurrency: 1, maxGroup: 64, maxBytes: 4 * 1024 * 1024 },
  ) {
    this.#groups = new TurnGroups(
      options.concurrency,
      (queue) => this.#take(queue),
      (group) => this.#answer(group),
    );
  }

  submit(item: Item): Promise<Answer> {
    return new Promise((resolve) => this.#groups.push({ item, resolve }));
  }

  /** Queued items within the group's bounds (the first always), one a key, in key order (rows are locked in one order). */
  #take(queue: Queued<Item, Answer>[]): Queued<Item, Answer>[] {
    const taken = new Map<string, Queued<Item, Answer>>();
    const left: Queued<Item, Answer>[] = [];
    let bytes = 0;
    for (const entry of queue) {
      const fits = taken.size === 0 || (taken.size < this.options.maxGroup && bytes + entry.item.bytes <= this.options.maxBytes);
      if (fits && !taken.has(entry.item.key)) {
        taken.set(entry.item.key, entry);
        bytes += entry.item.bytes;
      } else left.push(entry);
    }
    queue.splice(0, queue.length, ...left);
    return [...taken.values()].sort((a, b) => (a.item.key < b.item.key ? -1 : a.item.key > b.item.key ? 1 : 0));
  }

  async #answer(group: Queued<Item, Answer>[]): Promise<void> {
    let answers: Map<string, Answer>;
    try {
      answers = await this.run(group.map((entry) => entry.item));
    } catch (error) {
      // A deadlock between nodes may happen now and then; anything that recurs is a fault to see.
      this.log.warn({ err: error, batches: group.length }, 'a shared ingest statement failed; its batches were written one by one');
      answers = new Map();
    }
    for (const { item, resolve } of group) resolve(answers.get(item.key) ?? this.unanswered);
  }
}
