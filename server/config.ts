import path from 'node:path';

/** Typed server configuration, read once from the environment at start-up. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… switches to PostgreSQL; undefined means SQLite under dataDir. */
  databaseUrl?: string;
  /** The origin users and trackers reach, without a trailing slash. */
  publicUrl: string;
  trustProxy: boolean;
  production: boolean;
  allowLocalSignin: boolean;
  signIn:
    | { kind: 'google'; clientId: string; clientSecret: string }
    | { kind: 'oidc'; issuer: string; clientId: string; clientSecret: string }
    | { kind: 'local' };
  /** Secret for signing access tokens; generated into dataDir when not given. */
  sessionSecret?: string;
  logLevel: string;
  /** Where the built PWA and tracker live (dist/ by default). */
  distDir: string;
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
    publicUrl,
    trustProxy: bool(env, 'TRUST_PROXY'),
    production,
    allowLocalSignin: bool(env, 'ALLOW_LOCAL_SIGNIN'),
    signIn: signIn(env),
    sessionSecret: env.SESSION_SECRET || undefined,
    logLevel: env.LOG_LEVEL || (production ? 'info' : 'warn'),
    distDir: path.resolve(env.DIST_DIR || './dist'),
  };
  if (config.sessionSecret !== undefined && config.sessionSecret.length < 32) {
    throw new ConfigError('SESSION_SECRET must be at least 32 characters');
  }
  if (config.signIn.kind === 'local' && production && !config.allowLocalSignin) {
    throw new ConfigError(
      'ALLOW_LOCAL_SIGNIN: the built-in sign-in provider is off when NODE_ENV=production; configure GOOGLE_CLIENT_ID or OIDC_ISSUER, or set ALLOW_LOCAL_SIGNIN=1',
    );
  }
  return config;
}
