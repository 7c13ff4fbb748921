import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type { Config } from './config.js';
import { openDb, migrate, type Db, type DbOptions } from './db/index.js';
import { secretStore } from './secrets.js';
import { HttpError, installErrorHandler } from './http/errors.js';
import { clientAddress, trustProxyOption } from './http/client-address.js';
import { applyInputRules } from './http/input-rules.js';
import { refuseCrossSiteWrites } from './http/origin.js';
import { registerSecurity } from './http/security.js';
import { registerOpenApi } from './http/openapi.js';
import { DEFAULT_TIMEOUTS, timeoutOptions, type Timeouts } from './http/timeouts.js';
import { checkDataDir } from './storage/data-dir.js';
import { DiskGuard } from './storage/disk-guard.js';
import type { AppContext } from './context.js';
import { registerAuth } from './auth/routes.js';
import { ACCESS_COOKIE } from './auth/tokens.js';
import { registerAccount } from './account/routes.js';
import { registerCampaigns } from './campaigns/routes.js';
import { registerSessions } from './sessions/routes.js';
import { registerInsights } from './insights/routes.js';
import { registerFunnels } from './funnels/routes.js';
import { registerHeatmaps } from './heatmaps/routes.js';
import { HeatmapFeed } from './heatmaps/feed.js';
import { ErrorLog } from './insights/errors.js';
import { VisitLog } from './funnels/visits.js';
import { registerStars } from './stars/routes.js';
import { registerSegments } from './segments/routes.js';
import { registerNotes } from './notes/routes.js';
import { registerPeople } from './people/routes.js';
import { registerReplay } from './replay/routes.js';
import { registerShares } from './shares/routes.js';
import { registerTeams } from './teams/routes.js';
import { registerApiKeys } from './api-keys/routes.js';
import { authenticateApiKeys } from './api-keys/authenticate.js';
import { routeScope } from './api-keys/scopes.js';
import { registerIngest } from './ingest/routes.js';
import { registerSite } from './site/routes.js';
import { registerWeb } from './web.js';
import { registerHealth } from './cluster/health.js';
import { startJobs } from './cluster/jobs.js';
import { rateLimitStorage } from './cluster/rate-limit-store.js';
import { byteCounter } from './cluster/byte-counter.js';
import { StorageQuota } from './campaigns/storage-quota.js';
import { KeptCampaigns } from './campaigns/kept-campaigns.js';
import { localBus, postgresBus } from './live/bus.js';
import { LiveHub } from './live/hub.js';
import { registerLive } from './live/routes.js';
import { openRecordings } from './recordings/index.js';
import { AfterStored, type StoredBatch } from './recordings/after-stored.js';
import { markEndedSessionsWithoutInput } from './recordings/bot-sweep.js';
import { HeavyReads } from './http/heavy-reads.js';
import { HeavyGate } from './http/heavy-gate.js';
import { StreamRegistry } from './live/streams.js';
import { UserByteBudget } from './live/budget.js';
import { openOffLoopReads } from './db/off-loop-reads.js';
import { registerWebhooks } from './webhooks/routes.js';
import { WebhookWorker } from './webhooks/worker.js';
import { sealingKey } from './webhooks/sign.js';

export interface BuildOptions {
  /** Extra database settings (tests pass a per-run PostgreSQL schema). */
  db?: Partial<DbOptions>;
  /** Shorter socket timeouts (tests of slow clients). */
  timeouts?: Partial<Timeouts>;
  /** Where the log goes (tests read it); stdout by default. */
  logStream?: { write(line: string): void };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every service buildApp made (tests read it; handlers reach it through the request's server). */
    ctx: AppContext;
  }
}

/** What follows a stored batch: its projections, and what reads settle first (the bot verdicts of ended sessions). */
function afterStored(db: Db, live: LiveHub, log: FastifyBaseLogger): AfterStored {
  const announced = ({ campaignId, sessionId, outcome }: StoredBatch) => {
    if (outcome.stored || outcome.admitted || outcome.closed) live.sessionChanged(campaignId, sessionId);
  };
  return new AfterStored(log)
    .register('live', { stored: announced })
    .register('errors', new ErrorLog(db, log))
    .register('heat', new HeatmapFeed(db, log))
    .register('visits', new VisitLog(db, log))
    .register('verdicts', { flush: (campaignId) => markEndedSessionsWithoutInput(db, campaignId) });
}

