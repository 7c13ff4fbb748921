import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { alertsQueryOptions } from '../api/webhooks.js';

/** The dashboard card's badge: how many alerts the campaign has (none: nothing shown), opening their list. */
export function AlertsBadge({ campaignId }: { campaignId: string }) {
  const { data } = useQuery(alertsQueryOptions(campaignId));
  // An answer that is not a list (an older server, a test answering every URL alike) shows nothing.
  const count = Array.isArray(data) ? data.length : 0;
  if (!count) return null;
  return (
    <Link to="/campaign/$campaignId/alerts" params={{ campaignId }} className="badge alerts-badge" data-testid="alerts-badge">
      {count === 1 ? '1 alert' : `${count} alerts`}
    </Link>
  );
}
