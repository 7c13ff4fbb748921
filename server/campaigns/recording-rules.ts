import type { TrackerRules } from '../../common/recording-rules.js';
import type { PackOptions } from '../ingest/pack-batch.js';
import type { CampaignRow } from './repository.js';

// A campaign's recording rules as its two enforcers need them: the tracker, which receives them
// with its settings, and ingest, which applies them again to whatever a sender sent.

/** The query parameters masked in kept page addresses, or null when the campaign keeps paths only. */
export const maskedParams = (row: CampaignRow): string[] | null => (row.keep_query === 1 ? row.masked_params.split('\n').filter(Boolean) : null);

/** The rules the tracker is told: only what differs from its defaults. */
export function trackerRules(row: CampaignRow): TrackerRules {
  const query = maskedParams(row);
  return query ? { query } : {};
}

/** What packing a batch of this campaign decides: console messages kept, page addresses reduced. */
export const packOptions = (row: CampaignRow): PackOptions => ({ captureConsole: row.capture_console !== 0, maskedParams: maskedParams(row) });
