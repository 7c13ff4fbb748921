import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { insightsQueryOptions, RANGE_DEFAULTS, validateRange } from '../../../../api/insights.js';
import { CampaignInsights } from '../../../../screens/CampaignInsights.js';

export const Route = createFileRoute('/_authed/campaign/$campaignId/insights')({
  // The range lives in the URL (none: the default); anything else there is dropped.
  validateSearch: validateRange,
  search: { middlewares: [stripSearchParams(RANGE_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchQuery(insightsQueryOptions(params.campaignId, deps.days));
  },
  component: CampaignInsightsRoute,
});

function CampaignInsightsRoute() {
  const { campaignId } = Route.useParams();
  const { days } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CampaignInsights campaignId={campaignId} days={days} onDays={(next) => void navigate({ search: { days: next }, replace: true })} />;
}
