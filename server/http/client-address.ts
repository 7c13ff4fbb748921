import type { FastifyRequest } from 'fastify';
import type { TrustProxy } from '../config.js';

/**
 * Who a request comes from, by one rule for every per-address limit and every stored address:
 * the last address in the chain (socket, then X-Forwarded-For from right to left) that is not a
 * trusted proxy. The first X-Forwarded-For entry is whatever the client wrote, so it is never
 * taken unless every hop after it is trusted.
 */

/** The client address without the IPv4-mapped IPv6 prefix Node reports on dual-stack sockets. */
export const clientIp = (ip: string) => ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

/** The client address of a request (Fastify works out request.ip from the trustProxy option below). */
export const clientAddress = (request: Pick<FastifyRequest, 'ip'>): string => clientIp(request.ip);

/**
 * Fastify's trustProxy option for the setting. A hop count is a function (`i` counts hops from
 * the socket): Fastify itself treats a plain number as "trust nothing".
 */
export function trustProxyOption(setting: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return setting > 0 ? (_address, hop) => hop < setting : false;
  return setting;
}
