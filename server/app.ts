import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { Config } from './config.js';
import { openDb, migrate, type Db, type DbOptions } from './db/index.js';
import { persistentSecret } from './secrets.js';
import { installErrorHandler } from './http/errors.js';
import type { AppContext } from './context.js';
import { registerAuth } from './auth/routes.js';
import { registerCampaigns } from './campaigns/routes.js';
import { registerSessions } from './sessions/routes.js';
import { registerReplay } from './replay/routes.js';
import { registerIngest } from './ingest/routes.js';
import { registerWeb } from './web.js';

export interface BuildOptions {
  /** Extra database settings (tests pass a per-run PostgreSQL schema). */
  db?: Partial<DbOptions>;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

/** The composition root: infrastructure, then the API areas, then the web app. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: false } },
  });
  const db: Db = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, ...options.db });
  app.addHook('onClose', async () => db.destroy());
  await migrate(db);

  const secret = config.sessionSecret ?? persistentSecret(config.dataDir, 'session');
  const ctx: AppContext = {
    config,
    db,
    keys: { key: new TextEncoder().encode(secret), secure: config.publicUrl.startsWith('https:') },
  };
  app.decorate('ctx', ctx);
  app.decorateRequest('userId', null);
  await app.register(cookie);
  installErrorHandler(app);

  await registerAuth(app, ctx);
  await registerCampaigns(app, ctx);
  await registerSessions(app, ctx);
  await registerReplay(app, ctx);
  await registerIngest(app, ctx);
  await registerWeb(app, ctx);
  return app;
}
