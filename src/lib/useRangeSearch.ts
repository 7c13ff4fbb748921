import { getRouteApi } from '@tanstack/react-router';
import type { InsightsDays } from '../api/insights.js';

/** The screens whose URL holds only their range (the same params and search: validateRange's). */
type RangeRouteId = '/_authed/campaign/$campaignId/insights' | '/_authed/campaign/$campaignId/funnels';

/** A range screen's campaign and range, and the range's change as a replaced URL (for its component and errorComponent alike). */
export function useRangeSearch(routeId: RangeRouteId) {
  // Typed as one of them (TanStack's types do not take a union of ids); the match read is routeId's.
  const route = getRouteApi(routeId as '/_authed/campaign/$campaignId/insights');
  const { campaignId } = route.useParams();
  const { days } = route.useSearch();
  const navigate = route.useNavigate();
  return { campaignId, days, onDays: (next: InsightsDays) => void navigate({ search: { days: next }, replace: true }) };
}
