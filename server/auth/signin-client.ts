import * as oidc from 'openid-client';
import type { Config } from '../config.js';
import type { Identity } from './users.js';
import { LOCAL_CLIENT_ID, callbackUrl, localIssuer, type LocalProvider } from './local-provider.js';

/** What the server needs to know about the configured identity provider. */
interface ProviderSettings {
  issuer: string;
  clientId: string;
  /** The built-in provider's is generated on first use, so it is asked for when needed. */
  clientSecret: () => Promise<string>;
  /** The built-in provider is reached over loopback (see loopbackFetch). */
  fetch?: oidc.CustomFetch;
  /** Extra authorization parameters. */
  extra: Record<string, string>;
}

/** The secrets of one sign-in attempt, kept in the short-lived sign-in cookie. */
export interface SignInCheck {
  state: string;
  verifier: string;
  nonce: string;
}

export class SignInError extends Error {}

function connectHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * The built-in provider lives in this very process, announced under PUBLIC_URL. PUBLIC_URL may
 * not be reachable from the server itself (a proxy in front, or `localhost` resolving to ::1
 * while we listen on 127.0.0.1), so requests to it go to the address we listen on instead.
 */
function loopbackFetch(config: Config): oidc.CustomFetch {
  const publicOrigin = new URL(config.publicUrl).origin;
  const direct = `http://${connectHost(config.host)}:${config.port}`;
  return (url, options) => {
    const target = new URL(url).origin === publicOrigin ? direct + url.slice(publicOrigin.length) : url;
    return fetch(target, options as RequestInit);
  };
}

function settingsFor(config: Config, local: LocalProvider | null): ProviderSettings {
  const { signIn } = config;
  const given = (secret: string) => async () => secret;
  switch (signIn.kind) {
    case 'google':
      return { issuer: 'https://accounts.google.com', clientId: signIn.clientId, clientSecret: given(signIn.clientSecret), extra: {} };
    case 'oidc':
      return { issuer: signIn.issuer, clientId: signIn.clientId, clientSecret: given(signIn.clientSecret), extra: {} };
    case 'local':
      if (!local) throw new Error('the built-in sign-in provider is not mounted');
      return {
        issuer: localIssuer(config),
        clientId: LOCAL_CLIENT_ID,
        clientSecret: () => local.clientSecret(),
        fetch: loopbackFetch(config),
        // Always show the name/email form, so another person can sign in on the same browser.
        extra: { prompt: 'login' },
      };
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The server as an OpenID Connect client of the configured provider. */
export class SignInClient {
  readonly #settings: ProviderSettings;
  readonly #redirectUri: string;
  #discovered: Promise<oidc.Configuration> | null = null;

  constructor(config: Config, local: LocalProvider | null) {
    this.#settings = settingsFor(config, local);
    this.#redirectUri = callbackUrl(config);
  }

  /** Discovery happens on first use and is cached; a failed discovery is retried next time. */
  #configuration(): Promise<oidc.Configuration> {
    if (!this.#discovered) {
      const { issuer, clientId, clientSecret, fetch } = this.#settings;
      const options: oidc.DiscoveryRequestOptions = {};
      if (issuer.startsWith('http:')) options.execute = [oidc.allowInsecureRequests];
      if (fetch) options[oidc.customFetch] = fetch;
      this.#discovered = clientSecret().then((secret) => oidc.discovery(new URL(issuer), clientId, secret, undefined, options));
      this.#discovered.catch(() => {
        this.#discovered = null;
      });
    }
    return this.#discovered;
  }

  /** A new attempt: its secrets, and where to send the browser. */
  async start(): Promise<{ check: SignInCheck; url: URL }> {
    const configuration = await this.#configuration();
    const check = { state: oidc.randomState(), verifier: oidc.randomPKCECodeVerifier(), nonce: oidc.randomNonce() };
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.#redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state: check.state,
      nonce: check.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(check.verifier),
      code_challenge_method: 'S256',
      ...this.#settings.extra,
    });
    return { check, url };
  }

  /** Exchanges the code (checking state, PKCE and nonce) and reads who signed in. */
  async finish(check: SignInCheck, params: { code: string; state: string; iss?: string }): Promise<Identity> {
    const configuration = await this.#configuration();
    const server = configuration.serverMetadata();
    const returned = new URL(this.#redirectUri);
    returned.searchParams.set('code', params.code);
    returned.searchParams.set('state', params.state);
    // The callback page sends {code, state}; RFC 9207's iss guards against mix-ups between several
    // providers, and we have exactly one, so a missing iss stands for the configured issuer.
    if (params.iss ?? server.authorization_response_iss_parameter_supported) returned.searchParams.set('iss', params.iss ?? server.issuer);
    const tokens = await oidc.authorizationCodeGrant(configuration, returned, {
      pkceCodeVerifier: check.verifier,
      expectedState: check.state,
      expectedNonce: check.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new SignInError('the provider sent no ID token');
    let profile: Record<string, unknown> = claims;
    if ((!text(claims.name) || !text(claims.email)) && server.userinfo_endpoint) {
      profile = { ...claims, ...(await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub)) };
    }
    const email = text(profile.email);
    return {
      subject: `${claims.iss}|${claims.sub}`,
      name: (text(profile.name) ?? email ?? 'User').slice(0, 200),
      email,
      picture: text(profile.picture),
    };
  }
}
