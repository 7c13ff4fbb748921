// The webhooks' settings (docs/configuration.md), read with config.ts's checks of the environment.

export interface WebhookSettings {
  /** WEBHOOK_ALLOW_PRIVATE: endpoints on private, loopback and link-local addresses (and http://) are allowed. */
  allowPrivate: boolean;
  /** WEBHOOK_RETRY_BASE_MS: the wait after a first failed attempt, doubled after each next one. */
  retryBaseMs: number;
  /** WEBHOOK_POLL_MS: how often each node looks for due deliveries. */
  pollMs: number;
  /** WEBHOOK_SCAN_MS: how often ended sessions and quotas are looked at for events (one node at a time). */
  scanMs: number;
}

interface SettingReader {
  int(name: string, fallback: number, min: number, max: number): number;
  bool(name: string): boolean;
}

export const webhookSettings = (read: SettingReader): WebhookSettings => ({
  allowPrivate: read.bool('WEBHOOK_ALLOW_PRIVATE'),
  retryBaseMs: read.int('WEBHOOK_RETRY_BASE_MS', 30_000, 10, 3_600_000),
  pollMs: read.int('WEBHOOK_POLL_MS', 1000, 10, 60_000),
  scanMs: read.int('WEBHOOK_SCAN_MS', 30_000, 100, 3_600_000),
});
