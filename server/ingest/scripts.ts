import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { LoaderParams } from '../../common/api/ingest.js';
import { fillLoader } from '../../common/loader-script.js';
import { isCampaignId } from '../storage/ids.js';
import { notFound, HttpError } from '../http/errors.js';
import { acceptsGzip } from '../http/accept-encoding.js';
import { RecentlyUsed } from '../recently-used.js';

// The tracker's files, served to any site: gzip on the wire, an ETag for cheap revalidation.

interface ScriptFile {
  body: Buffer;
  gzipped: Buffer;
  etag: string;
}

function scriptFile(text: string): ScriptFile {
  const body = Buffer.from(text);
  const etag = `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, gzipped: zlib.gzipSync(body, { level: 9 }), etag };
}

/** Reads a built file, re-reading only when the build changed it. */
function builtFiles(dir: string) {
  const cache = new RecentlyUsed<string, { mtimeMs: number; text: string }>(16);
  return (name: string): string => {
    const file = path.join(dir, name);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      throw new HttpError(503, 'The tracker is not built: run "npm run build"');
    }
    const hit = cache.get(name);
    if (hit && hit.mtimeMs === stat.mtimeMs) return hit.text;
    const text = fs.readFileSync(file, 'utf8');
    cache.set(name, { mtimeMs: stat.mtimeMs, text });
    return text;
  };
}

function send(request: FastifyRequest, reply: FastifyReply, file: ScriptFile, cacheControl: string) {
  reply
    .header('Content-Type', 'application/javascript; charset=utf-8')
    .header('Cache-Control', cacheControl)
    .header('ETag', file.etag)
    .header('Vary', 'Accept-Encoding')
    .header('Access-Control-Allow-Origin', '*')
    .header('Cross-Origin-Resource-Policy', 'cross-origin');
  const known = (request.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (known.includes(file.etag) || known.includes('*')) return reply.status(304).send();
  if (acceptsGzip(request)) {
    return reply.header('Content-Encoding', 'gzip').send(file.gzipped);
  }
  return reply.send(file.body);
}

export async function registerScripts(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const read = builtFiles(path.join(ctx.config.distDir, 'tracker'));
  const memo = new RecentlyUsed<string, { text: string; file: ScriptFile }>(1000);
  const cached = (key: string, text: string): ScriptFile => {
    const hit = memo.get(key);
    if (hit?.text === text) return hit.file;
    const file = scriptFile(text);
    memo.set(key, { text, file });
    return file;
  };

  // The loader template, which the dashboard fills in: always revalidated.
  app.get('/static/magicFormat.js', (request, reply) => send(request, reply, cached('loader', read('magicFormat.js')), 'no-cache'));

  // The recorder: a stable URL, so a new release reaches every site within the hour.
  app.get('/static/recorder.js', (request, reply) =>
    send(request, reply, cached('recorder', read('recorder.js')), 'public, max-age=3600, stale-while-revalidate=86400'),
  );

  // The hosted one-line install: <script async src="…/t/{campaignId}.js"></script>.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get('/t/:file', { schema: { params: LoaderParams } }, (request, reply) => {
    const campaignId = request.params.file.replace(/\.js$/, '');
    if (!request.params.file.endsWith('.js') || !isCampaignId(campaignId)) throw notFound();
    const file = cached(`t:${campaignId}`, fillLoader(read('magicFormat.js'), campaignId, ctx.config.publicUrl));
    return send(request, reply, file, 'public, max-age=300');
  });
}
