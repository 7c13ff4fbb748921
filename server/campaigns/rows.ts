import type { Insertable, Selectable } from 'kysely';
import type { Campaign } from '../../common/api-types.js';
import type { CampaignsTable } from '../db/schema.js';
import { ruleFields } from './recording-rules.js';

/** The API's campaign; `lastDataAt`: when it last received data (null: never). */
export function toCampaign(row: Insertable<CampaignsTable> | Selectable<CampaignsTable>, lastDataAt: number | null = null): Campaign {
  return {
    id: row.id,
    name: row.name,
    domains: row.domains,
    limit: row.session_limit,
    ...(row.workspace_id ? { workspace_id: row.workspace_id } : {}),
    start_date_time: row.start_date_time,
    end_date_time: row.end_date_time,
    captureConsole: row.capture_console !== 0,
    retention_days: row.retention_days ?? 0,
    ip_mode: row.ip_mode ?? 'full',
    ...ruleFields(row),
    session_count: row.session_count ?? 0,
    last_data_at: lastDataAt,
  };
}
