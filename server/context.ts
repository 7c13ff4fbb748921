import type { Config } from './config.js';
import type { Db } from './db/index.js';
import type { SessionKeys } from './auth/tokens.js';

/** What every area of the server is built from; made once in buildApp. */
export interface AppContext {
  config: Config;
  db: Db;
  keys: SessionKeys;
}
