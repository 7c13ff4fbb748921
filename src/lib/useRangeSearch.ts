import { getRouteApi } from '@tanstack/react-router';
import type { InsightsDays } from '../api/insights.js';

/** The screens whose URL holds only their range. */
type RangeRouteId = '/_authed/campaign/$campaignId/insights' | '/_authed/campaign/$campaignId/funnels';

/** A range screen's campaign and range, and the range's change as a replaced URL (for its component and errorComponent alike). */
export function useRangeSearch(routeId: RangeRouteId) {
  const route = getRouteApi(routeId);
  const { campaignId } = route.useParams();
  const { days } = route.useSearch();
  const navigate = route.useNavigate();
  return { campaignId, days, onDays: (next: InsightsDays) => void navigate({ search: { days: next }, replace: true }) };
}
