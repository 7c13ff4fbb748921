import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';

/**
 * What nodes tell each other about sessions: ids only, readers load the rest from the database.
 * `changed`: a session's row or chunks changed (stored, closed, deleted); `watching`: a live
 * replay of the session is open somewhere (repeated while it is); `listening`: the same for a
 * campaign's live sessions list (sessionId empty); `resync`: this node may have
 * missed messages (the listening connection was lost), so readers look again.
 */
export type LiveMessage = { kind: 'changed' | 'watching' | 'listening'; campaignId: string; sessionId: string } | { kind: 'resync' };

export interface LiveBus {
  publish(message: Exclude<LiveMessage, { kind: 'resync' }>): void;
  subscribe(listener: (message: LiveMessage) => void): void;
  close(): Promise<void>;
}

/** One process (SQLite): an EventEmitter. */
export function localBus(): LiveBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (message) => emitter.emit('m', message),
    subscribe: (listener) => emitter.on('m', listener),
    close: async () => void emitter.removeAllListeners(),
  };
}

const RECONNECT_MS = 1000;
/** NOTIFYs waiting for the database at once; past it a message is dropped (streams look again every 15 s). */
const MAX_PENDING_NOTIFY = 256;

/**
 * PostgreSQL: NOTIFY on a channel per database schema, heard through LISTEN on one dedicated
 * connection per node (re-opened after an error, then readers are told to resync). A node hears
 * its own messages at once, not through the database.
 */
export async function postgresBus(connection: pg.ClientConfig, log: FastifyBaseLogger): Promise<LiveBus> {
  const node = crypto.randomBytes(6).toString('hex');
  const local = localBus();
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let channel = '';
  // Publishing goes through its own small pool, so a busy main pool never delays a message.
  const pool = new pg.Pool({ ...connection, max: 2 });
  pool.on('error', (error) => log.warn({ err: error }, 'live bus publish connection failed'));

  const onNotification = (notification: pg.Notification) => {
    try {
      const [from, kind, campaignId, sessionId] = JSON.parse(notification.payload ?? '') as string[];
      if (from === node || (kind !== 'changed' && kind !== 'watching' && kind !== 'listening')) return;
      local.publish({ kind, campaignId, sessionId });
    } catch {
      // not ours: ignore
    }
  };

  async function listen(first: boolean): Promise<void> {
    const next = new pg.Client(connection);
    next.on('error', (error) => {
      log.warn({ err: error }, 'live bus connection lost: reconnecting');
      drop(next);
    });
    next.on('end', () => drop(next));
    await next.connect();
    if (!channel) {
      const schema = (await next.query<{ s: string }>('select current_schema() as s')).rows[0]?.s ?? 'public';
      channel = `tapedeck_live_${schema.replace(/[^a-z0-9_]/gi, '_')}`.slice(0, 63).toLowerCase();
    }
    next.on('notification', onNotification);
    await next.query(`LISTEN ${channel}`);
    client = next;
    if (!first) for (const listener of listeners) listener({ kind: 'resync' });
  }

  function drop(which: pg.Client): void {
    if (client !== which) return;
    client = undefined;
    which.end().catch(() => undefined);
    schedule();
  }

  function schedule(): void {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      listen(false).catch((error: unknown) => {
        log.warn({ err: error }, 'live bus could not reconnect: trying again');
        schedule();
      });
    }, RECONNECT_MS);
    retry.unref();
  }

  const listeners: ((message: LiveMessage) => void)[] = [];
  let pending = 0;
  await listen(true);
  return {
    publish(message) {
      local.publish(message);
      if (pending >= MAX_PENDING_NOTIFY) return;
      pending++;
      const payload = JSON.stringify([node, message.kind, message.campaignId, message.sessionId]);
      pool
        .query('select pg_notify($1, $2)', [channel, payload])
        .catch((error: unknown) => log.warn({ err: error }, 'live bus could not notify'))
        .finally(() => pending--);
    },
    subscribe(listener) {
      listeners.push(listener);
      local.subscribe(listener);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
      await pool.end().catch(() => undefined);
      await local.close();
    },
  };
}
