import type { FastifyRequest } from 'fastify';
import { forbidden } from './errors.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF guard for the signed-in API: a state-changing call must come from our own origin.
 * Browsers always send Origin (or Sec-Fetch-Site) on such calls; non-browser clients send neither.
 */
export function checkSameOrigin(publicUrl: string) {
  const ours = new URL(publicUrl).origin;
  return async (request: FastifyRequest): Promise<void> => {
    if (SAFE.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== ours) throw forbidden();
    const site = request.headers['sec-fetch-site'];
    if (origin === undefined && site !== undefined && site !== 'same-origin' && site !== 'none') throw forbidden();
  };
}
