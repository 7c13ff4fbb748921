import { createFileRoute } from '@tanstack/react-router';
import { INSIGHTS_DAYS, type InsightsDays } from '../../../../api/insights.js';
import { funnelsQueryOptions } from '../../../../api/funnels.js';
import { CampaignFunnels } from '../../../../screens/CampaignFunnels.js';

const DEFAULT_DAYS: InsightsDays = 30;

export const Route = createFileRoute('/_authed/campaign/$campaignId/funnels')({
  // The range lives in the URL, as on the insights screen; anything else there is dropped.
  validateSearch: (search: Record<string, unknown>): { days?: InsightsDays } => {
    const days = Number(search.days) as InsightsDays;
    return INSIGHTS_DAYS.includes(days) && days !== DEFAULT_DAYS ? { days } : {};
  },
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
      onDays={(next) => void navigate({ search: next === DEFAULT_DAYS ? {} : { days: next }, replace: true })}
    />
  );
}
