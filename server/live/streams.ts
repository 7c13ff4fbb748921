import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import type { SessionKeys } from '../auth/tokens.js';
import { ACCESS_COOKIE, readAccessToken } from '../auth/tokens.js';
import { HttpError } from '../http/errors.js';
import { watchStalledReader } from '../replay/stalled-reader.js';
import { roleIn } from '../teams/access.js';

export const TOO_MANY_STREAMS_USER = 'Too many live views open: close some tabs and try again';
export const BAD_LAST_EVENT_ID = 'Invalid Last-Event-ID';
export const BAD_AFTER = 'Invalid after: the highest seq held, then the missing seqs or ranges below it (e.g. 9,3,5-6)';
export const TOO_MANY_STREAMS_NODE = 'The server is following too many live views: try again in a few seconds';

/** What a browser's EventSource waits before reconnecting: normally, and when a node stops. */
export const RETRY_MS = 3000;
const SHUTDOWN_RETRY_MS = 1000;
/** Bytes handed to the socket at a time: the next slice waits until the socket drained. */
const SLICE_BYTES = 64 * 1024;
/** A client this far behind (bytes waiting to be sent) is cut off; it reconnects with Last-Event-ID. */
const MAX_QUEUED_BYTES = 2 * 1024 * 1024;

/**
 * An open text/event-stream response. Messages go out one after another, in slices, each slice
 * only once the socket took the previous one; a client that reads nothing for the stalled-reader
 * time is cut off. The stream ends when its access token does (the client reconnects with a
 * fresh one) and when the registry finds its sign-in ended.
 */
export class SseStream {
  closed = false;
  /** Aborted when the stream ends: work waiting for it (a gate, a budget) gives up. */
  readonly signal: AbortSignal;
  private readonly ended = new AbortController();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly onEnd: (() => void)[] = [];
  private sending: Promise<void> = Promise.resolve();
  private queuedBytes = 0;
  /** A message is partly written: nothing else (a retry hint) may go between its slices. */
  private midMessage = false;

  constructor(
    private readonly reply: FastifyReply,
    /** The access token the stream was opened with (the registry re-checks it). */
    readonly accessToken: string,
    stalledReaderMs: number,
    /** Whose stream it is, and of which workspace's campaign (the registry re-checks the membership). */
    readonly viewer: { userId: string; workspaceId: string },
  ) {
    this.signal = this.ended.signal;
    reply.raw.on('close', () => this.end());
    watchStalledReader(reply.raw, stalledReaderMs);
    const expiresAt = (decodeJwt(accessToken).exp ?? 0) * 1000;
    const lifetime = setTimeout(() => this.close(RETRY_MS), Math.max(0, expiresAt - Date.now()));
    lifetime.unref();
    this.timers.push(lifetime);
  }

  /** Writes one message (its parts in order, none of another message between them); resolves once the socket took it. */
  write(...parts: (string | Buffer | AsyncIterable<Buffer>)[]): Promise<void> {
    const known = parts.reduce((n, part) => n + (typeof part === 'string' || Buffer.isBuffer(part) ? Buffer.byteLength(part) : 0), 0);
    if (this.queuedBytes + known > MAX_QUEUED_BYTES && this.queuedBytes > 0) {
      this.close();
      return Promise.resolve();
    }
    this.queuedBytes += known;
    const sent = this.sending.then(async () => {
      try {
        await this.send(parts);
      } finally {
        this.queuedBytes -= known;
      }
    });
    this.sending = sent.catch(() => undefined);
    return sent;
  }

  /** A comment that keeps proxies from closing an idle stream; none while the socket is busy anyway. */
  heartbeat(): void {
    if (this.queuedBytes === 0 && !this.midMessage && !this.reply.raw.writableNeedDrain) void this.write(': hb\n\n');
  }

  private async send(parts: (string | Buffer | AsyncIterable<Buffer>)[]): Promise<void> {
    this.midMessage = true;
    for (const part of parts) {
      if (typeof part === 'string') await this.slices(Buffer.from(part));
      else if (Buffer.isBuffer(part)) await this.slices(part);
      else for await (const piece of part) await this.slices(piece);
      if (this.closed) return;
    }
    this.midMessage = false;
  }

  private async slices(bytes: Buffer): Promise<void> {
    for (let at = 0; at < bytes.length && !this.closed; at += SLICE_BYTES) {
      if (!this.reply.raw.write(bytes.subarray(at, at + SLICE_BYTES))) await this.drained();
    }
  }

  private drained(): Promise<void> {
    const raw = this.reply.raw;
    return new Promise<void>((resolve) => {
      const done = () => {
        raw.off('drain', done);
        raw.off('close', done);
        resolve();
      };
      raw.on('drain', done);
      raw.on('close', done);
    });
  }

  every(ms: number, tick: () => void): void {
    const timer = setInterval(tick, ms);
    timer.unref();
    this.timers.push(timer);
  }

