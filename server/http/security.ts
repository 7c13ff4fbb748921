import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import type { Config } from '../config.js';

/** Where recorded pages load their images, fonts, media and stylesheets from: any web origin. */
const RECORDED_SITES = ['https:', 'http:'];

/**
 * The app shell's Content Security Policy. Scripts only from our own origin, never inline, so
 * nothing a visitor's page put into a recording can run here. The replay draws recordings in an
 * about:blank iframe, which inherits this policy: it must allow what recorded pages use to look
 * right (inline styles and <style>, images, fonts and stylesheets from the recorded site, blob:
 * copies of them kept for offline), and the page fetches those files to keep them offline.
 */
export const APP_CSP: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'", 'blob:', ...RECORDED_SITES],
  'img-src': ["'self'", 'data:', 'blob:', ...RECORDED_SITES],
  'font-src': ["'self'", 'data:', 'blob:', ...RECORDED_SITES],
  'media-src': ["'self'", 'data:', 'blob:', ...RECORDED_SITES],
  'connect-src': ["'self'", ...RECORDED_SITES],
  'worker-src': ["'self'"],
  'child-src': ["'self'"],
  'frame-src': ["'self'"],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** API answers are data, never documents: nothing may load from them or frame them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Routes that visitors' sites load cross-origin: the loader, the recorder and ingest. */
export const isTrackerPath = (url: string) => url.startsWith('/t/') || url.startsWith('/static/') || url.startsWith('/api/v1/ingest/');

/**
 * Security headers on every answer (helmet): the CSP above, frame-ancestors 'none' and
 * X-Frame-Options DENY, nosniff, a Referrer-Policy (none at all from the API), HSTS only when
 * users reach us over https. Routes that set their own CSP (the sign-in form) keep it: headers
 * a route sets win over these.
 */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const https = config.publicUrl.startsWith('https:');
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: APP_CSP },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    // Set per route below: the tracker's files must stay loadable from any site.
    crossOriginResourcePolicy: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    const url = request.url;
    reply.header('Cross-Origin-Resource-Policy', isTrackerPath(url) ? 'cross-origin' : 'same-origin');
    if (url.startsWith('/api/')) reply.header('Content-Security-Policy', API_CSP).header('Referrer-Policy', 'no-referrer');
  });
}
