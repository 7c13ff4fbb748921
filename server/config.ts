import os from 'node:os';
import path from 'node:path';
import { isIP } from 'node:net';
import { webhookSettings, type WebhookSettings } from './webhooks/settings.js';

/** TRUST_PROXY as read here: off, a number of proxies in front, or their addresses/CIDRs (http/client-address.ts applies it). */
export type TrustProxy = false | number | string[];

/** Typed server configuration, read once from the environment at start-up. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… switches to PostgreSQL; undefined means SQLite under dataDir. */
  databaseUrl?: string;
  /** redis://… keeps rate-limit counters in Redis, shared by every node (else PostgreSQL or memory). */
  redisUrl?: string;
  /** The origin users and trackers reach, without a trailing slash. */
  publicUrl: string;
  /** TRUST_PROXY: the proxies in front, by count or address; the client is the last hop not among them. */
  trustProxy: TrustProxy;
  production: boolean;
  allowLocalSignin: boolean;
  signIn:
    { kind: 'google'; clientId: string; clientSecret: string } | { kind: 'oidc'; issuer: string; clientId: string; clientSecret: string } | { kind: 'local' };
  /** Secret for signing access tokens; generated into dataDir when not given. */
  sessionSecret?: string;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Where the built PWA and tracker live (dist/ by default). */
  distDir: string;
  /** Who may create an account with the built-in provider: anyone (open) or only `npm run user` (closed). */
  signup: 'open' | 'closed';
  /** The owner's contact address shown in the app's footer (CONTACT_EMAIL); none when unset. */
  contactEmail?: string;
  /** Days an audit entry is kept (AUDIT_RETENTION_DAYS); housekeeping deletes older ones. 0: forever. */
  auditRetentionDays: number;
  /** SMTP_URL (smtp:// or smtps://, user and password in it) and SMTP_FROM: invites are e-mailed through it; none when unset. */
  smtp?: { url: string; from: string };
  /** Webhooks' deliveries: WEBHOOK_ALLOW_PRIVATE, WEBHOOK_RETRY_BASE_MS, … (docs/configuration.md). */
  webhooks: WebhookSettings;
  limits: Limits;
  rateLimits: RateLimits;
}

/** What one visitor, session or request may cost the server (docs/limits.md). */
export interface Limits {
  /** Event JSON one session may store; past it the session is closed with a note. */
  sessionMaxBytes: number;
  sessionMaxEvents: number;
  /** Batches (chunks) one session may store. */
  sessionMaxBatches: number;
  /** Ingest answers 503 while the data directory's volume has less free space than this. */
  diskMinFreeBytes: number;
  /** Worker threads that inflate, parse, validate and compress ingest batches. */
  ingestWorkers: number;
  /** Retrievals of large or out-of-order sessions that run at once on this node. */
  heavyReplays: number;
  /** Of those, how many one owner may hold at once (and how many of theirs may wait). */
  heavyReplaysPerOwner: number;
  /** Heavy owner reads (funnel results, filtered heatmaps, long insights, the list by a funnel) that run at once on this node. */
  heavyReads: number;
  /** Of those, how many one account may run at once (and as many waiting); past it: 429. */
  heavyReadsPerAccount: number;
  /** A heavy read's time budget; past it the read is stopped and answered 503. */
  heavyReadMs: number;
  /** A retrieval or live stream whose client has read nothing for this long is ended. */
  stalledReaderMs: number;
  /** How long requests in flight (a long replay stream too) may finish after SIGTERM/SIGINT. */
  shutdownGraceMs: number;
  /** Live streams (docs/live.md) one user may hold open on one node, and the node in all. */
  liveStreamsPerUser: number;
  liveStreamsPerNode: number;
  /** How often an open live stream sends its `: hb` comment. */
  liveHeartbeatMs: number;
  /** Event JSON bytes a campaign's sessions may hold in all; past it no new session starts. 0: no quota. */
  storageQuotaBytes: number;
  /** Event bytes one user's live streams on one node may hold in memory at once. */
  liveBytesPerUser: number;
}

/** Requests per minute; 0 turns a limit off. */
export interface RateLimits {
  newSessionsPerIp: number;
  newSessionsPerCampaign: number;
  batchesPerSession: number;
  batchesPerIp: number;
  signInPerIp: number;
  /** Sign-in form posts for one email a minute, from any addresses. */
  signInPerAccount: number;
  refreshPerIp: number;
  /** Ingest body megabytes a minute from one address and into one campaign. */
  ingestMbPerIp: number;
  ingestMbPerCampaign: number;
  /** Requests one API key may make a minute (API_KEY_RATE_PER_MIN), from any address. */
  apiKeyPerMin: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return n;
}

