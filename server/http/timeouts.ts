import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions } from 'fastify';

/** How long a client may take; none of these limits how long a response (a replay) may stream. */
export interface Timeouts {
  /** To send a whole request, headers and body. */
  requestMs: number;
  /** To send the request's headers. */
  headersMs: number;
  /** An idle keep-alive socket stays open this long: longer than load balancers' usual 60 s. */
  keepAliveMs: number;
  /** A socket with no traffic either way is closed after this long. */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { requestMs: 30_000, headersMs: 15_000, keepAliveMs: 65_000, idleMs: 60_000 };

/**
 * Answers a client that broke HTTP (too slow, headers too large, garbage) and closes its socket.
 * A connection that timed out before sending a single byte is a browser's spare (preconnected)
 * socket, not an attack in progress: it is closed without a word, because a 408 written to it
 * would be read as the answer to the next request the browser sends on it.
 */
function clientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && socket.bytesRead === 0) {
    socket.destroy();
    return;
  }
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify({ error: http.STATUS_CODES[status] });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Fastify's server options for these timeouts. */
export function timeoutOptions(timeouts: Timeouts): Partial<FastifyHttpOptions<http.Server>> {
  return {
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    clientErrorHandler: clientError,
    http: {
      requestTimeout: timeouts.requestMs,
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      // Node checks the request and headers timeouts only this often (every 30 s by default).
      connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(timeouts.headersMs / 3))),
    },
  };
}
