import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { RANGE_DEFAULTS, validateRange, type InsightsDays } from '../../../../api/insights.js';
import { funnelsQueryOptions } from '../../../../api/funnels.js';
import { CampaignFunnels, CampaignFunnelsError } from '../../../../screens/CampaignFunnels.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/funnels')({
  // The range lives in the URL, as on the insights screen (none: the default); anything else there is dropped.
  validateSearch: validateRange,
  search: { middlewares: [stripSearchParams(RANGE_DEFAULTS)] },
  // The cached copy answers at once (offline: the persisted one); a load that fails shows errorComponent.
  loader: async ({ context, params }) => {
    await context.queryClient.ensureQueryData(funnelsQueryOptions(params.campaignId));
  },
  component: CampaignFunnelsRoute,
  errorComponent: CampaignFunnelsErrorRoute,
});

/** The campaign and range, and the range's change as a replaced URL (for the component and the errorComponent alike). */
function useRange() {
  const { campaignId } = Route.useParams();
  const { days } = Route.useSearch();
  const navigate = Route.useNavigate();
  return { campaignId, days, onDays: (next: InsightsDays) => void navigate({ search: { days: next }, replace: true }) };
}

function CampaignFunnelsRoute() {
  return <CampaignFunnels {...useRange()} />;
}

function CampaignFunnelsErrorRoute() {
  return <CampaignFunnelsError {...useRange()} />;
}
