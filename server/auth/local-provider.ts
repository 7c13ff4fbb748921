import crypto from 'node:crypto';
import type { default as Provider, Account } from 'oidc-provider';
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import { persistentJson, persistentSecret } from '../secrets.js';
import { findAccountBySubject } from './local-accounts.js';

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
/** The client secret both sides share: generated once into DATA_DIR. */
export const localClientSecret = (config: Config) => persistentSecret(config.dataDir, 'oidc-client');

function signingKeys(dataDir: string): { keys: Array<Record<string, unknown>> } {
  return persistentJson(dataDir, 'oidc-jwks', () => {
    // ES256: generated instantly, supported by every OIDC client library.
    const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = privateKey.export({ format: 'jwk' });
    return { keys: [{ ...jwk, kid: crypto.randomBytes(8).toString('base64url'), alg: 'ES256', use: 'sig' }] };
  });
}

export class LocalProvider {
  #provider: Promise<Provider> | null = null;

  constructor(
    private readonly config: Config,
    readonly db: Db,
  ) {}

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
    const { default: Provider } = await import('oidc-provider');
    const { default: MemoryAdapter } = await import('oidc-provider/lib/adapters/memory_adapter.js');
    const provider = new Provider(localIssuer(config), {
      // oidc-provider's in-memory adapter (bounded LRU) holds codes, grants and interactions. Fine
      // for this dev/self-host provider: one process, and a restart only cancels sign-ins in flight.
      // A subclass, because the library warns at start-up when handed its own class: that warning
      // is for people who forgot to configure storage, and this choice is deliberate.
      adapter: class InMemory extends MemoryAdapter {},
      clients: [
        {
          client_id: LOCAL_CLIENT_ID,
          client_secret: localClientSecret(config),
          redirect_uris: [callbackUrl(config)],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
          id_token_signed_response_alg: 'ES256',
        },
      ],
      jwks: signingKeys(config.dataDir),
      cookies: { keys: [persistentSecret(config.dataDir, 'oidc-cookies')] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      // Put name and email into the ID token itself, as Google does.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      responseTypes: ['code'],
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `${LOCAL_MOUNT}/interaction/${interaction.uid}` },
      findAccount: this.#findAccount,
      ttl: { Interaction: 600, Session: 600, Grant: 600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
    });
    // Endpoints are always announced under PUBLIC_URL (see mount.ts), whatever address reached us.
    provider.proxy = true;
    return provider;
  }
}
