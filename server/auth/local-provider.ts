import crypto from 'node:crypto';
import type { default as Provider, Account } from 'oidc-provider';
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import { secretStore, type SecretStore } from '../secrets.js';
import { findAccountBySubject } from './local-accounts.js';
import { databaseAdapter } from './oidc-adapter.js';

/**
 * The built-in OpenID provider: the default sign-in when neither Google nor another OIDC issuer
 * is configured, so a fresh machine signs in through the real authorization-code flow with no
 * outside service. Accounts are an email and a password (local-accounts.ts), set at the first
 * sign-in of that email or made by `npm run user`. Refused in production and on a non-loopback
 * HOST unless ALLOW_LOCAL_SIGNIN=1 (config.ts).
 */
export const LOCAL_MOUNT = '/oidc';
export const LOCAL_CLIENT_ID = 'tapedeck';

export const localIssuer = (config: Config) => `${config.publicUrl}${LOCAL_MOUNT}`;
export const callbackUrl = (config: Config) => `${config.publicUrl}/auth/google/callback`;
type KeySet = { keys: Array<Record<string, unknown>> };

/**
 * The provider's own sign-in lasts this long from the password, and using it does not extend it.
 * It only has to carry the browser from the form back to the authorization endpoint.
 */
export const PROVIDER_SESSION_SECONDS = 120;
const epochSeconds = () => Math.floor(Date.now() / 1000);

/** What is left of a provider session's lifetime, counted from its sign-in (at least a second). */
const sessionSecondsLeft = (_ctx: unknown, session: { loginTs?: number }) =>
  Math.max(1, (session.loginTs ?? epochSeconds()) + PROVIDER_SESSION_SECONDS - epochSeconds());

/**
 * Every authorization request asks for the password, whatever the client's `prompt` says and
 * whatever provider session the browser still holds: a browser that signed in before (and was
 * signed out everywhere since) cannot skip the form by dropping `prompt=login`. Only the resume
 * right after the form, carrying its login, goes on without asking again.
 */
function alwaysLogin(interactionPolicy: typeof import('oidc-provider').interactionPolicy) {
  const policy = interactionPolicy.base();
  const always = new interactionPolicy.Check(
    'password_every_time',
    'the password is asked at every sign-in',
    'login_required',
    (ctx) => !ctx.oidc.result?.login,
  );
  policy.get('login')?.checks.unshift(always);
  return policy;
}

function signingKeys(secrets: SecretStore): Promise<KeySet> {
  return secrets.json<KeySet>('oidc-jwks', () => {
    // ES256: generated instantly, supported by every OIDC client library.
    const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = privateKey.export({ format: 'jwk' });
    return { keys: [{ ...jwk, kid: crypto.randomBytes(8).toString('base64url'), alg: 'ES256', use: 'sig' }] };
  });
}

export class LocalProvider {
  #provider: Promise<Provider> | null = null;
  readonly #secrets: SecretStore;

  constructor(
    private readonly config: Config,
    readonly db: Db,
  ) {
    this.#secrets = secretStore(db, config);
  }

  /**
   * The client secret both sides share (the provider and our sign-in client): generated once,
   * into DATA_DIR on SQLite, into the database when several servers share PostgreSQL.
   */
  clientSecret(): Promise<string> {
    return this.#secrets.secret('oidc-client');
  }

  /** Loaded and created on first use: most servers (and tests) never sign anyone in through it. */
  provider(): Promise<Provider> {
    this.#provider ??= this.#create();
    return this.#provider;
  }

  #findAccount = async (_ctx: unknown, sub: string): Promise<Account | undefined> => {
    const account = await findAccountBySubject(this.db, sub);
    if (!account) return undefined;
    return { accountId: sub, claims: () => ({ sub, name: account.name, email: account.email, email_verified: false }) };
  };

  async #create(): Promise<Provider> {
    const { config } = this;
    const { default: Provider, interactionPolicy } = await import('oidc-provider');
    const provider = new Provider(localIssuer(config), {
      // Codes, grants and sign-ins in flight live in our database, so a sign-in may start on one
      // server and finish on another, and a restart cancels none.
      adapter: databaseAdapter(this.db),
      clients: [
        {
          client_id: LOCAL_CLIENT_ID,
          client_secret: await this.clientSecret(),
          redirect_uris: [callbackUrl(config)],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
          id_token_signed_response_alg: 'ES256',
        },
      ],
      jwks: await signingKeys(this.#secrets),
      cookies: { keys: [await this.#secrets.secret('oidc-cookies')] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      // Put name and email into the ID token itself, as Google does.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      responseTypes: ['code'],
      features: { devInteractions: { enabled: false } },
      interactions: { policy: alwaysLogin(interactionPolicy), url: (_ctx, interaction) => `${LOCAL_MOUNT}/interaction/${interaction.uid}` },
      findAccount: this.#findAccount,
      ttl: { Interaction: 600, Session: sessionSecondsLeft, Grant: 600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
    });
    // Endpoints are always announced under PUBLIC_URL (see mount.ts), whatever address reached us.
    provider.proxy = true;
    return provider;
  }
}
