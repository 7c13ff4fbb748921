import type { FastifyInstance } from 'fastify';
import { forbidden } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Why a write under /api/v1 is taken from any site (ingest: the tracker posts from the visited page); the cross-site check skips it. */
    crossSite?: string;
  }
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF guard for the signed-in API, once for every route: a state-changing call under /api/v1 must
 * come from our own origin, unless its route says why not (`config.crossSite`). Browsers always send
 * Origin (or Sec-Fetch-Site) on such calls; non-browser clients send neither. Checked on the
 * request, before sign-in or the body are read.
 */
export function refuseCrossSiteWrites(app: FastifyInstance, publicUrl: string): void {
  const ours = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions;
    if (SAFE.has(request.method) || !route.url?.startsWith('/api/v1/') || route.config.crossSite) return;
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== ours) throw forbidden();
    const site = request.headers['sec-fetch-site'];
    if (origin === undefined && site !== undefined && site !== 'same-origin' && site !== 'none') throw forbidden();
  });
}