function bool(env: Env, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (['', '0', 'false', 'no', 'off'].includes(raw)) return false;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  throw new ConfigError(`${name} must be 1/0, true/false, yes/no or on/off (got "${env[name]}")`);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (got "${raw}")`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => p + '//').join(' or ')} (got "${raw}")`);
  }
  return raw;
}

function signIn(env: Env): Config['signIn'] {
  const google = env.GOOGLE_CLIENT_ID || env.GOOGLE_CLIENT_SECRET;
  if (google) {
    if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) {
      throw new ConfigError('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together');
    }
    return { kind: 'google', clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET };
  }
  const issuer = url(env, 'OIDC_ISSUER', ['https:', 'http:']);
  if (issuer || env.OIDC_CLIENT_ID || env.OIDC_CLIENT_SECRET) {
    if (!issuer || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) {
      throw new ConfigError('OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together');
    }
    return { kind: 'oidc', issuer, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET };
  }
  return { kind: 'local' };
}

/** One plain address (no name, no list): it is shown in the app and put in a mailto: link. */
const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

function email(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (raw.length > 254 || !EMAIL.test(raw)) throw new ConfigError(`${name} must be one email address such as hello@example.com (got "${env[name]}")`);
  return raw;
}

/** SMTP_URL and SMTP_FROM (by default tapedeck@ the PUBLIC_URL's host); undefined when SMTP_URL is unset. */
function smtp(env: Env, publicUrl: string): Config['smtp'] {
  const smtpUrl = url(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  if (!smtpUrl) {
    if (env.SMTP_FROM?.trim()) throw new ConfigError('SMTP_FROM needs SMTP_URL');
    return undefined;
  }
  const host = new URL(publicUrl).hostname;
  const from = email(env, 'SMTP_FROM') ?? `tapedeck@${host.includes('.') ? host : `${host}.localdomain`}`;
  return { url: smtpUrl, from };
}

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** One trusted proxy: an address, an address/prefix (CIDR), or one of PROXY_RANGES. */
function proxyEntry(entry: string): boolean {
  if (PROXY_RANGES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * TRUST_PROXY: off (empty, 0, false, no, off), a number of proxies in front (1 = one hop), or a
 * comma-separated list of their addresses/CIDRs. "true" is refused: trusting every hop makes the
 * client's own X-Forwarded-For entry its address.
 */
function trustProxy(env: Env): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (['', '0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  if (/^\d+$/.test(raw)) return int(env, 'TRUST_PROXY', 0, 0, 20);
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.every(proxyEntry)) return entries;
  throw new ConfigError(
    `TRUST_PROXY must be the number of proxies in front of Tapedeck (such as 1) or a comma-separated list of their addresses or CIDRs (such as 10.0.0.0/8, ::1) (got "${env.TRUST_PROXY}")`,
  );
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${values.join(', ')} (got "${raw}")`);
  return raw as T;
}

const MB = 1024 * 1024;
/** pino's levels: anything else would stop the logger, not the configuration check. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function limits(env: Env): Limits {
  const heavyReplays = int(env, 'HEAVY_REPLAYS', 2, 1, 64);
  // A heavy read keeps a core busy: one core stays the event loop's.
  const heavyReads = int(env, 'HEAVY_READS', Math.max(1, Math.min(4, os.availableParallelism() - 1)), 1, 64);
  return {
    sessionMaxBytes: int(env, 'SESSION_MAX_MB', 64, 1, 4096) * MB,
    sessionMaxEvents: int(env, 'SESSION_MAX_EVENTS', 1_000_000, 1, 100_000_000),
    sessionMaxBatches: int(env, 'SESSION_MAX_BATCHES', 20_000, 1, 1_000_000),
    diskMinFreeBytes: int(env, 'DISK_MIN_FREE_MB', 256, 0, 10_000_000) * MB,
    ingestWorkers: int(env, 'INGEST_WORKERS', Math.max(1, Math.min(4, os.availableParallelism() - 1)), 1, 64),
    heavyReplays,
    heavyReplaysPerOwner: int(env, 'HEAVY_REPLAYS_PER_OWNER', Math.max(1, Math.floor(heavyReplays / 2)), 1, heavyReplays),
    heavyReads,
    heavyReadsPerAccount: int(env, 'HEAVY_READS_PER_ACCOUNT', Math.max(1, Math.floor(heavyReads / 2)), 1, heavyReads),
    heavyReadMs: int(env, 'HEAVY_READ_MS', 20_000, 10, 600_000),
    stalledReaderMs: int(env, 'STALLED_READER_SECONDS', 30, 1, 3600) * 1000,
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    liveStreamsPerUser: int(env, 'LIVE_STREAMS_PER_USER', 20, 1, 1000),
    liveStreamsPerNode: int(env, 'LIVE_STREAMS_PER_NODE', 2000, 1, 100_000),
    liveHeartbeatMs: int(env, 'LIVE_HEARTBEAT_MS', 15_000, 50, 600_000),
    storageQuotaBytes: int(env, 'STORAGE_QUOTA_MB', 10_240, 0, 100_000_000) * MB,
    liveBytesPerUser: int(env, 'LIVE_MB_PER_USER', 16, 1, 1024) * MB,
  };
}

function rateLimits(env: Env): RateLimits {
  const perMinute = (name: string, fallback: number) => int(env, name, fallback, 0, 1_000_000);
  return {
    newSessionsPerIp: perMinute('RATE_NEW_SESSIONS_PER_IP', 120),
    newSessionsPerCampaign: perMinute('RATE_NEW_SESSIONS_PER_CAMPAIGN', 3000),
    batchesPerSession: perMinute('RATE_BATCHES_PER_SESSION', 120),
    batchesPerIp: perMinute('RATE_BATCHES_PER_IP', 6000),
    signInPerIp: perMinute('RATE_SIGNIN_PER_IP', 20),
    signInPerAccount: perMinute('RATE_SIGNIN_PER_ACCOUNT', 10),
    refreshPerIp: perMinute('RATE_REFRESH_PER_IP', 120),
    ingestMbPerIp: perMinute('RATE_INGEST_MB_PER_IP', 100),
    ingestMbPerCampaign: perMinute('RATE_INGEST_MB_PER_CAMPAIGN', 1000),
    apiKeyPerMin: perMinute('API_KEY_RATE_PER_MIN', 240),
  };
}

/** Reads and validates the environment; throws ConfigError naming the bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const production = env.NODE_ENV === 'production';
  const publicUrl = (url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const config: Config = {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    publicUrl,
    trustProxy: trustProxy(env),
    production,
    allowLocalSignin: bool(env, 'ALLOW_LOCAL_SIGNIN'),
    signIn: signIn(env),
    sessionSecret: env.SESSION_SECRET || undefined,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, production ? 'info' : 'warn'),
    distDir: path.resolve(env.DIST_DIR || './dist'),
    signup: oneOf(env, 'SIGNUP', ['open', 'closed'] as const, 'open'),
    contactEmail: email(env, 'CONTACT_EMAIL'),
    auditRetentionDays: int(env, 'AUDIT_RETENTION_DAYS', 365, 0, 36_500),
    smtp: smtp(env, publicUrl),
    webhooks: webhookSettings({ int: (...args) => int(env, ...args), bool: (name) => bool(env, name) }),
    limits: limits(env),
    rateLimits: rateLimits(env),
  };
  if (config.sessionSecret !== undefined && config.sessionSecret.length < 32) {
    throw new ConfigError('SESSION_SECRET must be at least 32 characters');
  }
  if (config.signIn.kind === 'local' && production && !config.allowLocalSignin) {
    throw new ConfigError(
      'ALLOW_LOCAL_SIGNIN: the built-in sign-in provider is off when NODE_ENV=production; configure GOOGLE_CLIENT_ID or OIDC_ISSUER, or set ALLOW_LOCAL_SIGNIN=1',
    );
  }
  if (config.signIn.kind === 'local' && !LOOPBACK.includes(host.toLowerCase()) && !config.allowLocalSignin) {
    throw new ConfigError(
      `ALLOW_LOCAL_SIGNIN: the built-in sign-in provider only listens on loopback (HOST=127.0.0.1, ::1 or localhost), not HOST=${host}; configure GOOGLE_CLIENT_ID or OIDC_ISSUER, or set ALLOW_LOCAL_SIGNIN=1`,
    );
  }
  return config;
}

/** Addresses only this machine can reach: the built-in provider may serve them without opting in. */
const LOOPBACK = ['127.0.0.1', '::1', '[::1]', 'localhost'];
