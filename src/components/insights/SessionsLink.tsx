import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import type { SessionFilters } from '../../lib/sessionFilters.js';

/** A number on the insights screen, linked to the sessions list filtered to what it counts. */
export function SessionsLink({ campaignId, filters, label, children }: { campaignId: string; filters: SessionFilters; label: string; children: ReactNode }) {
  return (
    <Link to="/campaign/$campaignId" params={{ campaignId }} search={filters} aria-label={label} className="insights-link">
      {children}
    </Link>
  );
}