  whenClosed(callback: () => void): void {
    if (this.closed) callback();
    else this.onEnd.push(callback);
  }

  /** Ends the response, after a retry hint when given (not in the middle of a message: the client keeps its last one). */
  close(retryMs?: number): void {
    if (this.closed) return;
    if (retryMs !== undefined && !this.midMessage) this.reply.raw.write(`retry: ${retryMs}\n\n`);
    this.reply.raw.end();
    this.end();
  }

  private end(): void {
    if (this.closed) return;
    this.closed = true;
    this.ended.abort();
    for (const timer of this.timers) clearTimeout(timer);
    for (const callback of this.onEnd.splice(0)) callback();
  }
}

/**
 * The node's open streams, counted per user and in all (both bounded), closed on shutdown.
 * At every heartbeat each access token in use is checked again as a call would be: streams of
 * a signed-out device, of "sign out everywhere" or of a deleted account end then; and so is each
 * viewer's membership of the stream's workspace: a removed member's streams end (at once on the
 * node that removed them, endAccess).
 */
export class StreamRegistry {
  private readonly open = new Set<SseStream>();
  private readonly perUser = new Map<string, number>();
  private closing = false;
  private checking = false;
  private readonly check: NodeJS.Timeout;

  constructor(private readonly ctx: { config: Config; db: Db; keys: SessionKeys }) {
    this.check = setInterval(() => void this.checkSignIns(), ctx.config.limits.liveHeartbeatMs);
    this.check.unref();
  }

  /** Checks the caps, then turns the reply into an event stream (retry hint first, heartbeats). */
  start(request: FastifyRequest, reply: FastifyReply, workspaceId: string): SseStream {
    const { liveStreamsPerUser, liveStreamsPerNode, liveHeartbeatMs, stalledReaderMs } = this.ctx.config.limits;
    const user = request.userId as string;
    if (this.closing || this.open.size >= liveStreamsPerNode) {
      reply.header('retry-after', '5');
      throw new HttpError(503, TOO_MANY_STREAMS_NODE);
    }
    const mine = this.perUser.get(user) ?? 0;
    if (mine >= liveStreamsPerUser) throw new HttpError(429, TOO_MANY_STREAMS_USER);
    this.perUser.set(user, mine + 1);
    reply.hijack();
    const stream = new SseStream(reply, request.cookies[ACCESS_COOKIE] as string, stalledReaderMs, { userId: user, workspaceId });
    this.open.add(stream);
    stream.whenClosed(() => {
      this.open.delete(stream);
      const left = (this.perUser.get(user) ?? 1) - 1;
      if (left > 0) this.perUser.set(user, left);
      else this.perUser.delete(user);
    });
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'private, no-store',
      'x-accel-buffering': 'no',
    });
    reply.raw.write(`retry: ${RETRY_MS}\n\n`);
    stream.every(liveHeartbeatMs, () => stream.heartbeat());
    return stream;
  }

  /** Closes the streams whose access token no longer signs anyone in (one check per token in use). */
  private async checkSignIns(): Promise<void> {
    if (this.checking || !this.open.size) return;
    this.checking = true;
    try {
      const byToken = new Map<string, SseStream[]>();
      for (const stream of this.open) byToken.set(stream.accessToken, [...(byToken.get(stream.accessToken) ?? []), stream]);
      for (const [token, streams] of byToken) {
        const signedIn = await readAccessToken(this.ctx.db, this.ctx.keys, { cookies: { [ACCESS_COOKIE]: token } });
        if (!signedIn) for (const stream of streams) stream.close();
      }
      const byViewer = new Map<string, SseStream[]>();
      for (const stream of this.open) {
        const key = `${stream.viewer.workspaceId} ${stream.viewer.userId}`;
        byViewer.set(key, [...(byViewer.get(key) ?? []), stream]);
      }
      for (const streams of byViewer.values()) {
        const { workspaceId, userId } = streams[0].viewer;
        if (!(await roleIn(this.ctx.db, workspaceId, userId))) for (const stream of streams) stream.close();
      }
    } catch {
      // The database is away for a moment: the next heartbeat checks again.
    } finally {
      this.checking = false;
    }
  }

  /** Ends the user's streams of the workspace's campaigns (they were removed from it). */
  endAccess(userId: string, workspaceId: string): void {
    for (const stream of [...this.open]) if (stream.viewer.userId === userId && stream.viewer.workspaceId === workspaceId) stream.close();
  }

  /** Shutdown: every stream gets a short retry hint and is closed, so its client reconnects elsewhere. */
  closeAll(): void {
    this.closing = true;
    clearInterval(this.check);
    for (const stream of [...this.open]) stream.close(SHUTDOWN_RETRY_MS);
  }

  get size(): number {
    return this.open.size;
  }
}
