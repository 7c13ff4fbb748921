import { CompiledQuery } from 'kysely';
import type { Dialect, Executor } from './executor.js';
import { PREPARED } from './index.js';

/** Writes a named parameter's placeholder into a statement's text. */
export type Param<Name extends string> = (name: Name) => string;

/**
 * A statement whose text is written once, when a writer is made, and whose parameters are bound
 * by name on each run: no query tree is built per batch, and the text never changes, so SQLite
 * keeps it compiled (db/index.ts's statement cache) and PostgreSQL prepares it once a connection.
 */
export class Statement<Name extends string> {
  readonly text: string;
  readonly #order: Name[] = [];

  constructor(dialect: Dialect, write: (param: Param<Name>) => string) {
    // Placeholders are numbered in the order the text has them, whatever order they were written in.
    const marked = write((name) => `\uE000${name}\uE000`);
    const text = marked.replace(/\uE000([^\uE000]+)\uE000/g, (_, name: Name) => {
      this.#order.push(name);
      return dialect === 'postgres' ? `$${this.#order.length}` : '?';
    });
    this.text = dialect === 'postgres' ? `${PREPARED}${text}` : text;
  }

  async run<Row>(db: Executor, values: Record<Name, unknown>): Promise<{ rows: Row[]; changed: number }> {
    const result = await db.executeQuery<Row>(
      CompiledQuery.raw(
        this.text,
        this.#order.map((name) => values[name]),
      ),
    );
    return { rows: result.rows, changed: Number(result.numAffectedRows ?? 0n) };
  }
}
