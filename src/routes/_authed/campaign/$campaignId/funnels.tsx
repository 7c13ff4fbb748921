import { createFileRoute } from '@tanstack/react-router';
import { DEFAULT_DAYS, daysInUrl, type InsightsDays } from '../../../../api/insights.js';
import { funnelsQueryOptions } from '../../../../api/funnels.js';
import { CampaignFunnels } from '../../../../screens/CampaignFunnels.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/funnels')({
  // The range lives in the URL, as on the insights screen; anything else there is dropped.
  validateSearch: (search: Record<string, unknown>): { days?: InsightsDays } => daysInUrl(search.days),
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(funnelsQueryOptions(params.campaignId));
  },
  component: CampaignFunnelsRoute,
});

function CampaignFunnelsRoute() {
  const { campaignId } = Route.useParams();
  const { days = DEFAULT_DAYS } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <CampaignFunnels
      campaignId={campaignId}
      days={days}
      onDays={(next) => void navigate({ search: daysInUrl(next), replace: true })}
    />
  );
}
