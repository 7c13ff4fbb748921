import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { AppContext } from './context.js';

/**
 * Serves the built PWA. Hashed files under /assets are cached for a year; everything else
 * (index.html, the service worker, the manifest) is revalidated so updates reach users.
 * Any other GET that wants HTML gets index.html, so every route of the app deep-links.
 */
export async function registerWeb(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const root = path.join(ctx.config.distDir, 'app');
  const indexFile = path.join(root, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn(`the PWA is not built (${indexFile} is missing): run "npm run build"`);
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: true,
    index: false,
    preCompressed: true,
    cacheControl: false,
  });
  // Cache policy for the app's files (the static plugin's setHeaders misses pre-compressed files).
  app.addHook('onSend', async (request, reply) => {
    if (request.method !== 'GET' || reply.getHeader('cache-control') || request.url.startsWith('/api/')) return;
    const hashed = request.url.startsWith('/assets/');
    if (reply.statusCode === 200) reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
  });
  const sendShell = (reply: FastifyReply) => reply.header('Cache-Control', 'no-cache').type('text/html').send(fs.createReadStream(indexFile));
  app.get('/', (_request, reply) => sendShell(reply));
  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' && !request.url.startsWith('/api/') && (request.headers.accept ?? '').includes('text/html');
    if (wantsPage && fs.existsSync(indexFile)) {
      return sendShell(reply);
    }
    return reply.status(404).send({ error: 'Not found' });
  });
}
