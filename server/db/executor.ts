import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

/** The SQL a statement is written in: the two databases Tapedeck runs on. */
export type Dialect = 'sqlite' | 'postgres';

/** A transaction on the database. */
export type Trx = Transaction<Database>;

/**
 * What repository functions take first: the database or a transaction (Kysely's Transaction is
 * a Kysely too), so they compose into one transaction when a caller needs them to.
 */
export type Executor = Kysely<Database> | Trx;
