import { createFileRoute } from '@tanstack/react-router';
import { DEFAULT_DAYS, daysInUrl, insightsQueryOptions, type InsightsDays } from '../../../../api/insights.js';
import { CampaignInsights } from '../../../../screens/CampaignInsights.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/insights')({
  // The range lives in the URL; anything else there is dropped.
  validateSearch: (search: Record<string, unknown>): { days?: InsightsDays } => daysInUrl(search.days),
  loaderDeps: ({ search }) => ({ days: search.days ?? DEFAULT_DAYS }),
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchQuery(insightsQueryOptions(params.campaignId, deps.days));
  },
  component: CampaignInsightsRoute,
});

function CampaignInsightsRoute() {
  const { campaignId } = Route.useParams();
  const { days = DEFAULT_DAYS } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CampaignInsights campaignId={campaignId} days={days} onDays={(next) => void navigate({ search: daysInUrl(next), replace: true })} />;
}
