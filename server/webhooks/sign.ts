import crypto from 'node:crypto';

// A webhook's secret and what it signs (docs/webhooks.md). The secret is shown once and kept
// encrypted under a server secret (AES-256-GCM): a copy of the database alone cannot sign.

/** Secrets start with this, so one found in a log or a repository is recognised. */
const SECRET_PREFIX = 'whsec_';
const SEALED = 'v1';

export const newWebhookSecret = (): string => SECRET_PREFIX + crypto.randomBytes(32).toString('base64url');

/** The Tapedeck-Signature header of a body sent at `at` (unix seconds): t=<at>,v1=<hex HMAC-SHA256 of "<at>.<body>">. */
export function signature(secret: string, at: number, body: string): string {
  const mac = crypto.createHmac('sha256', secret).update(`${at}.${body}`).digest('hex');
  return `t=${at},v1=${mac}`;
}

/** The key secrets are sealed under, from the server secret kept under "webhooks". */
export const sealingKey = (serverSecret: string): Buffer => crypto.createHash('sha256').update(`tapedeck webhooks\n${serverSecret}`).digest();

/** The secret as stored: v1.<iv>.<tag>.<ciphertext>, base64url. */
export function sealSecret(key: Buffer, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [SEALED, iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** The secret a sealed value holds; throws when it was sealed under another key or changed. */
export function openSecret(key: Buffer, stored: string): string {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== SEALED || !iv || !tag || !sealed) throw new Error('a webhook secret is stored in an unknown form');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}
