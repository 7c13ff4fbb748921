import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../../server/config.js';

describe('loadConfig', () => {
  it('uses the embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.signIn).toEqual({ kind: 'local' });
    expect(config.dataDir).toMatch(/data$/);
    expect(config.auditRetentionDays).toBe(365);
    expect(config.smtp).toBeUndefined();
  });

  it('e-mails invites through SMTP_URL, from SMTP_FROM or tapedeck@ the public host', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://u:p@127.0.0.1:2525', PUBLIC_URL: 'https://replays.shop.example' }).smtp).toEqual({
      url: 'smtp://u:p@127.0.0.1:2525',
      from: 'tapedeck@replays.shop.example',
    });
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example', SMTP_FROM: 'team@shop.example' }).smtp?.from).toBe('team@shop.example');
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT /],
    [{ PORT: '70000' }, /^PORT /],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL /],
    [{ PUBLIC_URL: 'not a url' }, /^PUBLIC_URL /],
    [{ TRUST_PROXY: 'maybe' }, /^TRUST_PROXY /],
    // Trusting every hop would make the client's own X-Forwarded-For entry its address.
    [{ TRUST_PROXY: 'true' }, /^TRUST_PROXY must be the number of proxies/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /^TRUST_PROXY /],
    [{ TRUST_PROXY: '10.0.0.1, proxy.internal' }, /^TRUST_PROXY /],
    [{ TRUST_PROXY: '21' }, /^TRUST_PROXY /],
    [{ RATE_INGEST_MB_PER_IP: '-1' }, /^RATE_INGEST_MB_PER_IP /],
    [{ RATE_INGEST_MB_PER_CAMPAIGN: 'lots' }, /^RATE_INGEST_MB_PER_CAMPAIGN /],
    [{ STORAGE_QUOTA_MB: '1.5' }, /^STORAGE_QUOTA_MB /],
    [{ GOOGLE_CLIENT_ID: 'x' }, /GOOGLE_CLIENT_SECRET/],
    [{ SMTP_URL: 'http://mail.example' }, /^SMTP_URL must start with smtp:\/\/ or smtps:\/\//],
    [{ SMTP_FROM: 'team@example.com' }, /^SMTP_FROM needs SMTP_URL/],
    [{ SMTP_URL: 'smtp://127.0.0.1:2525', SMTP_FROM: 'not an address' }, /^SMTP_FROM /],
    [{ AUDIT_RETENTION_DAYS: '-1' }, /^AUDIT_RETENTION_DAYS /],
    [{ OIDC_ISSUER: 'https://id.example' }, /OIDC_CLIENT_ID/],
    [{ SESSION_SECRET: 'short' }, /^SESSION_SECRET /],
    [{ NODE_ENV: 'production' }, /^ALLOW_LOCAL_SIGNIN/],
    [{ HOST: '0.0.0.0' }, /^ALLOW_LOCAL_SIGNIN.*HOST=0\.0\.0\.0/],
    [{ HOST: '::' }, /^ALLOW_LOCAL_SIGNIN/],
    [{ HOST: '192.168.1.20' }, /^ALLOW_LOCAL_SIGNIN/],
    [{ CONTACT_EMAIL: 'not an address' }, /^CONTACT_EMAIL must be one email address/],
    [{ CONTACT_EMAIL: 'a@example.com, b@example.com' }, /^CONTACT_EMAIL /],
    [{ CONTACT_EMAIL: 'Ada <ada@example.com>' }, /^CONTACT_EMAIL /],
    [{ LOG_LEVEL: 'verbose' }, /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent \(got "verbose"\)$/],
  ])('rejects %o naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads TRUST_PROXY as off, a hop count, or a list of proxy addresses and CIDRs', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.4 ,fd00::/8,loopback' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.4', 'fd00::/8', 'loopback']);
  });

  it('has byte budgets and a storage quota by default, each settable and 0 for none', () => {
    const defaults = loadConfig({});
    expect(defaults.rateLimits.ingestMbPerIp).toBe(100);
    expect(defaults.rateLimits.ingestMbPerCampaign).toBe(1000);
    expect(defaults.limits.storageQuotaBytes).toBe(10_240 * 1024 * 1024);
    const set = loadConfig({ RATE_INGEST_MB_PER_IP: '0', RATE_INGEST_MB_PER_CAMPAIGN: '50', STORAGE_QUOTA_MB: '0' });
    expect([set.rateLimits.ingestMbPerIp, set.rateLimits.ingestMbPerCampaign, set.limits.storageQuotaBytes]).toEqual([0, 50, 0]);
  });

  it('takes the contact address from CONTACT_EMAIL, none when unset', () => {
    expect(loadConfig({}).contactEmail).toBeUndefined();
    expect(loadConfig({ CONTACT_EMAIL: '' }).contactEmail).toBeUndefined();
    expect(loadConfig({ CONTACT_EMAIL: ' hello@shop.example ' }).contactEmail).toBe('hello@shop.example');
  });

  it('lets production use the built-in provider only when allowed', () => {
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_LOCAL_SIGNIN: '1' }).signIn.kind).toBe('local');
  });

  it('serves the built-in provider on a non-loopback HOST only when allowed; other providers anywhere', () => {
    for (const host of ['127.0.0.1', '::1', 'localhost']) expect(loadConfig({ HOST: host }).host).toBe(host);
    expect(loadConfig({ HOST: '0.0.0.0', ALLOW_LOCAL_SIGNIN: '1' }).signIn.kind).toBe('local');
    expect(loadConfig({ HOST: '0.0.0.0', GOOGLE_CLIENT_ID: 'a', GOOGLE_CLIENT_SECRET: 'b' }).signIn.kind).toBe('google');
    expect(loadConfig({ HOST: '0.0.0.0', OIDC_ISSUER: 'https://id.example', OIDC_CLIENT_ID: 'a', OIDC_CLIENT_SECRET: 'b' }).signIn.kind).toBe('oidc');
    // One line, so it reads as one sentence in the start-up error.
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(/^[^\n]+$/);
  });

  it('picks Google, then a generic OIDC issuer', () => {
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'a', GOOGLE_CLIENT_SECRET: 'b' }).signIn.kind).toBe('google');
    expect(loadConfig({ OIDC_ISSUER: 'https://id.example', OIDC_CLIENT_ID: 'a', OIDC_CLIENT_SECRET: 'b' }).signIn.kind).toBe('oidc');
  });

  it('marks cookies secure when PUBLIC_URL is https and trims its slash', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://td.example.com/' }).publicUrl).toBe('https://td.example.com');
  });
});
