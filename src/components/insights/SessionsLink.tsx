import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import type { SessionType } from '../../../common/session-list.js';
import type { SessionFilters } from '../../lib/sessionFilters.js';

/** What an insights figure counts, as the sessions list's URL takes it: its filters, and humans or bots only. */
export type SessionsSearch = SessionFilters & { type?: SessionType };

/** A figure on the insights screen, a link (a real <a>) to the sessions list filtered to exactly the sessions it counts. */
export function SessionsLink({ campaignId, filters, label, children }: { campaignId: string; filters: SessionsSearch; label: string; children: ReactNode }) {
  return (
    <Link to="/campaign/$campaignId" params={{ campaignId }} search={filters} aria-label={label} className="insights-link">
      {children}
    </Link>
  );
}

/** A bucket of the series as the list's time filters, within the range (the first hour may start before it). */
export const bucketFilters = (t: number, bucketMs: number, range: { from: number; to: number }): SessionFilters => ({
  from: Math.max(t, range.from),
  to: Math.min(t + bucketMs, range.to),
});