/** Every service the API areas share, made once and held in ctx; those that hold resources close with the app. */
async function services(
  app: FastifyInstance,
  config: Config,
  db: Db,
  options: BuildOptions,
  made: Pick<AppContext, 'apiRoutes' | 'byteCounter'>,
): Promise<AppContext> {
  const secrets = secretStore(db, config);
  const secret = config.sessionSecret ?? (await secrets.secret('session'));
  // Live sessions: LISTEN/NOTIFY on PostgreSQL (every node hears every change), else in-process.
  const bus = config.databaseUrl ? await postgresBus({ connectionString: config.databaseUrl, ...options.db?.pgOptions }, app.log) : localBus();
  const live = new LiveHub(db, bus, (error) => app.log.warn({ err: error }, 'live update failed'));
  app.addHook('onClose', async () => live.close());
  const { limits } = config;
  const keys = { key: new TextEncoder().encode(secret), secure: config.publicUrl.startsWith('https:') };
  const storageQuota = new StorageQuota(db, limits.storageQuotaBytes);
  const stored = afterStored(db, live, app.log);
  const ctx: AppContext = {
    ...made,
    config,
    db,
    keys,
    peopleKey: await secrets.secret('people'),
    live,
    keptCampaigns: new KeptCampaigns(db),
    recordings: openRecordings(db, limits, app.log),
    afterStored: stored,
    heavyReads: new HeavyReads(
      openOffLoopReads({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, ...options.db }, limits.heavyReads, limits.heavyReadMs),
      limits,
    ),
    replayGates: {
      // Each owner a share of the slots and half the queue: one owner's unread retrievals cannot take them all.
      owners: new HeavyGate(limits.heavyReplays, 2 * limits.heavyReplays, { slots: limits.heavyReplaysPerOwner, waiting: limits.heavyReplays }),
      // One heavy shared replay at a time per node, two waiting: readers of public links share it.
      shared: new HeavyGate(1, 2),
    },
    diskGuard: new DiskGuard(config.dataDir, limits.diskMinFreeBytes, app.log),
    storageQuota,
    webhooks: new WebhookWorker({ db, config, storageQuota, afterStored: stored }, sealingKey(await secrets.secret('webhooks')), config.webhooks, app.log),
    liveStreams: new StreamRegistry({ config, db, keys }),
    liveBudget: new UserByteBudget(limits.liveBytesPerUser),
  };
  // One hook, added after the database's: it runs before it (the last added closes first).
  app.addHook('onClose', async () => ctx.afterStored.close());
  app.addHook('onReady', async () => ctx.heavyReads.warm());
  app.addHook('onClose', async () => ctx.heavyReads.close());
  app.addHook('onReady', async () => ctx.webhooks.start());
  app.addHook('onClose', async () => ctx.webhooks.close());
  return ctx;
}

/** The composition root: infrastructure, then the API areas, then the web app. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    logger: { level: config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    ...timeoutOptions(timeouts),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 64 * 1024,
    // Ready waits for the read workers to start (bundled first under tsx): on a busy machine that
    // outlasts Fastify's 10 s default, and the start failed (seen in a CI run at load 22).
    pluginTimeout: 60_000,
    // A person's id (common/people.ts NAME_MAX, 200 characters) percent-encoded in a path: up to 12 characters each.
    routerOptions: { maxParamLength: 2400 },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: false } },
  });
  // Stop at once, in one line, if DATA_DIR cannot hold what we will write there (on PostgreSQL
  // nothing is: generated secrets and keys live in the database, shared by every node).
  if (!config.databaseUrl) checkDataDir(config.dataDir);
  const db: Db = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, ...options.db });
  app.addHook('onClose', async () => db.destroy());
  await migrate(db);

  app.decorateRequest('userId', null);
  app.decorateRequest('signInId', null);
  await registerSecurity(app, config);
  await app.register(cookie);
  // Limits are declared per route (config.rateLimits); 429 answers carry Retry-After. Several
  // nodes count in Redis or PostgreSQL, so a limit holds for the whole site.
  const rateStorage = await rateLimitStorage(app, config, db);
  await app.register(rateLimit, {
    global: false,
    // Per-address limits count the client as TRUST_PROXY defines it (http/client-address.ts).
    keyGenerator: clientAddress,
    ...rateStorage,
    errorResponseBuilder: (_request, context) => new HttpError(429, `Too many requests: try again in ${Math.ceil(context.ttl / 1000)} s`),
  });
  installErrorHandler(app);
  const apiRoutes = applyInputRules(app);
  refuseCrossSiteWrites(app, config.publicUrl);
  authenticateApiKeys(app, db, config.rateLimits.apiKeyPerMin);
  // Before every route: the reference is generated from the routes as they register.
  await registerOpenApi(app, config, ACCESS_COOKIE, routeScope);

  const ctx = await services(app, config, db, options, { apiRoutes, byteCounter: byteCounter(rateStorage, db, Boolean(config.databaseUrl)) });
  app.decorate('ctx', ctx);
  await registerHealth(app, db, ctx.diskGuard);
  startJobs(app, db, undefined, { auditRetentionDays: config.auditRetentionDays });

  await registerAuth(app, ctx);
  await registerAccount(app, ctx);
  await registerTeams(app, ctx);
  await registerApiKeys(app, ctx);
  await registerCampaigns(app, ctx);
  await registerSessions(app, ctx);
  await registerInsights(app, ctx);
  await registerFunnels(app, ctx);
  await registerHeatmaps(app, ctx);
  await registerStars(app, ctx);
  await registerSegments(app, ctx);
  await registerNotes(app, ctx);
  await registerPeople(app, ctx);
  await registerReplay(app, ctx);
  await registerShares(app, ctx);
  await registerWebhooks(app, ctx);
  await registerLive(app, ctx);
  await registerIngest(app, ctx);
  await registerSite(app, ctx);
  await registerWeb(app, ctx);
  return app;
}
