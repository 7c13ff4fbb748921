import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { startServer, usingPostgres, type TestServer } from '../helpers/server.js';
import { signIn } from '../helpers/signin.js';

/** A generated secret as the server kept it: a file in DATA_DIR on SQLite, a row on PostgreSQL (shared by every node). */
async function kept(server: TestServer, file: string): Promise<string> {
  if (!usingPostgres()) return fs.readFileSync(path.join(server.config.dataDir, file), 'utf8').trim();
  const name = file.replace(/\.(secret|json)$/, '');
  const row = await server.db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  expect(fs.existsSync(path.join(server.config.dataDir, file))).toBe(false);
  return row.value;
}

describe('sign-in providers', () => {
  it('the built-in provider refuses to start in production unless ALLOW_LOCAL_SIGNIN=1', async () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/^ALLOW_LOCAL_SIGNIN/);
    await expect(startServer({ NODE_ENV: 'production' })).rejects.toThrow(/ALLOW_LOCAL_SIGNIN/);

    const allowed = await startServer({ NODE_ENV: 'production', ALLOW_LOCAL_SIGNIN: '1' });
    try {
      const discovery = await fetch(`${allowed.url}/oidc/.well-known/openid-configuration`);
      expect(discovery.status).toBe(200);
    } finally {
      await allowed.close();
    }
  });

  it('announces its endpoints under PUBLIC_URL and keeps its keys and client secret (DATA_DIR on SQLite, the database on PostgreSQL)', async () => {
    const server = await startServer({ PUBLIC_URL: 'https://tapedeck.example' });
    try {
      const metadata = await (await fetch(`${server.url}/oidc/.well-known/openid-configuration`)).json();
      expect(metadata.issuer).toBe('https://tapedeck.example/oidc');
      expect(metadata.authorization_endpoint).toBe('https://tapedeck.example/oidc/auth');
      expect(metadata.token_endpoint).toBe('https://tapedeck.example/oidc/token');
      expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
      const jwks = await (await fetch(`${server.url}/oidc/jwks`)).json();
      const saved = JSON.parse(await kept(server, 'oidc-jwks.json'));
      expect(jwks.keys[0].kid).toBe(saved.keys[0].kid);
      expect(jwks.keys[0].d).toBeUndefined(); // only the public half is published
      expect((await kept(server, 'oidc-client.secret')).length).toBeGreaterThanOrEqual(40);
      if (!usingPostgres()) expect(fs.statSync(path.join(server.config.dataDir, 'oidc-client.secret')).mode & 0o777).toBe(0o600);
    } finally {
      await server.close();
    }
  });

  it('marks every cookie Secure when PUBLIC_URL is https', async () => {
    const server = await startServer({ PUBLIC_URL: 'https://tapedeck.example' });
    try {
      const signedIn = await signIn(server, { name: 'Sec', email: 'sec@example.test' });
      const lines = signedIn.setCookie.filter((l) => l.startsWith('td_access=') || l.startsWith('td_refresh='));
      expect(lines).toHaveLength(2);
      for (const line of lines) expect(line.toLowerCase()).toMatch(/; secure/);
    } finally {
      await server.close();
    }
  });

  it('with another OIDC issuer configured, sends the browser there and mounts no built-in provider', async () => {
    const issuer = await startServer();
    const secret = await kept(issuer, 'oidc-client.secret');
    const server = await startServer({ OIDC_ISSUER: `${issuer.config.publicUrl}/oidc`, OIDC_CLIENT_ID: 'tapedeck', OIDC_CLIENT_SECRET: secret });
    try {
      const login = await fetch(`${server.url}/api/v1/auth/google/login`, { redirect: 'manual' });
      expect(login.status).toBe(302);
      const location = new URL(login.headers.get('location') ?? '');
      expect(location.href.startsWith(`${issuer.config.publicUrl}/oidc/auth?`)).toBe(true);
      expect(location.searchParams.get('redirect_uri')).toBe(`${server.config.publicUrl}/auth/google/callback`);
      expect((await fetch(`${server.url}/oidc/.well-known/openid-configuration`)).status).toBe(404);
    } finally {
      await server.close();
      await issuer.close();
    }
  });

  it('answers 502 with a reason when the configured issuer cannot be reached', async () => {
    const server = await startServer({ OIDC_ISSUER: 'http://127.0.0.1:9/nowhere', OIDC_CLIENT_ID: 'x', OIDC_CLIENT_SECRET: 'y' });
    try {
      const login = await fetch(`${server.url}/api/v1/auth/google/login`, { redirect: 'manual' });
      expect(login.status).toBe(502);
      expect(await login.json()).toEqual({ error: 'The sign-in provider is unavailable' });
    } finally {
      await server.close();
    }
  });
});
