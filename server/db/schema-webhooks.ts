/** A workspace's webhooks and their deliveries (migration 0037; docs/webhooks.md). */

export interface WebhooksTable {
  id: string;
  workspace_id: string;
  /** Only this campaign's sessions; null: every campaign of the workspace. */
  campaign_id: string | null;
  url: string;
  /** The events picked, comma-separated (common/api/webhooks.ts WEBHOOK_EVENTS). */
  events: string;
  /** 'json' or 'slack'. */
  format: string;
  /** Encrypted under the server's webhook key (webhooks/sign.ts). */
  secret: string;
  created_by: string | null;
  created_at: number;
  disabled_at: number | null;
  /** Sessions whose last activity is before this were looked at for this webhook's events. */
  scanned_until: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event: string;
  /** JSON of the body's `data`. */
  body: string;
  /** One delivery per webhook and key (event, session or quota); null for tests and re-sends. */
  dedupe_key: string | null;
  /** 'pending', 'delivered' or 'failed'. */
  status: string;
  attempts: number;
  /** When a node may next send it (past it while pending: due; a claim moves it past a lease). */
  next_attempt_at: number;
  response_code: number | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

export interface WebhookTables {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
